import { beforeAll, describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { makeUser } from "./helpers/fixtures";
import { routeSuiteRuns } from "./helpers/judge-run-fixture";
import { useIsolatedDatabase } from "./helpers/db";
import { apiRoutes, METHODS } from "./helpers/routes";
import { form, makeGradableStudy } from "./helpers/study-fixture";
import { pairwiseRouteFixture } from "./helpers/pairwise-fixture";

useIsolatedDatabase();

/**
 * Walks every route handler under app/api and calls each method as anonymous,
 * a grader, the lead of another study, the study's lead and an admin. Every
 * route must be listed in AUDIENCE below, so a new route without a decision
 * (and a guard) fails this suite.
 *
 * - public: no sign-in needed (health, ping, the OpenAPI document, next-auth)
 * - any: any signed-in user
 * - leads: LEAD/ADMIN collection routes (no study in the path)
 * - study: LEAD/ADMIN routes of one study: another lead gets 404
 * - grader: the grader's own work: leads and admins 403, another grader 404
 * - admin: account administration: everyone but admins 403
 * - metrics: only METRICS_TOKEN opens it: no user's token does (401)
 */
type Audience = "public" | "any" | "leads" | "study" | "grader" | "admin" | "metrics";
const AUDIENCE: Record<string, Audience> = {
  "GET /api/auth/[...nextauth]": "public",
  "POST /api/auth/[...nextauth]": "public",
  "GET /api/health": "public",
  "GET /api/health/live": "public",
  "GET /api/health/ready": "public",
  "GET /api/metrics": "metrics",
  "GET /api/ping": "public",
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/me": "any",
  "GET /api/v1/me/assignments": "grader",
  "GET /api/v1/assignments/[id]": "grader",
  "PUT /api/v1/assignments/[id]/grades": "grader",
  "GET /api/v1/me/comparisons": "grader",
  "GET /api/v1/comparison-assignments/[id]": "grader",
  "PUT /api/v1/comparison-assignments/[id]/preferences": "grader",
  "POST /api/v1/comparison-assignments/[id]/submit": "grader",
  "GET /api/v1/studies/[id]/comparisons": "study",
  "POST /api/v1/studies/[id]/comparisons": "study",
  "POST /api/v1/studies/[id]/comparison-assignments": "study",
  "GET /api/v1/users": "admin",
  "POST /api/v1/users": "admin",
  "PATCH /api/v1/users/[id]": "admin",
  "POST /api/v1/users/[id]/unlock": "admin",
  "GET /api/v1/rubric-templates": "leads",
  "GET /api/v1/studies": "leads",
  "POST /api/v1/studies": "leads",
  "POST /api/v1/study-archives": "leads",
  "POST /api/v1/planner": "leads",
  "GET /api/v1/studies/[id]": "study",
  "PATCH /api/v1/studies/[id]": "study",
  "GET /api/v1/studies/[id]/assignments": "study",
  "POST /api/v1/studies/[id]/assignments": "study",
  "GET /api/v1/studies/[id]/escalations": "study",
  "POST /api/v1/escalations/[id]/assign": "study",
  "GET /api/v1/studies/[id]/comparison-escalations": "study",
  "POST /api/v1/comparison-escalations/[id]/assign": "study",
  "GET /api/v1/studies/[id]/export": "study",
  "GET /api/v1/studies/[id]/graders": "study",
  "POST /api/v1/studies/[id]/graders": "study",
  "POST /api/v1/studies/[id]/graders/bulk": "study",
  "PATCH /api/v1/studies/[id]/graders/[userId]": "study",
  "DELETE /api/v1/studies/[id]/graders/[userId]": "study",
  "POST /api/v1/studies/[id]/import": "study",
  "POST /api/v1/studies/[id]/grade-imports": "study",
  "GET /api/v1/studies/[id]/grade-import-mappings": "study",
  "PUT /api/v1/studies/[id]/grade-import-mappings": "study",
  "POST /api/v1/studies/[id]/redactions": "study",
  "GET /api/v1/studies/[id]/harm-flags": "study",
  "PATCH /api/v1/studies/[id]/harm-flags/[assignmentId]": "study",
  "GET /api/v1/studies/[id]/triage": "study",
  "PUT /api/v1/studies/[id]/triage": "study",
  "PUT /api/v1/studies/[id]/triage/[setId]": "study",
  "GET /api/v1/studies/[id]/screening": "study",
  "POST /api/v1/studies/[id]/screening": "study",
  "GET /api/v1/studies/[id]/items": "study",
  "GET /api/v1/studies/[id]/sets": "study",
  "GET /api/v1/studies/[id]/stats": "study",
  "GET /api/v1/studies/[id]/grader-quality": "study",
  "GET /api/v1/studies/[id]/grader-quality/sensitivity": "study",
  "PUT /api/v1/studies/[id]/grader-quality/exclusions/[userId]": "study",
  "DELETE /api/v1/studies/[id]/grader-quality/exclusions/[userId]": "study",
  "PUT /api/v1/studies/[id]/quality-sets/[setId]": "study",
  "PUT /api/v1/studies/[id]/quality-settings": "study",
  "GET /api/v1/studies/[id]/quality-sets/[setId]/pilot-expected": "study",
  "GET /api/v1/me/calibration": "grader",
  "GET /api/v1/studies/[id]/reference-metrics": "study",
  "GET /api/v1/studies/[id]/protocol": "study",
  "GET /api/v1/studies/[id]/report": "study",
  "POST /api/v1/studies/[id]/protocol": "study",
  "GET /api/v1/studies/[id]/reference-metrics/comparison": "study",
  "GET /api/v1/studies/[id]/embedding-runs": "study",
  "POST /api/v1/studies/[id]/embedding-runs": "study",
  "GET /api/v1/studies/[id]/embedding-runs/[runId]": "study",
  "GET /api/v1/studies/[id]/judges": "study",
  "POST /api/v1/studies/[id]/judges": "study",
  "POST /api/v1/studies/[id]/judges/check-scores": "study",
  "GET /api/v1/studies/[id]/judges/preferences": "study",
  "POST /api/v1/studies/[id]/judges/[judgeId]/scores": "study",
  "GET /api/v1/judge-endpoints": "leads",
  "POST /api/v1/judge-endpoints": "admin",
  "PATCH /api/v1/judge-endpoints/[endpointId]": "admin",
  "GET /api/v1/studies/[id]/judges/[judgeId]/runs": "study",
  "POST /api/v1/studies/[id]/judges/[judgeId]/runs": "study",
  "GET /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]": "study",
  "POST /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/cancel": "study",
  "POST /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/resume": "study",
  "PUT /api/v1/studies/[id]/hybrid": "study",
  "POST /api/v1/invitations/open": "public",
  "POST /api/v1/invitations/accept": "public",
  "POST /api/v1/invitations/sso": "public",
  "POST /api/v1/unsubscribe": "public",
  "PUT /api/v1/me/mail-settings": "any",
  "GET /api/v1/studies/[id]/invitations": "study",
  "POST /api/v1/studies/[id]/invitations/[invitationId]/resend": "study",
  "POST /api/v1/studies/[id]/invitations/[invitationId]/revoke": "study",
  "PUT /api/v1/studies/[id]/deadlines": "study",
  "GET /api/v1/studies/[id]/mail-preview": "study",
};


const routes = apiRoutes;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("every API route has a declared audience and enforces it", () => {
  const ctx = {} as {
    tokens: Record<"grader" | "otherGrader" | "otherLead" | "lead" | "admin", string>;
    params: Record<string, Record<string, string>>;
  };

  beforeAll(async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    const [a1, a2] = await getDb().assignment.findMany({ where: { responseSet: { studyId: f.study.id } }, orderBy: { graderId: "asc" } });
    const g1 = f.graders.find((g) => g.id === a1.graderId)!;
    const g2 = f.graders.find((g) => g.id === a2.graderId)!;
    await saveGrades(g1.id, a1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
    await saveGrades(g2.id, a2.id, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true });
    const escalation = await getDb().escalation.findFirstOrThrow({ where: { responseSetId: f.sets[0].id } });
    const otherLead = await makeUser("LEAD", "other-lead");
    const admin = await makeUser("ADMIN");
    const spare = f.graders.find((g) => g.id !== g1.id && g.id !== g2.id)!;
    const judge = await getDb().automatedJudge.create({ data: { studyId: f.study.id, name: "Judge", model: "gpt-4o" } });
    const runs = await routeSuiteRuns(f.study.id, admin.id, f.lead.id);
    const invitation = await getDb().invitation.create({ data: { userId: spare.id, studyId: f.study.id, createdById: f.lead.id, expiresAt: new Date(Date.now() + 86_400_000) } });
    const pairwise = await pairwiseRouteFixture(f.lead.id, g1.id);
    ctx.tokens = { grader: g1.token, otherGrader: g2.token, otherLead: otherLead.token, lead: f.lead.token, admin: admin.token };
    ctx.params = {
      "/api/v1/studies/[id]": { id: f.study.id },
      "/api/v1/assignments/[id]": { id: a1.id },
      "/api/v1/comparison-assignments/[id]": { id: pairwise.assignmentId },
      // The pairwise study's routes: its own lead (the suite's lead leads it too).
      "/api/v1/studies/[id]/comparison": { id: pairwise.studyId },
      "/api/v1/studies/[id]/judges/preferences": { id: pairwise.studyId },
      "/api/v1/escalations/[id]": { id: escalation.id },
      "/api/v1/comparison-escalations/[id]": { id: pairwise.escalationId },
      "/api/v1/studies/[id]/graders/[userId]": { id: f.study.id, userId: spare.id },
      "/api/v1/studies/[id]/grader-quality/exclusions/[userId]": { id: f.study.id, userId: spare.id },
      "/api/v1/users/[id]": { id: spare.id },
      "/api/v1/studies/[id]/harm-flags/[assignmentId]": { id: f.study.id, assignmentId: a2.id },
      "/api/v1/studies/[id]/triage/[setId]": { id: f.study.id, setId: f.sets[0].id },
      "/api/v1/studies/[id]/judges/[judgeId]": { id: f.study.id, judgeId: judge.id },
      "/api/v1/studies/[id]/judges/[judgeId]/runs/[runId]": { id: f.study.id, ...runs.running },
      "/api/v1/judge-endpoints/[endpointId]": { endpointId: runs.endpoint.id },
      "/api/v1/studies/[id]/embedding-runs/[runId]": { id: f.study.id, runId: runs.embedding.runId },
      "/api/v1/studies/[id]/invitations/[invitationId]": { id: f.study.id, invitationId: invitation.id },
    };
  });

  function paramsFor(url: string): Record<string, string> {
    for (const [prefix, p] of Object.entries(ctx.params).sort((a, b) => b[0].length - a[0].length)) if (url.startsWith(prefix)) return p;
    return {};
  }

  it("lists every route handler in the audience table (a new route needs a decision here)", () => {
    const found = routes.flatMap((r) => METHODS.map((m) => `${m} ${r.url}`));
    const declared = Object.keys(AUDIENCE);
    expect(routes.length).toBeGreaterThan(15);
    return Promise.all(routes.map(async (r) => ({ r, mod: (await import(r.file)) as Record<string, unknown> }))).then((mods) => {
      const exported = mods.flatMap(({ r, mod }) => METHODS.filter((m) => typeof mod[m] === "function").map((m) => `${m} ${r.url}`));
      expect(exported.filter((k) => !declared.includes(k)), "routes with no declared audience").toEqual([]);
      expect(declared.filter((k) => !exported.includes(k)), "declared routes that do not exist").toEqual([]);
      expect(found.length).toBeGreaterThan(0);
    });
  });

  for (const r of routes) {
    it(`${r.url}`, async () => {
      const mod = (await import(r.file)) as Record<string, Handler | undefined>;
      for (const method of METHODS) {
        const handler = mod[method];
        if (!handler) continue;
        const audience = AUDIENCE[`${method} ${r.url}`];
        if (audience === "public") continue;
        const callAs = async (who: keyof typeof ctx.tokens | null) => {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (who) headers.authorization = `Bearer ${ctx.tokens[who]}`;
          const init: RequestInit = { method, headers, ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }) };
          const res = await handler(new Request(`http://localhost${r.url}`, init), { params: Promise.resolve(paramsFor(r.url)) });
          expect(res.headers.get("content-type") ?? "", `${method} ${r.url} as ${who}: JSON or a file, never HTML`).not.toMatch(/text\/html/);
          return res.status;
        };
        const label = (who: string) => `${method} ${r.url} as ${who}`;
        if (audience === "metrics") {
          process.env.METRICS_TOKEN = "security-routes-metrics-token";
          try {
            for (const who of [null, "grader", "lead", "admin"] as const) expect(await callAs(who), label(String(who))).toBe(401);
          } finally {
            delete process.env.METRICS_TOKEN;
          }
          continue;
        }
        expect(await callAs(null), label("anonymous")).toBe(401);
        const allowed = (s: number) => ![401, 403, 404].includes(s) && s < 500;
        if (audience === "any") {
          for (const who of ["grader", "lead", "admin"] as const) expect(allowed(await callAs(who)), label(who)).toBe(true);
        } else if (audience === "admin") {
          expect(await callAs("grader"), label("grader")).toBe(403);
          expect(await callAs("lead"), label("lead")).toBe(403);
          expect(allowed(await callAs("admin")), label("admin")).toBe(true);
        } else if (audience === "grader") {
          expect(await callAs("lead"), label("lead")).toBe(403);
          expect(await callAs("admin"), label("admin")).toBe(403);
          if (r.url.includes("[id]")) expect(await callAs("otherGrader"), label("another grader")).toBe(404);
          expect(allowed(await callAs("grader")), label("the grader")).toBe(true);
        } else {
          expect(await callAs("grader"), label("grader")).toBe(403);
          if (audience === "study") expect(await callAs("otherLead"), label("lead of another study")).toBe(404);
          expect(allowed(await callAs("lead")), label("the study's lead")).toBe(true);
          expect(allowed(await callAs("admin")), label("admin")).toBe(true);
        }
      }
    });
  }
});
