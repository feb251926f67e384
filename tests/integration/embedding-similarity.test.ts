/**
 * Embedding similarity (issue #33) end to end on PostgreSQL against a local embeddings stub whose
 * vectors are read from the texts ("vec 3 4 0" is [3, 4, 0]), so every expected cosine is worked
 * out by hand: a lead starts a run on an endpoint an admin set up, a worker does it off the
 * request, and the cosine per answer reaches the sets API, the set detail, the exports and the
 * summary. Failures of the endpoint are the run's clear error, with nothing stored.
 */
import { afterEach, describe, expect, it } from "vitest";
import { POST as createEndpointRoute } from "@/app/api/v1/judge-endpoints/route";
import { GET as listRunsRoute, POST as startRoute } from "@/app/api/v1/studies/[id]/embedding-runs/route";
import { GET as runRoute } from "@/app/api/v1/studies/[id]/embedding-runs/[runId]/route";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { GET as setsRoute } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as summaryRoute } from "@/app/api/v1/studies/[id]/reference-metrics/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { getDb, getPool } from "@/lib/db/client";
import { startEmbeddingRun } from "@/lib/embeddings/runs";
import { startEmbeddingWorker, type EmbeddingWorker, type EmbeddingWorkerOptions } from "@/lib/embeddings/worker";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";
import { setDetail } from "@/lib/results/set-detail";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { startEmbeddingsStub, type EmbeddingsStub, type EmbeddingsStubOptions } from "./helpers/embeddings-stub";
import { seedGradedStudy } from "./helpers/graded-study";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

const KEY = "sk-embed-0123456789abcdefSECRET";
const stubs: EmbeddingsStub[] = [];
const workers: EmbeddingWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(1000)));
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});
async function stub(opts: EmbeddingsStubOptions = {}) {
  const s = await startEmbeddingsStub(opts);
  stubs.push(s);
  return s;
}
async function runToEnd(runId: string, opts: EmbeddingWorkerOptions = {}) {
  const w = startEmbeddingWorker({ runId, pollMs: 30, backoffMs: 10, maxBackoffMs: 40, leaseMs: 5000, ...opts });
  workers.push(w);
  await w.idle();
}
const post = (token: string, body: unknown) => bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

// References: Q1 along x, Q2 along y; Q3 has none.
const QUESTIONS: Record<string, { specialty: string; reference: string }> = {
  Q1: { specialty: "Ophthalmology", reference: "Lower the pressure first. vec 1 0 0" },
  Q2: { specialty: "Anesthesia", reference: "At most 7 mg/kg. vec 0 1 0" },
  Q3: { specialty: "Anesthesia", reference: "" },
};
// Each answer with its cosine against its question's reference, by hand.
const ANSWERS: Record<string, Record<string, [string, number | null][]>> = {
  Q1: {
    "gpt-x": [["Timolol. vec 3 4 0", 0.6], ["The same. vec 2 0 0", 1], ["Unrelated. vec 0 0 5", 0]],
    "llama-y": [["Opposite. vec -1 0 0", -1], ["Laser. vec 1 1 0", Math.SQRT1_2], ["Pressure. vec 4 3 0", 0.8]],
  },
  Q2: {
    "gpt-x": [["7 mg/kg. vec 0 2 0", 1], ["Four. vec 3 4 0", 0.8], ["Half. vec 1 1 0", Math.SQRT1_2]],
    "llama-y": [["None. vec 1 0 0", 0], ["Some. vec 0 -3 4", -0.6], ["Most. vec 0 5 0", 1]],
  },
  Q3: { "gpt-x": [["Anything.", null], ["Something.", null], ["Nothing.", null]], "llama-y": [["One.", null], ["Two.", null], ["Three.", null]] },
};
const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
function csv(references: Record<string, string> = {}) {
  const lines = ["item_id,specialty,question,reference_answer,model,repetition,response"];
  for (const [id, models] of Object.entries(ANSWERS)) {
    for (const [model, answers] of Object.entries(models)) answers.forEach(([t], i) => lines.push([id, QUESTIONS[id].specialty, q(`Question ${id}?`), q(references[id] ?? QUESTIONS[id].reference), model, i + 1, q(t)].join(",")));
  }
  return lines.join("\n");
}
async function importCsv(studyId: string, token: string, body: string) {
  const r = await call(importRoute, `/api/v1/studies/${studyId}/import`, bearer(token, { method: "POST", body, headers: { "content-type": "text/csv" } }), { id: studyId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
type Stored = { item: string; model: string; repetition: number; sim: number | null; runId: string | null };
async function stored(studyId: string): Promise<Stored[]> {
  const rows = await getDb().response.findMany({
    where: { responseSet: { studyId } },
    select: { repetition: true, embeddingSimilarity: true, embeddingRunId: true, responseSet: { select: { item: { select: { externalId: true } }, model: { select: { name: true } } } } },
  });
  return rows.map((r) => ({ item: r.responseSet.item.externalId, model: r.responseSet.model.name, repetition: r.repetition, sim: r.embeddingSimilarity, runId: r.embeddingRunId }));
}
function expectHandWorked(rows: Stored[], only?: (r: Stored) => boolean) {
  for (const r of rows.filter(only ?? (() => true))) {
    const want = ANSWERS[r.item][r.model][r.repetition - 1][1];
    if (want === null) expect(r.sim, `${r.item} ${r.model} ${r.repetition}`).toBeNull();
    else expect(r.sim, `${r.item} ${r.model} ${r.repetition}`).toBeCloseTo(want, 12);
  }
}

/** A lead's study with the answers above, an admin's endpoint on the stub, and a run started through the API. */
async function setup(s: EmbeddingsStub, endpoint: Record<string, unknown> = {}) {
  const admin = await makeUser("ADMIN", "admin");
  const lead = await makeUser("LEAD");
  const study = await makeStudy(lead.id);
  await importCsv(study.id, lead.token, csv());
  const created = await call(createEndpointRoute, "/x", post(admin.token, { name: `Embed ${Math.random()}`, baseUrl: s.url, model: "chat-model", embeddingModel: "stub-embed", apiKey: KEY, ...endpoint }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const endpointId = (created.body as { id: string }).id;
  const start = async (body: Record<string, unknown> = {}) => {
    const r = await call(startRoute, "/x", post(lead.token, { endpointId, ...body }), { id: study.id });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; status: string; answers: number };
  };
  const status = async (runId: string) => (await call(runRoute, "/x", bearer(lead.token), { id: study.id, runId })).body as { status: string; error: string | null; embedded: number; answers: number; requests: number; dimensions: number | null };
  return { admin, lead, study, endpointId, start, status };
}

describe("embedding similarity", () => {
  it("a run stores each answer's cosine with its reference, and the sets API, set detail, summary and exports carry it", async () => {
    const s = await stub();
    const f = await setup(s);
    // Another lead's study on the same server: none of its texts may reach the endpoint.
    const other = await makeUser("LEAD");
    const otherStudy = await makeStudy(other.id);
    await importCsv(otherStudy.id, other.token, csv({ Q1: "Another study's reference. vec 0 0 1" }).replace(/Timolol/g, "OtherStudyText"));

    const run = await f.start();
    expect(run).toMatchObject({ status: "PENDING", answers: 12 });
    await runToEnd(run.id, { pageSize: 5 }); // pages cut through questions: a reference is embedded once all the same
    expect(await f.status(run.id)).toMatchObject({ status: "DONE", error: null, embedded: 12, answers: 12, dimensions: 3 });

    const rows = await stored(f.study.id);
    expectHandWorked(rows);
    expect(rows.filter((r) => r.sim !== null).every((r) => r.runId === run.id)).toBe(true);
    expect(rows.filter((r) => r.item === "Q3").every((r) => r.sim === null && r.runId === null)).toBe(true);
    expect((await stored(otherStudy.id)).every((r) => r.sim === null)).toBe(true);

    // What the endpoint saw: the lead's study's answers and references only, each reference once, the key in the header only.
    const sent = s.bodies.flatMap((b) => b.input);
    expect(s.paths.every((p) => p === "/v1/embeddings")).toBe(true);
    expect(s.bodies.every((b) => b.model === "stub-embed" && b.encoding_format === "float")).toBe(true);
    expect(s.authorizations.every((a) => a === `Bearer ${KEY}`)).toBe(true);
    expect(sent.filter((t) => t === QUESTIONS.Q1.reference)).toHaveLength(1);
    expect(sent.filter((t) => t === QUESTIONS.Q2.reference)).toHaveLength(1);
    expect(sent).toHaveLength(12 + 2);
    expect(JSON.stringify(sent)).not.toMatch(/OtherStudyText|Another study|Anything\./);

    // Sets API, by repetition.
    const sets = await call(setsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    for (const set of sets.body.sets as { externalId: string; model: { name: string }; answers: { repetition: number; embeddingSimilarity: number | null }[] }[]) {
      for (const a of set.answers) {
        const want = ANSWERS[set.externalId][set.model.name][a.repetition - 1][1];
        if (want === null) expect(a.embeddingSimilarity).toBeNull();
        else expect(a.embeddingSimilarity).toBeCloseTo(want, 12);
      }
    }
    // Set detail.
    const setId = (await getDb().responseSet.findFirstOrThrow({ where: { studyId: f.study.id, item: { externalId: "Q1" }, model: { name: "gpt-x" } } })).id;
    expect((await setDetail(f.study.id, setId))!.answers.map((a) => a.embeddingSimilarity)).toEqual([0.6, 1, 0].map((x) => expect.closeTo(x, 12)));

    // Summary per model and specialty: the mean of the answers' cosines.
    const summary = await call(summaryRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    const srows = summary.body.rows as { model: string; specialty: string | null; embeddingSimilarity: number | null; embeddingAnswers: number }[];
    const row = (model: string, specialty: string | null) => srows.find((r) => r.model === model && r.specialty === specialty)!;
    expect(row("gpt-x", "Ophthalmology")).toMatchObject({ embeddingAnswers: 3, embeddingSimilarity: expect.closeTo((0.6 + 1 + 0) / 3, 12) });
    expect(row("llama-y", "Anesthesia")).toMatchObject({ embeddingAnswers: 3, embeddingSimilarity: expect.closeTo((0 - 0.6 + 1) / 3, 12) });
    expect(row("llama-y", null)).toMatchObject({ embeddingAnswers: 6, embeddingSimilarity: expect.closeTo((-1 + Math.SQRT1_2 + 0.8 + 0 - 0.6 + 1) / 6, 12) });

    // The sets export: the mean per set, in both formats; each answer's in answer_metrics.
    const exp = async (query: string) => exportRoute(new Request(`http://localhost/api/v1/studies/${f.study.id}/export?${query}`, bearer(f.lead.token)), { params: Promise.resolve({ id: f.study.id }) });
    const json = (await (await exp("dataset=sets&format=json")).json()) as { item_id: string; model: { name: string }; embedding_similarity: number | null; answers: { embeddingSimilarity: number | null }[] }[];
    const q2gpt = json.find((x) => x.item_id === "Q2" && x.model.name === "gpt-x")!;
    expect(q2gpt.embedding_similarity).toBeCloseTo((1 + 0.8 + Math.SQRT1_2) / 3, 4);
    expect(q2gpt.answers.map((a) => a.embeddingSimilarity)).toEqual([1, 0.8, 0.7071]);
    expect(json.find((x) => x.item_id === "Q3")!.embedding_similarity).toBeNull();
    const setsCsv = (await (await exp("dataset=sets&format=csv")).text()).trim().split(/\r?\n/);
    const header = setsCsv[0].split(",");
    expect(header.slice(-5)).toEqual(["bleu", "rouge1", "rougeL", "embedding_similarity", "answer_metrics"]);
    const q1llama = setsCsv.find((l) => l.includes(",Q1,llama-y,"))!;
    expect(q1llama).toContain(`,${Number(((-1 + Math.SQRT1_2 + 0.8) / 3).toFixed(4))},`);

    // Listing: the runs and how many answers have a similarity.
    const list = await call(listRunsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(list.body).toMatchObject({ runs: [{ id: run.id, status: "DONE" }], coverage: { answersWithReference: 12, withSimilarity: 12, model: "stub-embed" } });
  });

  it("score-long ends with embedding_similarity once a run computed some, the mean over the set's answers", async () => {
    const s = await stub();
    const { studyId, leadToken } = await seedGradedStudy();
    await refreshReferenceMetrics(pgQuery(getPool()), { studyId });
    const exp = async () => (await (await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?dataset=score-long&format=csv`, bearer(leadToken)), { params: Promise.resolve({ id: studyId }) })).text()).trim().split(/\r?\n/);
    expect((await exp())[0].split(",").at(-1)).toBe("rougeL");
    const admin = await makeUser("ADMIN", "admin");
    const endpoint = await getDb().judgeEndpoint.create({ data: { name: "Stub", baseUrl: s.url, model: "m", embeddingModel: "stub-embed", createdById: admin.id } });
    const lead = (await getDb().study.findUniqueOrThrow({ where: { id: studyId } })).createdById;
    await runToEnd((await startEmbeddingRun(studyId, { endpointId: endpoint.id }, lead)).id);
    const lines = await exp();
    const header = lines[0].split(",");
    expect(header.slice(-4)).toEqual(["bleu", "rouge1", "rougeL", "embedding_similarity"]);
    expect(lines.length).toBeGreaterThan(1);
    // The fixture's texts carry no "vec": every vector is [1, 1, 1], so every cosine is 1.
    for (const line of lines.slice(1)) expect(line.split(",").at(-1)).toBe("1");
  });

  it("errors of the endpoint are the run's clear error, never a half-written result, never the key", async () => {
    const cases: { name: string; opts: EmbeddingsStubOptions; error: RegExp }[] = [
      { name: "a bad key", opts: { fail: () => 401 }, error: /^HTTP 401 \(the endpoint refused the API key: an admin checks it\): / },
      { name: "a 4xx", opts: { fail: () => 400 }, error: /^HTTP 400: .*stub failure 400/ },
      { name: "a lasting 5xx", opts: { fail: () => 503 }, error: /^HTTP 503: .*\(after 2 attempts\)$/ },
      { name: "the wrong count", opts: { mangle: (_n, v) => v.slice(1) }, error: /^the endpoint gave \d+ vectors for \d+ inputs$/ },
      { name: "wrong dimensions in a batch", opts: { mangle: (_n, v) => v.map((x, i) => (i === 1 ? [...x, 0] : x)) }, error: /^vector \d+ has 4 dimensions where the others have 3$/ },
      { name: "wrong dimensions across batches", opts: { mangle: (n, v) => (n >= 1 ? v.map((x) => [...x, 1]) : v) }, error: /dimensions/ },
      { name: "NaN as a bare word", opts: { raw: () => '{"data":[{"index":0,"embedding":[NaN,1,2]}]}' }, error: /^the endpoint's answer has NaN or Infinity in a vector$/ },
      { name: "null in a vector", opts: { mangle: (_n, v) => v.map((x, i) => (i === 0 ? [null, 1, 2] : x)) }, error: /^vector 0 has a component that is not a finite number \(null\)$/ },
      { name: "a zero vector", opts: { mangle: (_n, v) => v.map((x, i) => (i === 2 ? [0, 0, 0] : x)) }, error: /vector of zeros/ },
      { name: "base64 vectors", opts: { mangle: (_n, v) => v.map(() => "AAAA") }, error: /base64/ },
      { name: "no data", opts: { raw: () => '{"object":"list"}' }, error: /no data array/ },
      { name: "a reply too large", opts: { raw: () => `{"data":"${"x".repeat(8_100_000)}"}` }, error: /larger than 8000000 bytes/ },
    ];
    for (const c of cases) {
      const s = await stub(c.opts);
      const f = await setup(s);
      const run = await f.start();
      await runToEnd(run.id, { maxAttempts: 2, pageSize: 4 });
      const st = await f.status(run.id);
      expect(st.status, c.name).toBe("FAILED");
      expect(st.error, c.name).toMatch(c.error);
      expect(st.error, c.name).not.toContain(KEY);
      expect((await stored(f.study.id)).every((r) => r.sim === null && r.runId === null), c.name).toBe(true);
    }
  }, 120_000);

  it("a failure after some pages stores nothing and keeps the previous run's values; a 5xx that passes is retried", async () => {
    let failFrom = Infinity;
    const s = await stub({ fail: (n) => (n >= failFrom ? 400 : n === 0 ? 502 : null) });
    const f = await setup(s);
    const first = await f.start();
    await runToEnd(first.id, { maxAttempts: 3, pageSize: 4 });
    expect(await f.status(first.id)).toMatchObject({ status: "DONE", requests: s.bodies.length });
    expectHandWorked(await stored(f.study.id));
    failFrom = s.bodies.length + 2; // the second run's third request fails, after two pages went well
    const second = await f.start();
    await runToEnd(second.id, { pageSize: 4 });
    const st = await f.status(second.id);
    expect(st).toMatchObject({ status: "FAILED", embedded: 8 });
    const rows = await stored(f.study.id);
    expectHandWorked(rows);
    expect(rows.filter((r) => r.sim !== null).every((r) => r.runId === first.id)).toBe(true);
  });

  it("a changed reference or answer clears the similarity until the next run; one changed during a run is not written", async () => {
    const s = await stub();
    const f = await setup(s);
    const run = await f.start();
    await runToEnd(run.id);
    // A new reference for Q1 (a re-import): Q1's answers lose theirs, Q2's keep them.
    await importCsv(f.study.id, f.lead.token, csv({ Q1: "A new reference. vec 0 0 1" }));
    let rows = await stored(f.study.id);
    expect(rows.filter((r) => r.item === "Q1").every((r) => r.sim === null && r.runId === null)).toBe(true);
    expectHandWorked(rows, (r) => r.item === "Q2");
    const list = await call(listRunsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(list.body).toMatchObject({ coverage: { answersWithReference: 12, withSimilarity: 6 } });

    // The next run computes them against the new reference; an answer redacted while it runs is left without one.
    const again = await f.start();
    const changing = await stub({
      before: async (n) => {
        if (n === 0) await getDb().$executeRaw`UPDATE "Response" r SET text = 'Changed. vec 1 0 0' FROM "ResponseSet" rs, "QaItem" q WHERE rs.id = r."responseSetId" AND q.id = rs."itemId" AND rs."studyId" = ${f.study.id}::uuid AND q."externalId" = 'Q2' AND r.repetition = 1`;
      },
    });
    await getDb().judgeEndpoint.update({ where: { id: f.endpointId }, data: { baseUrl: changing.url } });
    await runToEnd(again.id);
    expect(await f.status(again.id)).toMatchObject({ status: "DONE" });
    rows = await stored(f.study.id);
    const q1gpt = rows.filter((r) => r.item === "Q1" && r.model === "gpt-x").sort((a, b) => a.repetition - b.repetition);
    expect(q1gpt.map((r) => r.sim)).toEqual([0, 0, 1]); // against (0, 0, 1): (3,4,0), (2,0,0), (0,0,5)
    const changed = rows.filter((r) => r.item === "Q2" && r.repetition === 1);
    expect(changed.map((r) => r.sim)).toEqual([null, null]);
    expect(rows.filter((r) => r.sim !== null).every((r) => r.runId === again.id)).toBe(true);
  });

  it("only a study's lead starts and reads its runs; only endpoints an admin set up for embeddings; one run at a time", async () => {
    const s = await stub();
    const f = await makeGradableStudy({ items: 2, models: 1, graders: 1 });
    await refreshReferenceMetrics(pgQuery(getPool()), { studyId: f.study.id });
    const admin = await makeUser("ADMIN", "admin");
    const otherLead = await makeUser("LEAD");
    const chatOnly = await getDb().judgeEndpoint.create({ data: { name: "Chat only", baseUrl: s.url, model: "m", createdById: admin.id } });
    const embed = await getDb().judgeEndpoint.create({ data: { name: "Embed", baseUrl: s.url, model: "m", embeddingModel: "stub-embed", createdById: admin.id } });
    const start = (token: string, body: unknown) => call(startRoute, "/x", post(token, body), { id: f.study.id });

    expect((await start(f.graders[0].token, { endpointId: embed.id })).status).toBe(403);
    expect((await start(otherLead.token, { endpointId: embed.id })).status).toBe(404);
    expect((await call(listRunsRoute, "/x", bearer(f.graders[0].token), { id: f.study.id })).status).toBe(403);
    expect((await call(listRunsRoute, "/x", bearer(otherLead.token), { id: f.study.id })).status).toBe(404);
    // A lead names an endpoint, never a URL, and cannot set one up.
    const withUrl = await start(f.lead.token, { endpointId: embed.id, baseUrl: "http://169.254.169.254/latest" });
    expect(withUrl.status).toBe(422);
    expect(JSON.stringify(withUrl.body)).toMatch(/baseUrl/);
    expect((await call(createEndpointRoute, "/x", post(f.lead.token, { name: "Mine", baseUrl: "http://127.0.0.1:1/v1", model: "m", embeddingModel: "e" }))).status).toBe(403);
    const notEmbeddings = await start(f.lead.token, { endpointId: chatOnly.id });
    expect(notEmbeddings.status).toBe(422);
    expect(JSON.stringify(notEmbeddings.body)).toMatch(/not set up for embeddings/);
    expect((await start(f.lead.token, { endpointId: "00000000-0000-4000-8000-000000000000" })).status).toBe(422);

    const ok = await start(f.lead.token, { endpointId: embed.id, model: "another-embedding-model" });
    expect(ok.status).toBe(201);
    const runId = (ok.body as { id: string }).id;
    expect(ok.body).toMatchObject({ model: "another-embedding-model", endpoint: "Embed" });
    expect((await start(f.lead.token, { endpointId: embed.id })).status).toBe(409);
    expect((await call(runRoute, "/x", bearer(f.graders[0].token), { id: f.study.id, runId })).status).toBe(403);
    expect((await call(runRoute, "/x", bearer(otherLead.token), { id: f.study.id, runId })).status).toBe(404);
    // Another study's run is not found through this one.
    const own = await makeStudy(otherLead.id);
    expect((await call(runRoute, "/x", bearer(otherLead.token), { id: own.id, runId })).status).toBe(404);
    const audit = await getDb().auditEvent.findMany({ where: { entityId: runId } });
    expect(audit.map((a) => a.action)).toEqual(["embedding-run.start"]);

    // A study without reference answers has nothing to run.
    const bare = await makeStudy(f.lead.id);
    expect((await call(startRoute, "/x", post(f.lead.token, { endpointId: embed.id }), { id: bare.id })).status).toBe(409);
  });
});
