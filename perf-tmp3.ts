import { prepareReference, scoreAnswer } from "@/lib/stats/text-metrics";
import { preprocess13a, scan13a, scanRouge } from "@/lib/stats/text-tokenize";
import { mulberry32 } from "@/lib/stats";
const WORDS = ("the patient presents with acute symptoms and a history of hypertension diabetes renal impairment; recommended management includes monitoring blood pressure, adjusting the dose, reviewing contraindications, and referral to a specialist if symptoms persist. evidence from randomized trials suggests benefit, although guidelines differ on thresholds for treatment and follow-up intervals in elderly patients").split(" ");
const rng = mulberry32(1);
const ans = () => { const t = 500 + Math.floor(rng()*1000); const p: string[] = []; let l = 0; while (l < t) { const w = WORDS[Math.floor(rng()*WORDS.length)]; p.push(w); l += w.length+1; } return p.join(" ").slice(0, t); };
const all = Array.from({length: 20000}, ans);
const ref = prepareReference(all[0].slice(0, 300));
const T = (name: string, f: (a: string) => number) => { const t0 = performance.now(); let s = 0; for (const a of all) s += f(a); console.log(name.padEnd(12), ((performance.now()-t0)/all.length*1000).toFixed(1), "us"); };
for (let r = 0; r < 2; r++) {
T("pre13a", (a) => preprocess13a(a).length);
T("scan13a", (a) => { const l = preprocess13a(a); let n = 0; scan13a(l, () => n++); return n; });
T("lower", (a) => a.toLowerCase().length);
T("scanRouge", (a) => { const l = a.toLowerCase(); let n = 0; scanRouge(l, () => n++); return n; });
T("score", (a) => scoreAnswer(ref, a).bleu);
}
