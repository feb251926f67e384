/**
 * The study report (issue #36 item 3) of the demo's closed, graded pilot study, read back with
 * independent readers: pdftotext (poppler) for the PDF, unzip for the DOCX's XML, and the HTML
 * as text. The methods sentence, the flow counts and four table values (one per specialty) must match the API
 * (GET /stats?journal=1 and the study's own counts); a second report of the closed study has the
 * same tables; other leads and graders get nothing.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { GET as reportRoute } from "@/app/api/v1/studies/[id]/report/route";
import { GET as statsRoute } from "@/app/api/v1/studies/[id]/stats/route";
import { createApiToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { DEMO_USERS, PILOT_STUDY_SLUG, seedDemo } from "@/lib/demo/seed";
import { buildReport } from "@/lib/report/build";
import { num } from "@/lib/report/format";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
let studyId: string;
let token: string;
let stats: Body;

async function fetchReport(format: string, as = token): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await reportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/report?format=${format}`, bearer(as)), { params: Promise.resolve({ id: studyId }) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "report-"));
  fs.writeFileSync(path.join(dir, "r.pdf"), bytes);
  return execFileSync("pdftotext", ["-layout", path.join(dir, "r.pdf"), "-"], { encoding: "utf8" });
}

function docxText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "report-"));
  fs.writeFileSync(path.join(dir, "r.docx"), bytes);
  const xml = execFileSync("unzip", ["-p", path.join(dir, "r.docx"), "word/document.xml"], { encoding: "utf8", maxBuffer: 64 << 20 });
  // Text runs joined per paragraph and per table cell.
  return xml.replace(/<\/w:p>/g, "\n").replace(/<w:tab\/>/g, "\t").replace(/<[^>]+>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'");
}

const squash = (s: string) => s.replace(/\s+/g, " ");

beforeAll(async () => {
  await seedDemo();
  const db = getDb();
  const study = await db.study.findUniqueOrThrow({ where: { slug: PILOT_STUDY_SLUG } });
  studyId = study.id;
  const lead = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.find((u) => u.role === "LEAD")!.email } });
  token = (await createApiToken(lead.id)).token;
  const r = await call(statsRoute, `/api/v1/studies/${studyId}/stats?journal=1`, bearer(token), { id: studyId });
  expect(r.status).toBe(200);
  stats = r.body;
}, 240_000);

describe("the study report", () => {
  it("writes the same methods, flow and table values in the PDF, the DOCX and the HTML", async () => {
    const db = getDb();
    const questions = await db.qaItem.count({ where: { studyId } });
    const sets = await db.responseSet.count({ where: { studyId } });
    const finals = await db.responseSet.count({ where: { studyId, status: { in: ["AGREED", "ADJUDICATED"] } } });
    const comparison = stats.journal.data.rubrics.flatMap((r: Body) => r.models).find((c: Body) => c.cliffs);
    const first = comparison.descriptives[0];
    const pair = comparison.cliffs.pairs[0];
    const alpha = stats.alpha.data.bars.find((b: Body) => b.alpha !== null);
    // A per-specialty cell of the measure models are compared on (the headline total), from the same journal block.
    const measure = stats.measures[0];
    const compared = stats.journal.data.rubrics.find((r: Body) => r.rubric === measure.rubric).models.find((c: Body) => c.target === measure.kind && c.key === measure.key);
    expect(stats.options.specialties.length).toBeGreaterThan(1);
    const group = compared.bySpecialty.find((g: Body) => !/\s/.test(g.specialty) && g.descriptives.some((d: Body) => d.n > 0));
    const cell = group.descriptives.find((d: Body) => d.n > 0);
    // The dashboard's ranking shows the same cell's n and mean (one source of final scores).
    const ranked = stats.ranking.data.rows.find((r: Body) => r.specialty === group.specialty && r.model === cell.model && r.measure === measure.key);
    expect(ranked.n).toBe(cell.n);
    expect(ranked.mean).toBeCloseTo(cell.mean, 9);
    const models = stats.options.models.length;
    const methods = `Each of ${questions} questions was answered 3 times by each of ${models} models`;

    const pdf = await fetchReport("pdf");
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/attachment; filename=".+-report\.pdf"/);
    const docx = await fetchReport("docx");
    expect(docx.status).toBe(200);
    const html = await fetchReport("html");
    expect(html.headers.get("content-security-policy")).toMatch(/default-src 'none'/);

    for (const [format, text] of [["pdf", squash(pdfText(pdf.bytes))], ["docx", squash(docxText(docx.bytes))], ["html", squash(html.bytes.toString("utf8").replace(/<[^>]+>/g, " "))]] as const) {
      expect(text, format).toContain(methods);
      expect(text, format).toMatch(/Grading was blinded/);
      expect(text, format).toMatch(new RegExp(`Questions:? ${questions}\\b`));
      expect(text, format).toMatch(new RegExp(`Response sets:? ${sets}\\b`));
      expect(text, format).toMatch(new RegExp(`Final:? ${finals}\\b`));
      // Three table values against the stats API: a model's mean, a Cliff's delta, an alpha.
      expect(text, format).toContain(`${first.model} ${first.n} ${num(first.mean)} ${num(first.sd)}`);
      expect(text, format).toContain(`${pair.a} ${pair.b} ${num(pair.delta)}`);
      expect(text, format).toContain(`${alpha.specialty} ${num(alpha.alpha, 3)}`);
      expect(text, format).toMatch(/Final scores per model and specialty/);
      expect(text, format).toContain(`${group.specialty} ${cell.model} ${cell.n} ${num(cell.mean)} ${num(cell.sd)} ${num(cell.median)}`);
      expect(text, format).toMatch(/Reproducibility appendix/);
      expect(text, format).toMatch(/[0-9a-f]{64}/);
    }

    // The appendix's checksums (made in a worker thread) are those of the exports as the API sends them.
    const html_ = html.bytes.toString("utf8");
    for (const dataset of ["grades", "sets"]) {
      const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?dataset=${dataset}&format=csv`, bearer(token)), { params: Promise.resolve({ id: studyId }) });
      expect(res.status, dataset).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length, dataset).toBeGreaterThan(100);
      expect(html_, dataset).toContain(createHash("sha256").update(bytes).digest("hex"));
    }
  }, 240_000);

  it("gives a closed study's tables the same text twice", async () => {
    const a = await buildReport(studyId, { now: new Date("2026-01-01T00:00:00Z") });
    const b = await buildReport(studyId, { now: new Date("2026-06-01T00:00:00Z") });
    expect(a!.sections.map((s) => s.tables)).toEqual(b!.sections.map((s) => s.tables));
    // The page's preview skips the exports' checksums, and says where they are.
    const preview = await buildReport(studyId, { checksums: false });
    const sums = (m: typeof a) => m!.sections.flatMap((s) => s.tables).find((t) => t.caption.includes("Exports the tables"))!.rows;
    expect(sums(preview).map((r) => r[2])).toEqual(["in the downloaded report", "in the downloaded report"]);
    expect(sums(a).every((r) => /^[0-9a-f]{64}$/.test(r[2]))).toBe(true);
  }, 240_000);

  it("is for the study's leads: others get 404, graders 403, a bad format 422", async () => {
    const other = await makeUser("LEAD");
    expect((await fetchReport("pdf", other.token)).status).toBe(404);
    const grader = await makeUser("GRADER");
    expect((await fetchReport("pdf", grader.token)).status).toBe(403);
    const bad = await fetchReport("rtf");
    expect(bad.status).toBe(422);
    expect(bad.bytes.toString()).toMatch(/format must be one of pdf, docx, html/);
  }, 120_000);
});
