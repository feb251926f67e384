import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { GET as studyRoute } from "@/app/api/v1/studies/[id]/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { metricsTokenMatches, routePattern } from "@/lib/server/metrics";
import { bearer, call, makeStudy } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();
afterAll(() => closeExportPools());

const TOKEN = "metrics-token-for-the-test-0123456789";
afterEach(() => {
  delete process.env.METRICS_TOKEN;
});

async function scrape(): Promise<string> {
  process.env.METRICS_TOKEN = TOKEN;
  const r = await call(metricsRoute, "/api/metrics", bearer(TOKEN));
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.body as unknown as string;
}

/** The value of one sample in the exposition text (0 when the series is not there yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2] ? m[2].split(/,(?=[a-z_]+=")/) : [];
    if (want.every((w) => have.includes(w))) return Number(m[3]);
  }
  return 0;
}

describe("GET /api/metrics", () => {
  it("does not exist without METRICS_TOKEN, and wants that token (not a user's) when set", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    expect((await call(metricsRoute, "/api/metrics", bearer(TOKEN))).status).toBe(404);
    process.env.METRICS_TOKEN = TOKEN;
    for (const auth of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Bearer ${f.lead.token}`, "Bearer "]) {
      const r = await call(metricsRoute, "/api/metrics", auth ? { headers: { authorization: auth } } : {});
      expect(r.status, String(auth)).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(JSON.stringify(r.body)).not.toContain("clingrade_");
    }
    expect((await call(metricsRoute, "/api/metrics", { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(200);
    expect(metricsTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(metricsTokenMatches("Bearer ", "")).toBe(false);
  });

  it("counts requests by route pattern (never by id), with their latency", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    const labels = { route: "/api/v1/studies/[id]", method: "GET", status: "200" };
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      const r = await call(studyRoute, `/api/v1/studies/${f.study.id}`, bearer(f.lead.token), { id: f.study.id });
      expect(r.status).toBe(200);
    }
    // A refusal is counted too, under its own status.
    expect((await call(studyRoute, `/api/v1/studies/${f.study.id}`, {}, { id: f.study.id })).status).toBe(401);
    const after = await scrape();
    expect(sample(after, "clingrade_http_requests_total", labels) - sample(before, "clingrade_http_requests_total", labels)).toBe(3);
    expect(sample(after, "clingrade_http_request_duration_seconds_count", labels) - sample(before, "clingrade_http_request_duration_seconds_count", labels)).toBe(3);
    expect(sample(after, "clingrade_http_request_duration_seconds_sum", labels)).toBeGreaterThan(sample(before, "clingrade_http_request_duration_seconds_sum", labels));
    expect(sample(after, "clingrade_http_requests_total", { ...labels, status: "401" }) - sample(before, "clingrade_http_requests_total", { ...labels, status: "401" })).toBe(1);
    expect(after).not.toContain(f.study.id);
    // The pool the requests used is reported.
    expect(sample(after, "clingrade_db_pool_connections")).toBeGreaterThan(0);
    expect(sample(after, "clingrade_db_pool_max_connections")).toBe(Number(process.env.DATABASE_POOL_SIZE ?? 10));
    expect(after).toMatch(/^clingrade_process_resident_memory_bytes \d+/m);
  });

  it("counts first submissions (not drafts or revisions) and escalations opened", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "metrics" }, f.lead.id);
    const [a1, a2] = await getDb().assignment.findMany({ where: { responseSetId: f.sets[0].id, kind: "PRIMARY" }, orderBy: { graderId: "asc" } });
    const token = (id: string) => f.graders.find((g) => g.id === id)!.token;
    const put = async (a: typeof a1, body: unknown) => {
      const r = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, bearer(token(a.graderId), { method: "PUT", body: JSON.stringify(body) }), { id: a.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const before = await scrape();
    await put(a1, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: false });
    await put(a1, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
    await put(a1, { scores: form({ score: [5, 5, 5, 5, 4] }), submit: true }); // a revision
    await put(a2, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true }); // disagrees on safety
    const after = await scrape();
    expect(sample(after, "clingrade_grades_submitted_total") - sample(before, "clingrade_grades_submitted_total")).toBe(2);
    const opened = { kind: "created" };
    expect(sample(after, "clingrade_escalations_opened_total", opened) - sample(before, "clingrade_escalations_opened_total", opened)).toBe(1);
    const route = { route: "/api/v1/assignments/[id]/grades", method: "PUT", status: "200" };
    expect(sample(after, "clingrade_http_requests_total", route) - sample(before, "clingrade_http_requests_total", route)).toBe(4);
  });

  it("times imports and exports, the export to its last byte", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    const study = await makeStudy(f.lead.id, "Metrics import");
    const csv = "item_id,specialty,question,reference_answer,model,repetition,response\nQ1,Cardiology,A question?,A reference.,m1,1,An answer.\n";
    const before = await scrape();
    for (const query of ["?dryRun=1", ""]) {
      const r = await call(importRoute, `/api/v1/studies/${study.id}/import${query}`, bearer(f.lead.token, { method: "POST", body: csv, headers: { "content-type": "text/csv" } }), { id: study.id });
      expect(r.status).toBe(200);
    }
    const exported = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=csv`, bearer(f.lead.token), { id: f.study.id });
    expect(exported.status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("clingrade_import_duration_seconds_count", { kind: "import", outcome: "ok" })).toBe(1);
    expect(delta("clingrade_import_duration_seconds_count", { kind: "dry-run", outcome: "ok" })).toBe(1);
    expect(delta("clingrade_export_duration_seconds_count", { dataset: "grades", format: "csv", outcome: "complete" })).toBe(1);
    // A refused import is timed as an error.
    const bad = await call(importRoute, `/api/v1/studies/${study.id}/import`, bearer(f.lead.token, { method: "POST", body: "not,a,valid\nfile", headers: { "content-type": "text/csv" } }), { id: study.id });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(sample(await scrape(), "clingrade_import_duration_seconds_count", { kind: "import", outcome: "error" }) - sample(before, "clingrade_import_duration_seconds_count", { kind: "import", outcome: "error" })).toBe(1);
  });
});

describe("routePattern", () => {
  it("names a route by the params Next matched, whatever the ids look like", () => {
    expect(routePattern("/api/v1/studies/abc/graders/u%201", { id: "abc", userId: "u 1" })).toBe("/api/v1/studies/[id]/graders/[userId]");
    expect(routePattern("/api/v1/studies", {})).toBe("/api/v1/studies");
    expect(routePattern("/api/v1/studies/%E0%A4%A", { id: "%E0%A4%A" })).toBe("/api/v1/studies/[id]");
    expect(routePattern("/api/v1/me", null)).toBe("/api/v1/me");
  });
});
