/**
 * Reference-based metrics (issue #33) end to end on PostgreSQL: computed at import, again when a
 * reference or an answer changes (re-import, redaction), shown to leads through the sets API,
 * the set detail, the exports and the per-model summary, and never to graders.
 */
import { describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { POST as redactRoute } from "@/app/api/v1/studies/[id]/redactions/route";
import { GET as setsRoute } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as summaryRoute } from "@/app/api/v1/studies/[id]/reference-metrics/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { getDb } from "@/lib/db/client";
import { getPool } from "@/lib/db/client";
import { metricsOf } from "@/lib/reference-metrics/compute";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";
import { setDetail } from "@/lib/results/set-detail";
import { corpusBleu } from "@/lib/stats/bleu";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

const REF_Q1 = "Lower the intraocular pressure: topical timolol, an alpha-agonist and IV acetazolamide, then laser iridotomy.";
const REF_Q2 = "Lidocaine with epinephrine: at most 7 mg/kg.";
const QUESTIONS: Record<string, { specialty: string; question: string; reference: string }> = {
  Q1: { specialty: "Ophthalmology", question: "First-line treatment of acute angle-closure glaucoma?", reference: REF_Q1 },
  Q2: { specialty: "Anesthesia", question: "Maximum dose of lidocaine with epinephrine?", reference: REF_Q2 },
  Q3: { specialty: "Anesthesia", question: "A question without a reference answer?", reference: "" },
};
const ANSWERS: Record<string, Record<string, string[]>> = {
  Q1: {
    "gpt-x": ["Lower IOP with timolol, an alpha-agonist and IV acetazolamide; then laser iridotomy.", "Give timolol and acetazolamide.", "Laser iridotomy after lowering the pressure."],
    "llama-y": ["Refer to ophthalmology.", "Topical timolol, alpha-agonist, IV acetazolamide, then iridotomy.", "La pression intraoculaire doit baisser."],
  },
  Q2: {
    "gpt-x": ["At most 7 mg/kg with epinephrine.", "7 mg/kg", "The maximum is 7 mg/kg."],
    "llama-y": ["4.5 mg/kg without, 7 mg/kg with epinephrine.", "Μέγιστη δόση 7 mg/kg.", "Lidocaine with epinephrine: at most 7 mg/kg."],
  },
  Q3: { "gpt-x": ["Anything.", "Something.", "Nothing."], "llama-y": ["One.", "Two.", "Three."] },
};

const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
function csv(items = Object.keys(ANSWERS), answers = ANSWERS, references: Record<string, string> = {}) {
  const lines = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (const id of items) {
    const it = QUESTIONS[id];
    for (const [model, texts] of Object.entries(answers[id])) {
      texts.forEach((t, i) => lines.push([id, it.specialty, q(it.question), q(references[id] ?? it.reference), model, i + 1, q(t)].join(",")));
    }
  }
  return lines.join("\n");
}

async function importCsv(studyId: string, token: string, body: string) {
  const r = await call(importRoute, `/api/v1/studies/${studyId}/import`, bearer(token, { method: "POST", body, headers: { "content-type": "text/csv" } }), { id: studyId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

type Stored = { item: string; model: string; repetition: number; text: string; reference: string; bleu: number | null; rouge1: number | null; rougeL: number | null; bleuStats: number[] };
async function stored(studyId: string): Promise<Stored[]> {
  const rows = await getDb().response.findMany({
    where: { responseSet: { studyId } },
    select: { repetition: true, text: true, bleu: true, rouge1: true, rougeL: true, bleuStats: true, responseSet: { select: { item: { select: { externalId: true, referenceAnswer: true } }, model: { select: { name: true } } } } },
  });
  return rows
    .map((r) => ({ item: r.responseSet.item.externalId, model: r.responseSet.model.name, repetition: r.repetition, text: r.text, reference: r.responseSet.item.referenceAnswer, bleu: r.bleu, rouge1: r.rouge1, rougeL: r.rougeL, bleuStats: r.bleuStats }))
    .sort((a, b) => `${a.item}|${a.model}|${a.repetition}`.localeCompare(`${b.item}|${b.model}|${b.repetition}`));
}

/** Every stored answer carries the metrics of its text against its question's reference (computed here with lib/stats). */
function expectConsistent(rows: Stored[]) {
  for (const r of rows) {
    const m = metricsOf(r.reference, r.text);
    const where = `${r.item} ${r.model} ${r.repetition}`;
    if (!m) {
      expect({ where, bleu: r.bleu, rouge1: r.rouge1, rougeL: r.rougeL, stats: r.bleuStats }).toEqual({ where, bleu: null, rouge1: null, rougeL: null, stats: [] });
      continue;
    }
    expect(r.bleu, where).toBeCloseTo(m.bleu, 12);
    expect(r.rouge1, where).toBeCloseTo(m.rouge1, 12);
    expect(r.rougeL, where).toBeCloseTo(m.rougeL, 12);
    expect(r.bleuStats, where).toEqual([m.stats.hypLen, m.stats.refLen, ...m.stats.correct, ...m.stats.total]);
  }
}

describe("reference-based metrics", () => {
  it("are computed at import, listed per answer for leads, summarised per model and specialty, and exported", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    await importCsv(study.id, lead.token, csv());
    const rows = await stored(study.id);
    expect(rows).toHaveLength(18);
    expectConsistent(rows);
    // Hand-checked anchors: an answer equal to its reference scores 1; the Greek answer keeps only "7 mg kg" for ROUGE.
    const same = rows.find((r) => r.item === "Q2" && r.model === "llama-y" && r.repetition === 3)!;
    expect([same.bleu, same.rouge1, same.rougeL]).toEqual([1, 1, 1]);
    expect(rows.find((r) => r.item === "Q3")!.bleu).toBeNull();
    const some = rows.find((r) => r.item === "Q1" && r.model === "gpt-x" && r.repetition === 2)!;
    expect(some.bleu).toBeGreaterThan(0);
    expect(some.bleu).toBeLessThan(1);

    // Sets API: per answer, by repetition.
    const sets = await call(setsRoute, `/api/v1/studies/${study.id}/sets`, bearer(lead.token), { id: study.id });
    expect(sets.status).toBe(200);
    const apiSets = sets.body.sets as { externalId: string; model: { name: string }; answers: { repetition: number; bleu: number | null; rouge1: number | null; rougeL: number | null }[] }[];
    expect(apiSets).toHaveLength(6);
    for (const s of apiSets) {
      expect(s.answers.map((a) => a.repetition)).toEqual([1, 2, 3]);
      for (const a of s.answers) {
        const r = rows.find((x) => x.item === s.externalId && x.model === s.model.name && x.repetition === a.repetition)!;
        expect(a).toEqual({ repetition: a.repetition, bleu: r.bleu, rouge1: r.rouge1, rougeL: r.rougeL, embeddingSimilarity: null });
      }
    }

    // Set detail (the lead's page).
    const setId = (await getDb().responseSet.findFirstOrThrow({ where: { studyId: study.id, item: { externalId: "Q2" }, model: { name: "llama-y" } } })).id;
    const detail = await setDetail(study.id, setId);
    expect(detail!.answers.map((a) => a.bleu)).toEqual(rows.filter((r) => r.item === "Q2" && r.model === "llama-y").map((r) => r.bleu));

    // Summary: means per model and specialty, corpus BLEU as sacreBLEU's corpus_bleu over those answers.
    const summary = await call(summaryRoute, `/api/v1/studies/${study.id}/reference-metrics`, bearer(lead.token), { id: study.id });
    expect(summary.status).toBe(200);
    const srows = summary.body.rows as { model: string; specialty: string | null; answers: number; bleu: number; rouge1: number; rougeL: number; corpusBleu: number }[];
    expect(srows.map((r) => `${r.model}|${r.specialty}`)).toEqual(["gpt-x|null", "gpt-x|Anesthesia", "gpt-x|Ophthalmology", "llama-y|null", "llama-y|Anesthesia", "llama-y|Ophthalmology"]);
    for (const s of srows) {
      const mine = rows.filter((r) => r.model === s.model && r.bleu !== null && (s.specialty === null || QUESTIONS[r.item].specialty === s.specialty));
      const mean = (k: "bleu" | "rouge1" | "rougeL") => mine.reduce((a, r) => a + (r[k] as number), 0) / mine.length;
      expect(s.answers).toBe(mine.length);
      expect(s.bleu).toBeCloseTo(mean("bleu"), 12);
      expect(s.rouge1).toBeCloseTo(mean("rouge1"), 12);
      expect(s.rougeL).toBeCloseTo(mean("rougeL"), 12);
      expect(s.corpusBleu).toBeCloseTo(corpusBleu(mine.map((r) => ({ hypothesis: r.text, reference: r.reference }))), 12);
    }
    // Q3 has no reference: its answers do not count (Anesthesia has Q2's 3 answers only).
    expect(srows.find((r) => r.model === "gpt-x" && r.specialty === "Anesthesia")!.answers).toBe(3);

    // Exports: sets (JSON and CSV) per set and per answer; score-long adds the columns for such a study.
    const exp = (query: string) => exportRoute(new Request(`http://localhost/api/v1/studies/${study.id}/export?${query}`, bearer(lead.token)), { params: Promise.resolve({ id: study.id }) });
    const setsJson = (await (await exp("dataset=sets&format=json")).json()) as { item_id: string; model: { name: string }; bleu: number | null; rouge1: number | null; rougeL: number | null; answers: { bleu: number | null }[] }[];
    const q1gpt = setsJson.find((s) => s.item_id === "Q1" && s.model.name === "gpt-x")!;
    const q1rows = rows.filter((r) => r.item === "Q1" && r.model === "gpt-x");
    expect(q1gpt.bleu).toBeCloseTo(q1rows.reduce((a, r) => a + r.bleu!, 0) / 3, 4);
    expect(q1gpt.answers.map((a) => a.bleu)).toEqual(q1rows.map((r) => Number(r.bleu!.toFixed(4))));
    expect(setsJson.find((s) => s.item_id === "Q3")!.bleu).toBeNull();
    const setsCsv = await (await exp("dataset=sets&format=csv")).text();
    const header = setsCsv.split("\n")[0].trim().split(",");
    expect(header.slice(-4)).toEqual(["bleu", "rouge1", "rougeL", "answer_metrics"]);
    const scoreLong = await (await exp("dataset=score-long&format=csv")).text();
    expect(scoreLong.split("\n")[0].trim().split(",").slice(-3)).toEqual(["bleu", "rouge1", "rougeL"]);
  });

  it("uses the stored reference for answers-only rows and recomputes when a reference or an answer changes", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    // Questions and Q1's answers first; then Q1's answers again as an answers-only file, one changed.
    await importCsv(study.id, lead.token, csv(["Q1"]));
    const changed = { Q1: { ...ANSWERS.Q1, "gpt-x": ["Timolol, then laser iridotomy.", ...ANSWERS.Q1["gpt-x"].slice(1)] } };
    const answersOnly = ["item_id,model,repetition,response", ...Object.entries(changed.Q1).flatMap(([m, texts]) => texts.map((t, i) => `Q1,${m},${i + 1},${q(t)}`))].join("\n");
    const before = await stored(study.id);
    const r = await importCsv(study.id, lead.token, answersOnly);
    expect(r).toMatchObject({ updated: 1, unchanged: 5 });
    const after = await stored(study.id);
    expectConsistent(after);
    expect(after[0].bleu).not.toBe(before[0].bleu);

    // A new reference answer (questions-only file, nothing graded): every answer of Q1 is scored again.
    const questionsOnly = `item_id,specialty,question,reference_answer\nQ1,Ophthalmology,${q(QUESTIONS.Q1.question)},${q("Timolol, then laser iridotomy.")}`;
    await importCsv(study.id, lead.token, questionsOnly);
    const rescored = await stored(study.id);
    expect(rescored.every((x) => x.reference === "Timolol, then laser iridotomy.")).toBe(true);
    expectConsistent(rescored);
    expect(rescored[0]).toMatchObject({ bleu: 1, rouge1: 1, rougeL: 1 });

    // A reference emptied: the metrics become null.
    await importCsv(study.id, lead.token, `item_id,specialty,question,reference_answer\nQ1,Ophthalmology,${q(QUESTIONS.Q1.question)},`);
    expect((await stored(study.id)).every((x) => x.bleu === null && x.bleuStats.length === 0)).toBe(true);

    // A redaction changes answers' text: their metrics follow.
    await importCsv(study.id, lead.token, questionsOnly);
    const red = await call(
      redactRoute,
      `/api/v1/studies/${study.id}/redactions`,
      bearer(lead.token, { method: "POST", body: JSON.stringify({ find: "timolol", replace: "a beta-blocker" }), headers: { "content-type": "application/json" } }),
      { id: study.id },
    );
    expect(red.status, JSON.stringify(red.body)).toBe(200);
    const redacted = await stored(study.id);
    expect(redacted.some((x) => x.text.includes("a beta-blocker"))).toBe(true);
    expectConsistent(redacted);
  });

  it("never reach graders", async () => {
    const f = await makeGradableStudy({ items: 2, graders: 2 });
    expect(await refreshReferenceMetrics(pgQuery(getPool()), { studyId: f.study.id })).toBeGreaterThan(0);
    expect(await getDb().response.count({ where: { responseSet: { studyId: f.study.id }, bleu: { not: null } } })).toBeGreaterThan(0);
    const a = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, bearer(f.lead.token, { method: "POST", body: "{}" }), { id: f.study.id });
    expect(a.status).toBe(200);
    const grader = f.graders[0];
    const queue = await call(myAssignments, "/api/v1/me/assignments", bearer(grader.token));
    expect(JSON.stringify(queue.body)).not.toMatch(/bleu|rouge/i);
    const first = (queue.body.assignments as { id: string }[])[0];
    const view = await call(getAssignment, `/api/v1/assignments/${first.id}`, bearer(grader.token), { id: first.id });
    expect(view.status).toBe(200);
    expect(JSON.stringify(view.body)).not.toMatch(/bleu|rouge/i);
    for (const route of [setsRoute, summaryRoute]) {
      expect((await call(route, `/api/v1/studies/${f.study.id}/x`, bearer(grader.token), { id: f.study.id })).status).toBe(403);
    }
  });
});
