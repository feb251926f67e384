import { afterAll, describe, expect, it } from "vitest";
import { GET as listEndpointsRoute, POST as createEndpointRoute } from "@/app/api/v1/judge-endpoints/route";
import { PATCH as patchEndpointRoute } from "@/app/api/v1/judge-endpoints/[endpointId]/route";
import { GET as listRunsRoute, POST as startRunRoute } from "@/app/api/v1/studies/[id]/judges/[judgeId]/runs/route";
import { GET as runRoute } from "@/app/api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/route";
import { POST as cancelRoute } from "@/app/api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/cancel/route";
import { POST as resumeRoute } from "@/app/api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/resume/route";
import { getDb } from "@/lib/db/client";
import { decryptApiKey } from "@/lib/judges/runner/secret";
import { startJudgeWorker } from "@/lib/judges/runner/worker";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { startJudgeStub, type JudgeStub } from "./helpers/judge-stub";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

const stubs: JudgeStub[] = [];
afterAll(async () => Promise.all(stubs.map((s) => s.close())));
const post = (token: string, body: unknown) => bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const patch = (token: string, body: unknown) => bearer(token, { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const KEY = "sk-live-0123456789abcdefDEADBEEF";

async function setup() {
  const stub = await startJudgeStub();
  stubs.push(stub);
  const f = await makeGradableStudy({ items: 2, models: 1, graders: 1, rubrics: ["SCORE"] });
  const other = await makeGradableStudy({ items: 1, models: 1, graders: 1, rubrics: ["SCORE"] });
  const admin = await makeUser("ADMIN", "admin");
  const judge = await getDb().automatedJudge.create({ data: { studyId: f.study.id, name: "GPT judge", model: "gpt-4o" } });
  const otherJudge = await getDb().automatedJudge.create({ data: { studyId: other.study.id, name: "Other judge", model: "gpt-4o" } });
  return { stub, f, other, admin, judge, otherJudge };
}

describe("judge endpoints: set up by admins, keys encrypted and never returned", () => {
  it("an admin stores a key encrypted; no answer, list or audit event carries it; the runner sends it to the endpoint only", async () => {
    const { stub, f, admin, judge } = await setup();
    const created = await call(createEndpointRoute, "/x", post(admin.token, { name: "Stub", baseUrl: `${stub.url}/`, model: "stub-judge", apiKey: KEY, pricePer1kPromptTokens: 0.005 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Stub", baseUrl: stub.url, hasStoredKey: true, apiKeyEnv: null, logprobs: true });
    expect(JSON.stringify(created.body)).not.toContain(KEY);
    const id = (created.body as { id: string }).id;
    const row = await getDb().judgeEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.apiKeyEncrypted).not.toContain(KEY);
    expect(row.apiKeyEncrypted).not.toContain(Buffer.from(KEY).toString("base64").slice(0, 12));
    expect(decryptApiKey(row.apiKeyEncrypted!, id)).toBe(KEY);
    expect(() => decryptApiKey(row.apiKeyEncrypted!, judge.id)).toThrow(/cannot be decrypted/); // bound to its endpoint
    const listed = await call(listEndpointsRoute, "/x", bearer(f.lead.token));
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(KEY);
    const audit = await getDb().auditEvent.findMany({ where: { entityId: id } });
    expect(audit.map((a) => a.action)).toEqual(["judge-endpoint.create"]);
    expect(JSON.stringify(audit.map((a) => [a.before, a.after]))).not.toContain(KEY);

    const started = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: id }), { id: f.study.id, judgeId: judge.id });
    expect(started.status).toBe(201);
    const runId = (started.body as { id: string }).id;
    const w = startJudgeWorker({ runId, pollMs: 50 });
    await w.idle();
    await w.stop();
    expect(stub.authorizations.every((a) => a === `Bearer ${KEY}`)).toBe(true);
    const progress = await call(runRoute, "/x", bearer(f.lead.token), { id: f.study.id, judgeId: judge.id, runId });
    expect(progress.body).toMatchObject({ status: "DONE", tasks: { total: 2, done: 2 }, judgeModel: "stub-judge" });
    expect((progress.body as { cost: number }).cost).toBeGreaterThan(0);
  });

  it("a key named by an environment variable is read at each call; only OPENAI_API_KEY or CLINGRADE_JUDGE_* may be named", async () => {
    const { stub, f, admin, judge } = await setup();
    for (const name of ["DATABASE_URL", "AUTH_SECRET", "CLINGRADE_SECRET_KEY", "PATH"]) {
      const bad = await call(createEndpointRoute, "/x", post(admin.token, { name: `Env ${name}`, baseUrl: stub.url, model: "m", apiKeyEnv: name }));
      expect(bad.status, name).toBe(422);
      expect(JSON.stringify(bad.body)).toContain("apiKeyEnv");
    }
    const both = await call(createEndpointRoute, "/x", post(admin.token, { name: "Both", baseUrl: stub.url, model: "m", apiKeyEnv: "OPENAI_API_KEY", apiKey: KEY }));
    expect(both.status).toBe(422);
    process.env.CLINGRADE_JUDGE_TEST_KEY = "sk-from-env";
    const created = await call(createEndpointRoute, "/x", post(admin.token, { name: "From env", baseUrl: stub.url, model: "m", apiKeyEnv: "CLINGRADE_JUDGE_TEST_KEY" }));
    expect(created.status).toBe(201);
    const started = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: (created.body as { id: string }).id }), { id: f.study.id, judgeId: judge.id });
    const w = startJudgeWorker({ runId: (started.body as { id: string }).id, pollMs: 50 });
    await w.idle();
    await w.stop();
    expect(stub.authorizations.at(-1)).toBe("Bearer sk-from-env");
    delete process.env.CLINGRADE_JUDGE_TEST_KEY;
  });

  it("only an admin sets or changes a base URL (SSRF); bad URLs are 422 naming baseUrl; names are unique", async () => {
    const { f, admin } = await setup();
    const body = { name: "Local vLLM", baseUrl: "http://10.0.0.5:8000/v1", model: "llama" };
    expect((await call(createEndpointRoute, "/x", post(f.lead.token, body))).status).toBe(403);
    for (const baseUrl of ["file:///etc/passwd", "gopher://x", "http://user:pw@host/v1", "http://host/v1?key=1", "not a url"]) {
      const r = await call(createEndpointRoute, "/x", post(admin.token, { ...body, baseUrl }));
      expect(r.status, baseUrl).toBe(422);
      expect(JSON.stringify(r.body), baseUrl).toContain("baseUrl");
    }
    const ok = await call(createEndpointRoute, "/x", post(admin.token, body));
    expect(ok.status).toBe(201);
    expect((await call(createEndpointRoute, "/x", post(admin.token, body))).status).toBe(409);
    const id = (ok.body as { id: string }).id;
    expect((await call(patchEndpointRoute, "/x", patch(f.lead.token, { baseUrl: "http://169.254.169.254/" }), { endpointId: id })).status).toBe(403);
    const changed = await call(patchEndpointRoute, "/x", patch(admin.token, { apiKey: KEY }), { endpointId: id });
    expect(changed.body).toMatchObject({ hasStoredKey: true, baseUrl: "http://10.0.0.5:8000/v1" });
    expect(JSON.stringify(changed.body)).not.toContain(KEY);
    const toEnv = await call(patchEndpointRoute, "/x", patch(admin.token, { apiKeyEnv: "OPENAI_API_KEY" }), { endpointId: id });
    expect(toEnv.body).toMatchObject({ hasStoredKey: false, apiKeyEnv: "OPENAI_API_KEY" });
    expect((await call(patchEndpointRoute, "/x", patch(admin.token, {}), { endpointId: "not-a-uuid" })).status).toBe(404);
  });
});

describe("judge runs through the API: leads of the study or admins", () => {
  it("start, one at a time, progress, cancel, resume; graders 403, other leads and other studies' ids 404", async () => {
    const { stub, f, other, admin, judge, otherJudge } = await setup();
    const endpoint = await getDb().judgeEndpoint.create({ data: { name: "Plain", baseUrl: stub.url, model: "m", createdById: admin.id } });
    const params = { id: f.study.id, judgeId: judge.id };
    expect((await call(startRunRoute, "/x", post(f.graders[0].token, { endpointId: endpoint.id }), params)).status).toBe(403);
    expect((await call(startRunRoute, "/x", post(other.lead.token, { endpointId: endpoint.id }), params)).status).toBe(404);
    expect((await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id }), { id: f.study.id, judgeId: otherJudge.id })).status).toBe(404);
    const bad = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id, mode: "sampling", samples: 1000, temperature: 0 }), params);
    expect(bad.status).toBe(422);
    expect((bad.body as { details: { path: string }[] }).details.map((d) => d.path).sort()).toEqual(["samples", "temperature"]);
    expect((await call(startRunRoute, "/x", post(f.lead.token, { endpointId: other.study.id }), params)).status).toBe(422);

    const started = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id }), params);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: "RUNNING", mode: "logprobs", tasks: { total: 2, pending: 2 } });
    const runId = (started.body as { id: string }).id;
    expect((await call(startRunRoute, "/x", post(admin.token, { endpointId: endpoint.id }), params)).status).toBe(409);
    expect((await call(runRoute, "/x", bearer(other.lead.token), { ...params, runId })).status).toBe(404);
    expect((await call(runRoute, "/x", bearer(other.lead.token), { id: other.study.id, judgeId: otherJudge.id, runId })).status).toBe(404);
    expect((await call(resumeRoute, "/x", post(f.lead.token, {}), { ...params, runId })).status).toBe(409);

    const cancelled = await call(cancelRoute, "/x", post(f.lead.token, {}), { ...params, runId });
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", tasks: { cancelled: 2 } });
    expect((await call(cancelRoute, "/x", post(f.lead.token, {}), { ...params, runId })).status).toBe(409);
    const resumed = await call(resumeRoute, "/x", post(admin.token, {}), { ...params, runId });
    expect(resumed.body).toMatchObject({ status: "RUNNING", tasks: { pending: 2 } });
    const w = startJudgeWorker({ runId, pollMs: 50 });
    await w.idle();
    await w.stop();
    const runs = await call(listRunsRoute, "/x", bearer(f.lead.token), params);
    expect(runs.body).toMatchObject({ runs: [{ id: runId, status: "DONE", tasks: { done: 2 } }] });
    // Everything scored: nothing left to run.
    expect((await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id }), params)).status).toBe(409);
  });

  it("a sampling run on an endpoint without logprobs; logprobs mode there is refused", async () => {
    const { stub, f, admin, judge } = await setup();
    const endpoint = await getDb().judgeEndpoint.create({ data: { name: "Ollama", baseUrl: stub.url, model: "llama3.1", logprobs: false, createdById: admin.id } });
    const params = { id: f.study.id, judgeId: judge.id };
    const refused = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id, mode: "logprobs" }), params);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("sampling");
    const started = await call(startRunRoute, "/x", post(f.lead.token, { endpointId: endpoint.id }), params);
    expect(started.body).toMatchObject({ mode: "sampling", samples: 5 });
  });
});
