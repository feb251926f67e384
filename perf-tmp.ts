import { prepareReference, scoreAnswer } from "@/lib/stats/text-metrics";
import { mulberry32 } from "@/lib/stats";
const WORDS = ("the patient presents with acute symptoms and a history of hypertension diabetes renal impairment; recommended management includes monitoring blood pressure, adjusting the dose, reviewing contraindications, and referral to a specialist if symptoms persist. evidence from randomized trials suggests benefit, although guidelines differ on thresholds for treatment and follow-up intervals in elderly patients").split(" ");
const rng = mulberry32(1);
const ans = () => { const t = 500 + Math.floor(rng()*1000); const p: string[] = []; let l = 0; while (l < t) { const w = WORDS[Math.floor(rng()*WORDS.length)]; p.push(w); l += w.length+1; } return p.join(" ").slice(0, t); };
const items = Array.from({length: 10000}, () => ({ ref: ans().slice(0,300), answers: Array.from({length: 9}, ans) }));
const t0 = performance.now(); let s = 0;
for (const it of items) { const r = prepareReference(it.ref); for (const a of it.answers) s += scoreAnswer(r, a).bleu; }
console.log("90k answers", (performance.now()-t0).toFixed(0), "ms", s);
