import ExcelJS from "exceljs";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { GET as listSaved, PUT as saveRoute } from "@/app/api/v1/studies/[id]/grade-import-mappings/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { getDb } from "@/lib/db/client";
import { loadStudy } from "@/lib/analytics/load";
import { authenticate } from "@/lib/auth/login";
import { CHATTOGOVAR_RUBRIC } from "@/lib/demo/data/chattogovar/rubric";
import { xlsxSheets } from "@/lib/grade-import/xlsx";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import type { RubricDocument } from "@/lib/rubrics/document";
import { CARDIOLOGY_MAPPING, CARDIOLOGY_RUBRIC } from "../fixtures/realdata/rubrics";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const XLSX = "tests/fixtures/realdata/cardiology/2_Data.xlsx";
const CSV = "tests/fixtures/realdata/chattogovar/ratings_long.csv";

// Response bodies are read field by field below, each against a literal expectation.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

async function studyWith(leadId: string, rubric: RubricDocument, repetitions = 1) {
  return getDb().study.create({
    data: {
      name: rubric.name,
      slug: `${rubric.key}-${randomBytes(3).toString("hex")}`,
      rubrics: [rubric],
      repetitions,
      thresholds: DEFAULT_THRESHOLDS,
      createdById: leadId,
      members: { create: { userId: leadId, role: "LEAD" } },
    },
  });
}

function multipart(file: Buffer, filename: string, mapping: unknown): FormData {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(file)]), filename);
  form.set("mapping", JSON.stringify(mapping));
  return form;
}

async function post(studyId: string, token: string, body: BodyInit, query = "", type?: string) {
  const headers: Record<string, string> = type ? { "content-type": type } : {};
  return (await call(gradeImport, `/api/v1/studies/${studyId}/grade-imports${query}`, bearer(token, { method: "POST", body, headers }), { id: studyId })) as {
    status: number;
    body: Body;
  };
}

/** The study's stored grades as "item|model|rater|dimension" -> score. */
async function storedMatrix(studyId: string): Promise<Map<string, number | null>> {
  const rows = await getDb().$queryRaw<{ item: string; model: string; rater: string; dimension: string; score: number | null }[]>`
    SELECT i."externalId" AS item, m.name AS model, u.name AS rater, g.dimension, g.score
    FROM "Grade" g JOIN "Assignment" a ON a.id = g."assignmentId" JOIN "User" u ON u.id = a."graderId"
    JOIN "ResponseSet" rs ON rs.id = a."responseSetId" JOIN "QaItem" i ON i.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
    WHERE a."studyId" = ${studyId}::uuid`;
  return new Map(rows.map((r) => [`${r.item}|${r.model}|${r.rater}|${r.dimension}`, r.score]));
}

/** The workbook read independently: 1_k is request 50 + k. */
async function cardiologyMatrix(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const s of xlsxSheets(XLSX)) {
    let header: string[] | null = null;
    for await (const batch of s.rows) {
      for (const r of batch) {
        if (!header) {
          header = r.cells;
          continue;
        }
        const id = /^1_(\d+)$/.test(r.cells[0]) ? String(50 + Number(r.cells[0].slice(2))) : r.cells[0];
        for (const k of [4, 5, 6]) out.set(`${id}|${r.cells[1]}|${header[k]}|${s.name.toLowerCase()}`, Number(r.cells[k]));
      }
    }
  }
  return out;
}

const CHATTO_KEYS: Record<string, string> = Object.fromEntries(CHATTOGOVAR_RUBRIC.dimensions.map((d) => [d.name, d.key]));

function chattogovarMatrix(): Map<string, number> {
  const parsed = Papa.parse<Record<string, string>>(readFileSync(CSV, "utf8"), { header: true, skipEmptyLines: true });
  const out = new Map<string, number>();
  for (const r of parsed.data) if (r.criterion !== "Total") out.set(`${r.item_id}|${r.system}|${r.rater}|${CHATTO_KEYS[r.criterion]}`, Number(r.score));
  return out;
}

async function counts(studyId: string) {
  const db = getDb();
  return {
    grades: await db.grade.count({ where: { assignment: { studyId } } }),
    items: await db.qaItem.count({ where: { studyId } }),
    raters: await db.user.count({ where: { externalStudyId: studyId } }),
    assignments: await db.assignment.count({ where: { studyId } }),
  };
}

describe("POST /api/v1/studies/{id}/grade-imports", () => {
  it("imports the cardiology workbook as published (wide, 4 sheets, 1_k ids) and stores the file's matrix", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CARDIOLOGY_RUBRIC);
    const file = readFileSync(XLSX);

    const dry = await post(study.id, lead.token, multipart(file, "2_Data.xlsx", CARDIOLOGY_MAPPING), "?dryRun=1");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, items: 70, models: 3, raters: 3, grades: 2520, created: 2520, unchanged: 0, new: { items: 70, models: 3, raters: 3, responseSets: 210 } });
    expect(await counts(study.id)).toEqual({ grades: 0, items: 0, raters: 0, assignments: 0 });

    const r = await post(study.id, lead.token, multipart(file, "2_Data.xlsx", CARDIOLOGY_MAPPING));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ dryRun: false, items: 70, models: 3, raters: 3, grades: 2520, created: 2520, unchanged: 0, rows: 840 });
    expect(await storedMatrix(study.id)).toEqual(await cardiologyMatrix());
    // 210 answers x 3 raters, submitted, and no escalation.
    expect(await getDb().assignment.count({ where: { studyId: study.id, status: "SUBMITTED", kind: "PRIMARY" } })).toBe(630);
    expect(await getDb().escalation.count({ where: { responseSet: { studyId: study.id } } })).toBe(0);
    // Final as imported: every answer's final scores are its three reviewers' mean.
    expect(await getDb().responseSet.count({ where: { studyId: study.id, status: "AGREED" } })).toBe(210);

    const again = await post(study.id, lead.token, multipart(file, "2_Data.xlsx", CARDIOLOGY_MAPPING));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ grades: 2520, created: 0, unchanged: 2520, new: { items: 0, models: 0, raters: 0, responseSets: 0 } });
    expect((await counts(study.id)).grades).toBe(2520);

    // The dashboard reads them as any grades: three graders, by pseudonym, each with 210 submitted sets.
    const loaded = await loadStudy(study.id);
    expect(loaded!.graders.map((g) => g.name).sort()).toEqual(["Reviewer1", "Reviewer2", "Reviewer3"]);
    expect(loaded!.assignments.filter((a) => a.status === "SUBMITTED")).toHaveLength(630);
    // Two real files read whole and compared cell by cell: close to the default minute on a loaded machine.
  }, 180_000);

  it("imports the chattogovar long CSV as a text/csv body, reading past its Total rows", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const csv = readFileSync(CSV, "utf8");
    const r = await post(study.id, lead.token, csv, "", "text/csv");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ items: 150, models: 3, raters: 2, grades: 4500, created: 4500, unchanged: 0, rows: 5400 });
    expect(await storedMatrix(study.id)).toEqual(chattogovarMatrix());
    const again = await post(study.id, lead.token, csv, "?dryRun=1", "text/csv");
    expect(again.body).toMatchObject({ created: 0, unchanged: 4500 });
    // The grades export carries them like any grade.
    const exported = await call(exportRoute, `/api/v1/studies/${study.id}/export?dataset=grades&format=json`, bearer(lead.token), { id: study.id });
    expect(exported.status).toBe(200);
    const rowsOut = exported.body as unknown as Record<string, unknown>[];
    expect(rowsOut).toHaveLength(4500);
  }, 180_000);

  it("counts a row repeated exactly once, in a new study and on top of stored grades", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const csv = "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n1,A,p,accuracy,7\n1,A,p,completeness,5\n";
    const r = await post(study.id, lead.token, csv, "", "text/csv");
    expect(r.body).toMatchObject({ grades: 2, created: 2, unchanged: 0 });
    const again = await post(study.id, lead.token, `${csv}1,B,p,accuracy,3\n`, "", "text/csv");
    expect(again.body).toMatchObject({ grades: 3, created: 1, unchanged: 2 });
    expect((await counts(study.id)).grades).toBe(3);
  });

  it("on top of stored grades: a new rater on a stored set and a stored rater on a new set are written, stored grades are not", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const head = "item_id,model,rater,dimension,score\n";
    expect((await post(study.id, lead.token, `${head}1,A,p,accuracy,7\n1,A,p,completeness,5\n`, "", "text/csv")).status).toBe(200);
    const r = await post(study.id, lead.token, `${head}1,A,p,accuracy,7\n1,A,q,accuracy,4\n2,A,p,accuracy,6\n1,A,p,completeness,5\n2,A,p,accuracy,6\n`, "", "text/csv");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ grades: 4, created: 2, unchanged: 2, new: { items: 1, models: 0, raters: 1, responseSets: 1 } });
    expect(await counts(study.id)).toEqual({ grades: 4, items: 2, raters: 2, assignments: 3 });
    expect(await storedMatrix(study.id)).toEqual(new Map([["1|A|p|accuracy", 7], ["1|A|p|completeness", 5], ["1|A|q|accuracy", 4], ["2|A|p|accuracy", 6]]));
    expect(await getDb().responseSet.count({ where: { studyId: study.id, status: "AGREED" } })).toBe(2);
  });

  it("on top of stored grades: new grades of a stored assignment, and of a stored rater on a stored set graded by another, are written", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const head = "item_id,model,rater,dimension,score\n";
    expect((await post(study.id, lead.token, `${head}1,A,p,accuracy,7\n2,A,q,accuracy,4\n`, "", "text/csv")).status).toBe(200);
    const file = `${head}1,A,p,accuracy,7\n1,A,p,completeness,5\n2,A,p,accuracy,6\n1,A,q,accuracy,3\n2,A,q,accuracy,4\n`;
    const r = await post(study.id, lead.token, file, "", "text/csv");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ grades: 5, created: 3, unchanged: 2, new: { items: 0, models: 0, raters: 0, responseSets: 0 } });
    expect(await counts(study.id)).toEqual({ grades: 5, items: 2, raters: 2, assignments: 4 });
    expect(await storedMatrix(study.id)).toEqual(
      new Map([["1|A|p|accuracy", 7], ["1|A|p|completeness", 5], ["2|A|p|accuracy", 6], ["1|A|q|accuracy", 3], ["2|A|q|accuracy", 4]]),
    );
    const again = await post(study.id, lead.token, file, "", "text/csv");
    expect(again.body).toMatchObject({ grades: 5, created: 0, unchanged: 5 });
    expect((await counts(study.id)).grades).toBe(5);
  });

  it("leaves a stored set with a grader of the study at work on it awaiting grades; a new set is final at once", async () => {
    const lead = await makeUser("LEAD");
    const grader = await makeUser("GRADER");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const db = getDb();
    const specialty = await db.specialty.upsert({ where: { name: "Unspecified" }, update: {}, create: { name: "Unspecified" } });
    const item = await db.qaItem.create({ data: { studyId: study.id, externalId: "1", question: "q", specialtyId: specialty.id } });
    const model = await db.llmModel.create({ data: { studyId: study.id, name: "A" } });
    const set = await db.responseSet.create({ data: { studyId: study.id, itemId: item.id, modelId: model.id } });
    await db.assignment.create({ data: { responseSetId: set.id, studyId: study.id, graderId: grader.id, kind: "PRIMARY", position: 0 } });
    const r = await post(study.id, lead.token, "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n2,A,p,accuracy,6\n", "", "text/csv");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sets = await db.responseSet.findMany({ where: { studyId: study.id }, select: { itemId: true, status: true } });
    expect(sets.find((s) => s.itemId === item.id)?.status).toBe("AWAITING_GRADES");
    expect(sets.filter((s) => s.itemId !== item.id).map((s) => s.status)).toEqual(["AGREED"]);
  });

  it("makes raters external graders that cannot sign in or be assigned", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const csv = "item_id,model,rater,dimension,score\n1,A,primary,accuracy,7\n";
    expect((await post(study.id, lead.token, csv, "", "text/csv")).status).toBe(200);
    const [ext] = await getDb().user.findMany({ where: { externalStudyId: study.id } });
    expect(ext).toMatchObject({ name: "primary", active: false, passwordHash: "", role: "GRADER" });
    expect(await authenticate({ email: ext.email, password: "", ip: "127.0.0.9" })).toMatchObject({ ok: false });
    // An admin cannot turn it into an account (409, not the CHECK's 500)...
    const admin = await makeUser("ADMIN");
    const patch = await call(patchUser, `/api/v1/users/${ext.id}`, bearer(admin.token, { method: "PATCH", body: JSON.stringify({ active: true }), headers: { "content-type": "application/json" } }), { id: ext.id });
    expect(patch.status).toBe(409);
    // ...and the database itself refuses to make it a usable account.
    await expect(getDb().user.update({ where: { id: ext.id }, data: { active: true } })).rejects.toThrow();
  });

  it("refuses other roles and other studies", async () => {
    const lead = await makeUser("LEAD");
    const other = await makeUser("LEAD", "other");
    const grader = await makeUser("GRADER");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const csv = "item_id,model,rater,dimension,score\n1,A,primary,accuracy,7\n";
    expect((await post(study.id, grader.token, csv, "", "text/csv")).status).toBe(403);
    expect([403, 404]).toContain((await post(study.id, other.token, csv, "", "text/csv")).status);
    expect((await counts(study.id)).grades).toBe(0);
  });

  describe("422 listing each problem with sheet, row and column; nothing written", () => {
    async function rejected(rubric: RubricDocument, body: BodyInit, type?: string, seed?: string) {
      const lead = await makeUser("LEAD");
      const study = await studyWith(lead.id, rubric);
      if (seed) expect((await post(study.id, lead.token, seed, "", "text/csv")).status).toBe(200);
      const before = await counts(study.id);
      const r = await post(study.id, lead.token, body, "", type);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(await counts(study.id)).toEqual(before);
      return r.body.details.errors as { sheet: string | null; row: number; column: string | null; message: string }[];
    }

    it("an unknown dimension and a score that is not a level", async () => {
      const errors = await rejected(CHATTOGOVAR_RUBRIC, "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n1,A,p,Fluency,5\n1,A,p,completeness,11\n1,A,p,clarity_conciseness,x\n", "text/csv");
      expect(errors).toEqual([
        { sheet: null, row: 3, column: "dimension", message: expect.stringContaining('"Fluency" is not a dimension') },
        { sheet: null, row: 4, column: "score", message: expect.stringContaining('"11" is not a level of Completeness') },
        { sheet: null, row: 5, column: "score", message: expect.stringContaining('"x" is not a level') },
      ]);
    });

    it("the same grade twice with different scores, naming both rows", async () => {
      const errors = await rejected(CHATTOGOVAR_RUBRIC, "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n1,A,p,completeness,7\n1,A,p,Accuracy,8\n", "text/csv");
      expect(errors).toEqual([{ sheet: null, row: 2, column: null, message: expect.stringMatching(/p graded Accuracy of item 1 twice.*also row 4/) }]);
    });

    it("the same grade twice with different scores on top of stored grades, and in a workbook's two sheets", async () => {
      const seed = "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n";
      const errors = await rejected(CHATTOGOVAR_RUBRIC, "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n2,A,p,accuracy,5\n1,A,p,Accuracy,8\n", "text/csv", seed);
      expect(errors).toEqual([{ sheet: null, row: 2, column: null, message: expect.stringMatching(/p graded Accuracy of item 1 twice.*also row 4/) }]);
      const wb = new ExcelJS.Workbook();
      for (const name of ["One", "Two"]) {
        const ws = wb.addWorksheet(name);
        ws.addRow(["item", "model", "R1"]);
        ws.addRow(["1", "A", name === "One" ? 7 : 8]);
      }
      const mapping = { format: "wide", item: "item", model: "model", raters: [{ column: "R1" }], sheets: { One: "accuracy", Two: "accuracy" } };
      const sheets = await rejected(CHATTOGOVAR_RUBRIC, multipart(Buffer.from(await wb.xlsx.writeBuffer()), "g.xlsx", mapping));
      expect(sheets).toEqual([{ sheet: "One", row: 2, column: null, message: expect.stringMatching(/R1 graded Accuracy of item 1 twice.*also Two row 2/) }]);
    });

    it("a grade already stored with another value", async () => {
      const seed = "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n";
      const errors = await rejected(CHATTOGOVAR_RUBRIC, "item_id,model,rater,dimension,score\n1,A,p,accuracy,6\n", "text/csv", seed);
      expect(errors).toEqual([{ sheet: null, row: 2, column: null, message: expect.stringContaining("already stored as 7") }]);
    });

    it("an unknown item when the mapping says not to create items", async () => {
      const seed = "item_id,model,rater,dimension,score\n1,A,p,accuracy,7\n";
      const mapping = { format: "long", item: "item_id", model: "model", rater: "rater", dimension: "dimension", score: "score", createItems: false };
      const file = Buffer.from("item_id,model,rater,dimension,score\n1,A,q,accuracy,7\n2,A,q,accuracy,7\n");
      const errors = await rejected(CHATTOGOVAR_RUBRIC, multipart(file, "g.csv", mapping), undefined, seed);
      expect(errors).toEqual([{ sheet: null, row: 3, column: "item_id", message: expect.stringContaining('no item "2"') }]);
    });

    it("in a workbook: the sheet and header row of a sheet mapped to no dimension", async () => {
      // Without the rewrite rule the ids 1_k are items of their own, but an unmapped sheet name is a problem of its own.
      const errors = await rejected(CARDIOLOGY_RUBRIC, multipart(readFileSync(XLSX), "2_Data.xlsx", { ...CARDIOLOGY_MAPPING, sheets: { Accuracy: "accuracy", Completeness: "completeness", Clarity: "clarity", Coherence: "Fluency" } }));
      expect(errors).toEqual([{ sheet: "Coherence", row: 1, column: null, message: expect.stringContaining('"Fluency" is not a dimension') }]);
    });

    it("in a workbook: a bad cell named by sheet, spreadsheet row and column; a file that is no workbook", async () => {
      const wb = new ExcelJS.Workbook();
      const accuracy = wb.addWorksheet("Accuracy");
      accuracy.addRows([["Request", "Model", "Origin", "Diagnosis", "Reviewer1", "Reviewer2", "Reviewer3"], [1, "ChatGPT", "Patient", "Post", 4, 3, 3], [2, "ChatGPT", "Patient", "Post", 4, 9, 3]]);
      for (const name of ["Completeness", "Clarity", "Coherence"]) wb.addWorksheet(name).addRows([["Request", "Model", "Origin", "Diagnosis", "Reviewer1", "Reviewer2", "Reviewer3"], [1, "ChatGPT", "Patient", "Post", 4, 3, 3]]);
      const file = Buffer.from(await wb.xlsx.writeBuffer());
      const errors = await rejected(CARDIOLOGY_RUBRIC, multipart(file, "bad.xlsx", CARDIOLOGY_MAPPING));
      expect(errors).toEqual([{ sheet: "Accuracy", row: 3, column: "Reviewer2", message: expect.stringContaining('"9" is not a level') }]);
      const garbage = await rejected(CARDIOLOGY_RUBRIC, multipart(Buffer.from("PK\u0003\u0004 not really a zip"), "bad.xlsx", CARDIOLOGY_MAPPING));
      expect(garbage[0].message).toMatch(/cannot be read as an \.xlsx workbook|not an \.xlsx/);
    });

    it("a mapping naming a column the file lacks", async () => {
      const errors = await rejected(CARDIOLOGY_RUBRIC, multipart(readFileSync(XLSX), "2_Data.xlsx", { ...CARDIOLOGY_MAPPING, raters: [{ column: "Reviewer4" }] }));
      expect(errors[0]).toEqual({ sheet: "Accuracy", row: 1, column: "Reviewer4", message: expect.stringContaining('no column "Reviewer4"') });
    });
  });

  it("matches item rewrite rules in linear time, and refuses a pattern RE2 cannot run", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CHATTOGOVAR_RUBRIC);
    const mapping = { format: "long", item: "item_id", model: "model", rater: "rater", dimension: "dimension", score: "score", createItems: true };
    // (a+)+b on thirty a's and no b backtracks 2^30 times in a backtracking engine: minutes of a stalled server per row.
    const id = `${"a".repeat(30)}!`;
    const file = Buffer.from(`item_id,model,rater,dimension,score\n${id},A,p,accuracy,7\nq7,A,p,accuracy,6\n`);
    const started = Date.now();
    const r = await post(study.id, lead.token, multipart(file, "g.csv", { ...mapping, itemRewrites: [{ match: "(a+)+b", replace: "x" }, { match: "q(\\d+)", replace: "$1", add: 100 }] }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect([...(await storedMatrix(study.id)).keys()].sort()).toEqual([`107|A|p|accuracy`, `${id}|A|p|accuracy`]);
    const lookbehind = await post(study.id, lead.token, multipart(file, "g.csv", { ...mapping, itemRewrites: [{ match: "(?<=q)\\d+", replace: "$1" }] }));
    expect(lookbehind.status).toBe(422);
    expect(JSON.stringify(lookbehind.body)).toContain("RE2 syntax");
  });

  it("saves a mapping per study and imports with it by name", async () => {
    const lead = await makeUser("LEAD");
    const study = await studyWith(lead.id, CARDIOLOGY_RUBRIC);
    const put = await call(saveRoute, `/api/v1/studies/${study.id}/grade-import-mappings`, bearer(lead.token, { method: "PUT", body: JSON.stringify({ name: "cardiology", mapping: CARDIOLOGY_MAPPING }), headers: { "content-type": "application/json" } }), { id: study.id });
    expect(put.status).toBe(200);
    const list = (await call(listSaved, `/api/v1/studies/${study.id}/grade-import-mappings`, bearer(lead.token), { id: study.id })) as { status: number; body: Body };
    expect(list.body.mappings.map((m: { name: string }) => m.name)).toEqual(["cardiology"]);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(readFileSync(XLSX))]), "2_Data.xlsx");
    const r = await post(study.id, lead.token, form, "?mapping=cardiology&dryRun=1");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ items: 70, grades: 2520 });
  });
});
