import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { completeResponseSetIds, completenessOf } from "@/lib/import/completeness";
import { importIntoStudy, type ImportOptions, type ImportResult } from "@/lib/import/service";
import { ApiError } from "@/lib/errors/api-error";
import { makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const HEADER = ["item_id", "specialty", "question", "reference_answer", "model", "repetition", "response"];

function quote(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function csv(header: string[], rows: (string | number)[][], eol = "\n"): string {
  return [header, ...rows].map((r) => r.map(quote).join(",")).join(eol) + eol;
}

/** Rows of a complete file: `items` questions x `models` x N = 3 answers. */
function fullRows(items: number, models = ["gpt-x", "llama-y"], n = 3, answer = (i: number, m: string, r: number) => `Answer ${r} of ${m} to question ${i}.`) {
  const rows: (string | number)[][] = [];
  for (let i = 1; i <= items; i++) {
    for (const m of models) {
      for (let r = 1; r <= n; r++) rows.push([`Q${i}`, i % 2 ? "Ophthalmology" : "Anesthesia", `Question ${i}?`, `Reference ${i}.`, m, r, answer(i, m, r)]);
    }
  }
  return rows;
}

/** The body as a stream of small chunks, as it arrives over HTTP (chunk edges fall anywhere, even inside a character). */
function body(text: string, chunk = 97): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
}

type Study = Awaited<ReturnType<typeof makeStudy>>;
let lead: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  lead = await makeUser("LEAD");
});

async function run(study: Study, text: string, extra: Partial<ImportOptions> = {}): Promise<ImportResult> {
  const fresh = await getDb().study.findUniqueOrThrow({ where: { id: study.id } });
  return importIntoStudy({ study: fresh, actorId: lead.id, requestId: "test-req", contentType: "text/csv", body: body(text), ...extra });
}

async function rejected(p: Promise<unknown>): Promise<ApiError & { details: { errors: { row: number; line?: number; column: string | null; message: string }[]; total: number } }> {
  const e = await p.then(
    () => {
      throw new Error("expected the import to be refused");
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as never;
}

async function counts(studyId: string) {
  const db = getDb();
  const [items, models, sets, responses] = await Promise.all([
    db.qaItem.count({ where: { studyId } }),
    db.llmModel.count({ where: { studyId } }),
    db.responseSet.count({ where: { studyId } }),
    db.response.count({ where: { responseSet: { studyId } } }),
  ]);
  return { items, models, sets, responses };
}

async function texts(studyId: string) {
  const rows = await getDb().response.findMany({
    where: { responseSet: { studyId } },
    select: { text: true, updatedAt: true, repetition: true, responseSet: { select: { item: { select: { externalId: true } }, model: { select: { name: true } } } } },
  });
  return new Map(rows.map((r) => [`${r.responseSet.item.externalId}|${r.responseSet.model.name}|${r.repetition}`, r]));
}

/** Gives one response set a submitted grade, as a grader would. */
async function grade(studyId: string, externalId: string, model: string) {
  const db = getDb();
  const grader = await makeUser("GRADER");
  const set = await db.responseSet.findFirstOrThrow({ where: { studyId, item: { externalId }, model: { name: model } } });
  const a = await db.assignment.create({ data: { responseSetId: set.id, studyId, graderId: grader.id, kind: "PRIMARY", position: 0, status: "SUBMITTED" } });
  await db.grade.create({ data: { assignmentId: a.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 4 } });
  return set;
}

describe("import of questions and answers", () => {
  it("imports a full file: items, specialties, models, sets and answers, with counts and an audit event", async () => {
    const study = await makeStudy(lead.id, "Full");
    const r = await run(study, csv(HEADER, fullRows(4)));
    expect(r).toMatchObject({
      kind: "full",
      dryRun: false,
      items: 4,
      responses: 24,
      responseSets: 8,
      created: 24,
      unchanged: 0,
      updated: 0,
      questions: { created: 4, unchanged: 0, updated: 0 },
      responseSetsCreated: 8,
      modelsCreated: 2,
      incompleteSets: { count: 0, examples: [] },
    });
    expect(await counts(study.id)).toEqual({ items: 4, models: 2, sets: 8, responses: 24 });
    const item = await getDb().qaItem.findFirstOrThrow({ where: { studyId: study.id, externalId: "Q1" }, include: { specialty: true } });
    expect(item).toMatchObject({ question: "Question 1?", referenceAnswer: "Reference 1.", specialty: { name: "Ophthalmology" } });
    expect(await completeResponseSetIds(getDb(), study.id)).toHaveLength(8);

    const audit = await getDb().auditEvent.findMany({ where: { studyId: study.id, action: "study.import" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: lead.id, entityType: "Study", entityId: study.id, requestId: "test-req" });
    expect(audit[0].after).toMatchObject({ created: 24, items: 4, responses: 24, rows: 24 });
    // Counts only: the audit never copies the file.
    expect(JSON.stringify(audit[0].after)).not.toContain("Answer 1");
  });

  it("writes nothing when one row at the end is wrong (one transaction)", async () => {
    const study = await makeStudy(lead.id, "Atomic");
    await run(study, csv(HEADER, fullRows(2)));
    const before = await counts(study.id);
    const rows = [...fullRows(5), ["Q6", "Cardiology", "Question 6?", "", "gpt-x", 4, "Out of range"]];
    const e = await rejected(run(study, csv(HEADER, rows)));
    expect(e.status).toBe(422);
    expect(e.details.total).toBe(1);
    expect(e.details.errors).toEqual([
      { row: 31, line: 32, column: "repetition", message: "repetition 4 is outside 1..3 (this study's N, answers per question and model)" },
    ]);
    expect(await counts(study.id)).toEqual(before);
    expect(await getDb().specialty.count({ where: { name: "Cardiology" } })).toBe(0);
    expect(await getDb().auditEvent.count({ where: { studyId: study.id, action: "study.import" } })).toBe(1);
  });

  it("changes nothing when the same file is imported again, and says so", async () => {
    const study = await makeStudy(lead.id, "Idempotent");
    const file = csv(HEADER, fullRows(3));
    await run(study, file);
    const before = await counts(study.id);
    const stamps = await texts(study.id);
    const again = await run(study, file);
    expect(again).toMatchObject({ created: 0, unchanged: 18, updated: 0, questions: { created: 0, unchanged: 3, updated: 0 }, responseSetsCreated: 0, modelsCreated: 0 });
    expect(await counts(study.id)).toEqual(before);
    const after = await texts(study.id);
    for (const [k, v] of stamps) expect(after.get(k)?.updatedAt).toEqual(v.updatedAt);
  });

  it("treats the same file saved with CRLF and a BOM as the same file", async () => {
    const study = await makeStudy(lead.id, "Line endings");
    const rows = fullRows(2, ["gpt-x"], 3, (i, _m, r) => `Line one of ${i}/${r}\nline two, with a "quote"`);
    await run(study, csv(HEADER, rows));
    const again = await run(study, "\uFEFF" + csv(HEADER, rows.map((r) => r.map((v) => (typeof v === "string" ? v.replace(/\n/g, "\r\n") : v))), "\r\n"));
    expect(again).toMatchObject({ created: 0, unchanged: 6, updated: 0 });
    const t = await texts(study.id);
    expect(t.get("Q1|gpt-x|2")?.text).toBe('Line one of 1/2\nline two, with a "quote"');
  });

  it("updates ungraded answers and reports them as updated", async () => {
    const study = await makeStudy(lead.id, "Update");
    await run(study, csv(HEADER, fullRows(2)));
    const changed = fullRows(2, undefined, 3, (i, m, r) => (i === 2 && m === "gpt-x" && r === 3 ? "A corrected answer." : `Answer ${r} of ${m} to question ${i}.`));
    const r = await run(study, csv(HEADER, changed));
    expect(r).toMatchObject({ created: 0, updated: 1, unchanged: 11 });
    expect((await texts(study.id)).get("Q2|gpt-x|3")?.text).toBe("A corrected answer.");
    expect(await counts(study.id)).toEqual({ items: 2, models: 2, sets: 4, responses: 12 });
  });

  it("refuses to change an answer that has grades, naming the rows, and changes nothing", async () => {
    const study = await makeStudy(lead.id, "Graded");
    await run(study, csv(HEADER, fullRows(2)));
    await grade(study.id, "Q1", "gpt-x");
    const before = await texts(study.id);
    const changed = fullRows(2, undefined, 3, (i, m, r) => {
      if (i === 1 && m === "gpt-x" && r >= 2) return `Rewritten ${r}.`; // graded set: refused
      if (i === 2 && m === "llama-y" && r === 1) return "Rewritten, ungraded."; // would be allowed alone
      return `Answer ${r} of ${m} to question ${i}.`;
    });
    const e = await rejected(run(study, csv(HEADER, changed)));
    expect(e.status).toBe(409);
    expect(e.details.total).toBe(2);
    expect(e.details.errors.map((x) => [x.row, x.column])).toEqual([
      [2, "response"],
      [3, "response"],
    ]);
    expect(e.details.errors[0].message).toMatch(/item Q1, model gpt-x, repetition 2 already has grades/);
    const after = await texts(study.id);
    for (const [k, v] of before) expect(after.get(k)?.text).toBe(v.text);
  });

  it("refuses to change the question of a graded item, but accepts the same question again", async () => {
    const study = await makeStudy(lead.id, "Graded question");
    await run(study, csv(HEADER, fullRows(2)));
    await grade(study.id, "Q1", "llama-y");
    const rows = fullRows(2).map((r) => (r[0] === "Q1" ? [r[0], r[1], "Question 1, reworded?", ...r.slice(3)] : r));
    const e = await rejected(run(study, csv(HEADER, rows)));
    expect(e.status).toBe(409);
    expect(e.details.errors).toEqual([expect.objectContaining({ row: 1, column: "question", message: expect.stringMatching(/item Q1 already has grades/) })]);
    expect((await getDb().qaItem.findFirstOrThrow({ where: { studyId: study.id, externalId: "Q1" } })).question).toBe("Question 1?");
    // An ungraded item's question may change, and so may its specialty, even to one new to the instance.
    const ok = fullRows(2).map((r) => (r[0] === "Q2" ? [r[0], "Neuro-ophthalmology", "Question 2, reworded?", ...r.slice(3)] : r));
    expect((await run(study, csv(HEADER, ok))).questions).toEqual({ created: 0, unchanged: 1, updated: 1 });
    const q2 = await getDb().qaItem.findFirstOrThrow({ where: { studyId: study.id, externalId: "Q2" }, include: { specialty: true } });
    expect(q2).toMatchObject({ question: "Question 2, reworded?", specialty: { name: "Neuro-ophthalmology" } });
  });

  it("imports a questions-only file, then answers-only files for those items", async () => {
    const study = await makeStudy(lead.id, "Split");
    const q = await run(
      study,
      csv(
        ["item_id", "specialty", "question", "reference_answer"],
        [
          ["A1", "Nephrology", "What is CKD stage 3a?", "eGFR 45-59."],
          ["A2", "nephrology", "Is metformin safe at eGFR 25?", ""],
        ],
      ),
    );
    expect(q).toMatchObject({ kind: "questions", items: 2, responses: 0, questions: { created: 2, unchanged: 0, updated: 0 } });
    // Case-insensitive specialty names: one specialty, first spelling kept.
    const items = await getDb().qaItem.findMany({ where: { studyId: study.id }, include: { specialty: true }, orderBy: { externalId: "asc" } });
    expect(items.map((i) => i.specialty.name)).toEqual(["Nephrology", "Nephrology"]);

    const answers = ["item_id", "model", "repetition", "response", "model_version", "temperature"];
    const a = await run(study, csv(answers, [["A1", "gpt-x", 1, "An answer.", "2025-01", "0.7"], ["A1", "gpt-x", 2, "Another answer.", "", ""]]));
    expect(a).toMatchObject({
      kind: "answers",
      created: 2,
      responseSets: 1,
      incompleteSets: { count: 1, examples: [{ itemId: "A1", model: "gpt-x", repetitions: [1, 2] }] },
    });
    expect(await getDb().llmModel.findFirstOrThrow({ where: { studyId: study.id } })).toMatchObject({ name: "gpt-x", version: "2025-01", temperature: 0.7, topP: null });
    expect(await completeResponseSetIds(getDb(), study.id)).toEqual([]);

    const b = await run(study, csv(answers, [["A1", "gpt-x", 3, "The third.", "2025-01", "0.7"]]));
    expect(b).toMatchObject({ created: 1, incompleteSets: { count: 0, examples: [] } });
    expect(await completenessOf(getDb(), study.id)).toEqual({ complete: 1, incomplete: 0 });

    const unknown = await rejected(run(study, csv(answers, [["A9", "gpt-x", 1, "x", "", ""], ["A2", "gpt-x", 1, "y", "", ""]])));
    expect(unknown.status).toBe(422);
    expect(unknown.details.errors).toEqual([
      { row: 1, line: 2, column: "item_id", message: "unknown item A9: this study has no question with that item_id; import the question first" },
    ]);
    expect(await getDb().response.count({ where: { responseSet: { item: { externalId: "A2" } } } })).toBe(0);
  });

  it("refuses a model version that differs from the one recorded", async () => {
    const study = await makeStudy(lead.id, "Versions");
    const header = [...HEADER, "model_version"];
    await run(study, csv(header, fullRows(1, ["gpt-x"]).map((r) => [...r, "v1"])));
    const e = await rejected(run(study, csv(header, fullRows(1, ["gpt-x"]).map((r) => [...r, "v2"]))));
    expect(e.status).toBe(409);
    expect(e.details.errors).toEqual([expect.objectContaining({ row: 1, column: "model_version", message: expect.stringMatching(/recorded in this study with model_version "v1"/) })]);
  });

  it("checks a dry run fully against the study but writes nothing", async () => {
    const study = await makeStudy(lead.id, "Dry");
    const file = csv(HEADER, fullRows(3));
    const dry = await run(study, file, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, created: 18, items: 3, responseSetsCreated: 6, modelsCreated: 2 });
    expect(await counts(study.id)).toEqual({ items: 0, models: 0, sets: 0, responses: 0 });
    expect(await getDb().auditEvent.count({ where: { studyId: study.id } })).toBe(0);
    const real = await run(study, file);
    expect(real).toMatchObject({ dryRun: false, created: 18 });
  });

  it("reports incomplete sets with examples", async () => {
    const study = await makeStudy(lead.id, "Incomplete");
    const rows = fullRows(3).filter((r) => !(r[0] === "Q2" && r[4] === "llama-y" && r[5] === 3) && !(r[0] === "Q3" && r[5] !== 1));
    const r = await run(study, csv(HEADER, rows));
    expect(r.incompleteSets).toEqual({
      count: 3,
      examples: [
        { itemId: "Q2", model: "llama-y", repetitions: [1, 2] },
        { itemId: "Q3", model: "gpt-x", repetitions: [1] },
        { itemId: "Q3", model: "llama-y", repetitions: [1] },
      ],
    });
    expect(await completenessOf(getDb(), study.id)).toEqual({ complete: 3, incomplete: 3 });
  });

  it("refuses a closed study with 409", async () => {
    const study = await makeStudy(lead.id, "Closed");
    await getDb().study.update({ where: { id: study.id }, data: { status: "CLOSED", closedAt: new Date() } });
    const e = await rejected(run(study, csv(HEADER, fullRows(1))));
    expect(e.status).toBe(409);
    expect(e.message).toMatch(/closed/);
  });

  it("follows the study's N: repetition 4 is fine when N = 4", async () => {
    const study = await makeStudy(lead.id, "Four");
    await getDb().study.update({ where: { id: study.id }, data: { repetitions: 4 } });
    const r = await run(study, csv(HEADER, fullRows(1, ["gpt-x"], 4)));
    expect(r).toMatchObject({ created: 4, repetitions: 4, incompleteSets: { count: 0 } });
  });

  it("reuses an existing specialty whatever its case", async () => {
    await getDb().specialty.create({ data: { name: "Dermatology" } });
    const study = await makeStudy(lead.id, "Derm");
    const r = await run(study, csv(["item_id", "specialty", "question", "reference_answer"], [["D1", "  DERMATOLOGY ", "Rash?", ""]]));
    expect(r.specialtiesCreated).toBe(0);
    expect(await getDb().specialty.count({ where: { name: { equals: "dermatology", mode: "insensitive" } } })).toBe(1);
  });

  it("imports the same rows sent as a JSON array", async () => {
    const study = await makeStudy(lead.id, "JSON");
    const rows = fullRows(2).map((r) => Object.fromEntries(HEADER.map((h, i) => [h, r[i]])));
    const r = await run(study, JSON.stringify(rows, null, 1), { contentType: "application/json" });
    expect(r).toMatchObject({ kind: "full", created: 12, items: 2 });
    const again = await run(study, csv(HEADER, fullRows(2)));
    expect(again).toMatchObject({ created: 0, unchanged: 12 });
  });

  it("counts identical repeated rows once", async () => {
    const study = await makeStudy(lead.id, "Dupes");
    const rows = fullRows(1, ["gpt-x"]);
    const r = await run(study, csv(HEADER, [...rows, rows[0], rows[1]]));
    expect(r).toMatchObject({ created: 3, duplicateRows: 2, responses: 3 });
  });

  it("writes nothing when the bad row comes after batches were already sent while streaming", async () => {
    const study = await makeStudy(lead.id, "Late error");
    const specialties = await getDb().specialty.count();
    // About 600 KB of answers: several batches reach PostgreSQL before the last row is read.
    const long = (i: number, m: string, r: number) => `Answer ${r} of ${m} to question ${i}. ${"Lorem ipsum dolor sit amet, consectetur. ".repeat(25)}`;
    const rows = [...fullRows(100, undefined, 3, long).map((r) => [r[0], `Rare specialty ${r[0]}`, ...r.slice(2)]), ["Q101", "Cardiology", "", "", "gpt-x", 1, "No question"]];
    const e = await rejected(run(study, csv(HEADER, rows)));
    expect(e.status).toBe(422);
    expect(e.details.errors).toEqual([{ row: 601, line: 602, column: "question", message: "question is empty" }]);
    expect(await counts(study.id)).toEqual({ items: 0, models: 0, sets: 0, responses: 0 });
    expect(await getDb().specialty.count()).toBe(specialties);
  });

  it("writes nothing when the upload goes over the size limit after batches were sent", async () => {
    const study = await makeStudy(lead.id, "Late limit");
    const long = (i: number, m: string, r: number) => `Answer ${r} of ${m} to question ${i}. ${"Lorem ipsum dolor sit amet. ".repeat(40)}`;
    const file = csv(HEADER, fullRows(100, undefined, 3, long));
    const e = await rejected(run(study, file, { maxBytes: Buffer.byteLength(file) - 100 }));
    expect(e.status).toBe(413);
    expect(await counts(study.id)).toEqual({ items: 0, models: 0, sets: 0, responses: 0 });
  });

  it("refuses one item, model and repetition given twice with different texts, in a new set and in an existing one", async () => {
    const study = await makeStudy(lead.id, "Twice");
    const rows = fullRows(2, ["gpt-x"]);
    const e = await rejected(run(study, csv(HEADER, [...rows, [...rows[1].slice(0, 6), "Another text"]])));
    expect(e.status).toBe(422);
    expect(e.details.errors).toEqual([
      { row: 7, line: 8, column: "response", message: "item Q1, model gpt-x, repetition 2 already has a different response in row 2" },
    ]);
    expect(await counts(study.id)).toEqual({ items: 0, models: 0, sets: 0, responses: 0 });
    await run(study, csv(HEADER, rows));
    const again = await rejected(run(study, csv(HEADER, [...rows, [...rows[4].slice(0, 6), "Changed twice"]])));
    expect(again.details.errors).toEqual([expect.objectContaining({ row: 7, column: "response", message: expect.stringMatching(/item Q2, model gpt-x, repetition 2 .* in row 5/) })]);
  });

  it("lists every unknown item of an answers-only file by row", async () => {
    const study = await makeStudy(lead.id, "Unknown");
    const e = await rejected(
      run(
        study,
        csv(
          ["item_id", "model", "repetition", "response"],
          [
            ["X1", "gpt-x", 1, "a"],
            ["X1", "gpt-x", 2, "b"],
            ["X2", "gpt-x", 1, "c"],
          ],
        ),
      ),
    );
    expect(e.status).toBe(422);
    expect(e.details.errors.map((x) => [x.row, x.column])).toEqual([
      [1, "item_id"],
      [2, "item_id"],
      [3, "item_id"],
    ]);
  });
});
