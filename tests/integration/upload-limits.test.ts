import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { GET as me } from "@/app/api/v1/me/route";
import { getDb } from "@/lib/db/client";
import { CHATTOGOVAR_RUBRIC } from "@/lib/demo/data/chattogovar/rubric";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { bigCellSheet, manyRowsSheet, sharedStringsXml, workbook } from "../helpers/hostile-zip";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// Response bodies are read field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

const WIDE = { format: "wide", item: "item", model: "model", raters: [{ column: "R1" }], sheets: { Sheet1: "accuracy" } };
const LONG = { format: "long", item: "item_id", model: "model", rater: "rater", dimension: "dimension", score: "score" };

const SETTINGS = ["UPLOAD_MAX_ROWS", "IMPORT_REGEX_BUDGET_MS", "IMPORT_MAX_CONCURRENT", "IMPORT_WORKER_HEAP_MB"];
afterEach(() => {
  for (const s of SETTINGS) delete process.env[s];
});

async function study(leadId: string) {
  return getDb().study.create({
    data: {
      name: "Upload limits",
      slug: `limits-${randomBytes(3).toString("hex")}`,
      rubrics: [CHATTOGOVAR_RUBRIC],
      repetitions: 1,
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

async function post(studyId: string, token: string, body: BodyInit) {
  return (await call(gradeImport, `/api/v1/studies/${studyId}/grade-imports?dryRun=1`, bearer(token, { method: "POST", body }), { id: studyId })) as {
    status: number;
    body: Body;
    headers: Headers;
  };
}

/** Runs `work` while sampling this process's memory and the latency of GET /me every 25 ms. */
async function whileMeasuring<T>(token: string, work: () => Promise<T>) {
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      const r = await call(me, "/api/v1/me", bearer(token));
      latencies.push(performance.now() - t0);
      expect(r.status).toBe(200);
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - t0, peakAboveIdleMb: (peak - idle) / 1024 / 1024, latencies };
  } finally {
    done = true;
    await probe;
  }
}

/** A long CSV of n distinct item ids of 199 characters. */
const ids = (n: number) => Array.from({ length: n }, (_, i) => `${"a".repeat(193)}${String(i).padStart(5, "0")}b`);
const csv = (n: number) => `item_id,model,rater,dimension,score\n${ids(n).map((id) => `${id},A,p,accuracy,5`).join("\n")}\n`;

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

describe("grade import of hostile files", () => {
  it("refuses 100 MB of shared strings in a small upload at UPLOAD_MAX_SHARED_STRINGS_BYTES, with bounded memory", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const file = workbook(manyRowsSheet(10), sharedStringsXml(800_000, 120));
    expect(file.length).toBeLessThan(2 * 1024 * 1024);
    const m = await whileMeasuring(lead.token, () => post(s.id, lead.token, multipart(file, "strings.xlsx", WIDE)));
    expect(m.result.status).toBe(413);
    expect(m.result.body.error).toMatch(/UPLOAD_MAX_SHARED_STRINGS_BYTES/);
    expect(m.result.body.details.limit).toBe("UPLOAD_MAX_SHARED_STRINGS_BYTES");
    expect(m.ms).toBeLessThan(15_000);
    expect(m.peakAboveIdleMb).toBeLessThan(300);
    expect(p99(m.latencies)).toBeLessThan(500);
  });

  it("reads rows whatever the order of the parts, and stops at UPLOAD_MAX_ROWS with workbook.xml after the sheet", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    process.env.UPLOAD_MAX_ROWS = "100000";
    const file = workbook(manyRowsSheet(300_000));
    const m = await whileMeasuring(lead.token, () => post(s.id, lead.token, multipart(file, "rows.xlsx", WIDE)));
    expect(m.result.status).toBe(422);
    expect(m.result.body.error).toMatch(/more rows than 100,000 \(UPLOAD_MAX_ROWS\)/);
    expect(m.ms).toBeLessThan(15_000);
    expect(m.peakAboveIdleMb).toBeLessThan(300);
    expect(p99(m.latencies)).toBeLessThan(500);
  });

  it("refuses a 32 MB cell at UPLOAD_MAX_ROW_BYTES", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const m = await whileMeasuring(lead.token, () => post(s.id, lead.token, multipart(workbook(bigCellSheet(32 * 1024 * 1024)), "cell.xlsx", WIDE)));
    expect(m.result.status).toBe(413);
    expect(m.result.body.error).toMatch(/UPLOAD_MAX_ROW_BYTES/);
    expect(m.peakAboveIdleMb).toBeLessThan(300);
  });

  it("refuses a cell past UPLOAD_MAX_CELL_CHARS and a cell beyond column XFD, naming where", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const long = await post(s.id, lead.token, multipart(workbook(bigCellSheet(40_000)), "cell.xlsx", WIDE));
    expect(long.status).toBe(422);
    expect(long.body.error).toMatch(/a cell holds more characters than 32,767 \(UPLOAD_MAX_CELL_CHARS\): sheet Sheet1, row 1/);
    const far = Buffer.from(`<worksheet><sheetData><row r="1"><c r="ZZZZZZ1"><v>1</v></c></row></sheetData></worksheet>`);
    const wide = await post(s.id, lead.token, multipart(workbook(far), "far.xlsx", WIDE));
    expect(wide.status).toBe(422);
    expect(wide.body.error).toMatch(/ZZZZZZ1 is beyond Excel's last column/);
  });

  it("holds a CSV to UPLOAD_MAX_ROWS too", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    process.env.UPLOAD_MAX_ROWS = "1000";
    const r = await post(s.id, lead.token, multipart(Buffer.from(csv(1500)), "g.csv", LONG));
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/more rows than 1,000 \(UPLOAD_MAX_ROWS\)/);
  });

  it("still imports a small workbook stored sheet first", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const sheet = Buffer.from(
      `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>` +
        `<row r="2"><c r="A2"><v>7</v></c><c r="B2" t="inlineStr"><is><t>GPT</t></is></c><c r="C2"><v>5</v></c></row>` +
        `</sheetData></worksheet>`,
    );
    const strings = Buffer.from(`<sst><si><t>item</t></si><si><t>model</t></si><si><r><t>R</t></r><r><t>1</t></r></si></sst>`);
    const r = await post(s.id, lead.token, multipart(workbook(sheet, strings), "ok.xlsx", WIDE));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dryRun: true, items: 1, models: 1, raters: 1, grades: 1 });
  });
});

describe("item-id rewrite rules under a budget", () => {

  it("refuses (?:a+){1,1000}$ by its program size, naming the rule", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const t0 = performance.now();
    const r = await post(s.id, lead.token, multipart(Buffer.from(csv(20_000)), "g.csv", { ...LONG, itemRewrites: [{ match: "^1_(\\d+)$", replace: "$1" }, { match: "(?:a+){1,1000}$", replace: "x" }] }));
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.status).toBe(422);
    expect(r.body.details.errors).toEqual([{ sheet: null, row: 0, column: "mapping.itemRewrites.1.match", message: expect.stringMatching(/IMPORT_REGEX_MAX_PROGRAM/) }]);
  });

  it("stops a slow rule at IMPORT_REGEX_BUDGET_MS with a 422 naming it, while others are answered", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    process.env.IMPORT_REGEX_BUDGET_MS = "1000";
    // Under the program limit (about 900 instructions) but milliseconds per id: over a minute for the file.
    const file = multipart(Buffer.from(csv(20_000)), "g.csv", { ...LONG, itemRewrites: [{ match: "(?:a+){1,300}$", replace: "x" }] });
    const m = await whileMeasuring(lead.token, () => post(s.id, lead.token, file));
    expect(m.result.status).toBe(422);
    expect(m.result.body.details.errors).toEqual([{ sheet: null, row: 0, column: "mapping.itemRewrites.0.match", message: expect.stringMatching(/rule 1 \(\(\?:a\+\)\{1,300\}\$\).*1,000 ms.*IMPORT_REGEX_BUDGET_MS/) }]);
    expect(m.ms).toBeLessThan(6_000);
    expect(p99(m.latencies)).toBeLessThan(500);
  });
});

describe("the import's worker thread", () => {
  it("reads a file in a heap of its own: past IMPORT_WORKER_HEAP_MB a 413 naming it, the server unharmed", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    // 400,000 shared strings of 100 characters: within every upload limit, about 50 MB held while the sheet is read.
    const file = workbook(manyRowsSheet(10), sharedStringsXml(400_000, 100));
    process.env.IMPORT_WORKER_HEAP_MB = "32";
    const m = await whileMeasuring(lead.token, () => post(s.id, lead.token, multipart(file, "strings.xlsx", WIDE)));
    expect(m.result.status).toBe(413);
    expect(m.result.body.error).toMatch(/more memory than an import may use \(32 MB, IMPORT_WORKER_HEAP_MB\); nothing was imported/);
    expect(m.result.body.details.limit).toBe("IMPORT_WORKER_HEAP_MB");
    // The worker's heap, not this process's, took the file.
    expect(m.peakAboveIdleMb).toBeLessThan(150);
    expect(p99(m.latencies)).toBeLessThan(500);

    // With the default ceiling the same file is read through, and its import slot was given back.
    delete process.env.IMPORT_WORKER_HEAP_MB;
    const again = await post(s.id, lead.token, multipart(file, "strings.xlsx", WIDE));
    expect(again.status).not.toBe(413);
    expect(again.body.error ?? "").not.toMatch(/IMPORT_WORKER_HEAP_MB/);
  });

  it("answers the import's own errors from the worker with their status (a CSV body read there as it arrives)", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    const body = "item_id,model,rater,dimension,score\n1,A,p,accuracy,5\n1,A,p,nonsense,5\n";
    const r = await post(s.id, lead.token, new Blob([body], { type: "text/csv" }));
    expect(r.status).toBe(422);
    expect(r.body.details.errors).toEqual([expect.objectContaining({ row: 3, message: expect.stringMatching(/"nonsense" is not a dimension/) })]);
  });
});

describe("imports at the same time", () => {
  it("answers 409 with Retry-After while another import (any instance) holds the study", async () => {
    const lead = await makeUser("LEAD");
    const s = await study(lead.id);
    // Another instance's import: a session of its own holding the study's turn.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      const [{ ok }] = (await other.query("SELECT pg_try_advisory_lock($1::int, hashtext($2::text)) AS ok", [0x1a2b_0032, s.id])).rows;
      expect(ok).toBe(true);
      const r = await post(s.id, lead.token, multipart(Buffer.from("item_id,model,rater,dimension,score\n1,A,p,accuracy,5\n"), "g.csv", LONG));
      expect(r.status).toBe(409);
      expect(r.body.error).toMatch(/another import into this study is running/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await other.end();
    }
    const after = await post(s.id, lead.token, multipart(Buffer.from("item_id,model,rater,dimension,score\n1,A,p,accuracy,5\n"), "g.csv", LONG));
    expect(after.status).toBe(200);
  });

  it("answers 429 with Retry-After past IMPORT_MAX_CONCURRENT imports on this server", async () => {
    const lead = await makeUser("LEAD");
    const [a, b] = [await study(lead.id), await study(lead.id)];
    process.env.IMPORT_MAX_CONCURRENT = "1";
    process.env.IMPORT_REGEX_BUDGET_MS = "60000";
    // A first import kept busy for a few seconds by a slow rewrite rule.
    const first = post(a.id, lead.token, multipart(Buffer.from(csv(500)), "g.csv", { ...LONG, itemRewrites: [{ match: "(?:a+){1,300}$", replace: "x" }] }));
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      // Until it holds its study's turn.
      for (let i = 0; i < 500; i++) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int::oid`, [0x1a2b_0032]);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const r = await post(b.id, lead.token, multipart(Buffer.from("item_id,model,rater,dimension,score\n1,A,p,accuracy,5\n"), "g.csv", LONG));
      expect(r.status).toBe(429);
      expect(r.body.error).toMatch(/IMPORT_MAX_CONCURRENT/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await first).status).toBe(200);
    } finally {
      await db.end();
    }
  });
});
