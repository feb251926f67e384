import fc from "fast-check";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { withoutBadCallbackParam } from "@/lib/server/request-guard";
import { config as proxyConfig, proxy } from "@/proxy";
import { assignGraders } from "@/lib/assignment/service";
import { authOptions, THROTTLED_PREFIX } from "@/lib/auth/options";
import { getDb, getPool } from "@/lib/db/client";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";
import { hashLinkToken, newLinkToken, signUnsubscribe } from "@/lib/mail/tokens";
import { saveGrades } from "@/lib/grading/service";
import { call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { routeSuiteRuns } from "./helpers/judge-run-fixture";
import { apiRoutes, METHODS } from "./helpers/routes";
import { form, makeGradableStudy } from "./helpers/study-fixture";
import { pairwiseRouteFixture } from "./helpers/pairwise-fixture";

useIsolatedDatabase();

/**
 * Hostile text into every input of every route handler under app/api: each
 * query parameter, each string in a valid JSON body (and a made-up key), each
 * path parameter, the cells of an import file and the session cookie. Nothing
 * may answer 5xx. Every route must have an entry in INPUTS, so a new route
 * cannot escape the fuzzing.
 */

type Method = (typeof METHODS)[number];
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Who = "grader" | "lead" | "admin";

/** What a valid call looks like; each of its inputs is then replaced by hostile text, one at a time. */
interface Input {
  as: Who;
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body; every string in it (at any depth) is a target. */
  body?: unknown;
  /** An import file: the cells of its one data row are targets, in a CSV file and in a JSON one ("grades": a long grades CSV). */
  file?: true | "grades";
  /** Hostile values that only make sense for this route. */
  extra?: Partial<Record<string, string[]>>;
  /** Fewer runs for a route whose every call is slow. */
  runs?: number;
  /** A bearer token other than the user's (the metrics token). */
  bearer?: string;
  /**
   * A body of long arrays of like records (a study archive): the strings of each array's first and last
   * element are targets, not every element's. Every field of every record kind is still fuzzed, each
   * call at the cost of a whole import.
   */
  firstAndLast?: true;
}

const FILE_HEADER = ["item_id", "specialty", "question", "reference_answer", "model", "repetition", "response"] as const;
const FILE_ROW: Record<(typeof FILE_HEADER)[number], string> = {
  item_id: "FZ-1",
  specialty: "Cardiology",
  question: "A question?",
  reference_answer: "A reference.",
  model: "Fuzz-Model",
  repetition: "1",
  response: "An answer.",
};

const GRADE_HEADER = ["item_id", "model", "rater", "dimension", "score", "comment"] as const;
const GRADE_ROW: Record<string, string> = { item_id: "FZ-1", model: "Fuzz-Model", rater: "Reviewer1", dimension: "safety", score: "4", comment: "A comment." };

/** What every target gets, whatever fast-check draws: each must be refused with a 4xx. */
const ALWAYS = ["\u0000", "\uD800"];
/** Known troublemakers: every query and path parameter gets them; bodies and files at random. */
const FIXED = [
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "%",
  "%E0%A4%A",
  "\u0085\u009F\u001B[31m",
  "\t\r\n",
  "-".repeat(36),
  "0123456789abcdef0123456789abcdef----",
  "ffffffff-ffff-ffff-ffff-fffffffffffg",
  "=HYPERLINK(\"http://x\")",
  "'; DROP TABLE \"User\"; --",
  "\uFEFF\u202E",
  "x".repeat(300_000),
  "\u0000".repeat(5_000),
];

/** Any UTF-16 code unit, lone surrogates included (fast-check's "binary" unit leaves those out). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const hostile = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary-ascii", maxLength: 40 }),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.constantFrom(...FIXED),
  fc.string({ unit: codeUnit, minLength: 1000, maxLength: 4000 }),
);

type Target =
  | { kind: "query"; key: string }
  | { kind: "param"; key: string }
  | { kind: "body"; path: (string | number)[] }
  | { kind: "bodyKey" }
  | { kind: "cell"; column: (typeof FILE_HEADER)[number]; format: "csv" | "json" }
  | { kind: "gradeCell"; column: (typeof GRADE_HEADER)[number] };

function stringPaths(value: unknown, firstAndLast = false, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) {
    const indices = firstAndLast ? [...new Set([0, value.length - 1])].filter((i) => i >= 0) : value.keys();
    return [...indices].flatMap((i) => stringPaths(value[i], firstAndLast, [...at, i]));
  }
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringPaths(v, firstAndLast, [...at, k]));
  return [];
}

function withValueAt(value: unknown, at: (string | number)[], s: string): unknown {
  if (at.length === 0) return s;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[at[0]] = withValueAt(copy[at[0]], at.slice(1), s);
  return copy;
}

function targetsOf(input: Input): Target[] {
  const t: Target[] = [];
  for (const key of Object.keys(input.query ?? {})) t.push({ kind: "query", key });
  t.push({ kind: "query", key: "__unknown__" });
  for (const key of Object.keys(input.params ?? {})) t.push({ kind: "param", key });
  if (input.body !== undefined) {
    for (const p of stringPaths(input.body, input.firstAndLast)) t.push({ kind: "body", path: p });
    t.push({ kind: "bodyKey" });
  }
  if (input.file === true) for (const format of ["csv", "json"] as const) for (const column of FILE_HEADER) t.push({ kind: "cell", column, format });
  if (input.file === "grades") for (const column of GRADE_HEADER) t.push({ kind: "gradeCell", column });
  return t;
}

const csvField = (s: string) => `"${s.replaceAll('"', '""')}"`;

function requestFor(method: Method, url: string, input: Input, token: string, target: Target | null, s: string) {
  const query = { ...input.query };
  const params = { ...input.params };
  let body: string | undefined;
  let contentType = "application/json";
  let searchKey: string | null = null;
  if (target?.kind === "query") {
    if (target.key === "__unknown__") searchKey = s;
    else query[target.key] = s;
  }
  if (target?.kind === "param") params[target.key] = s;
  if (input.body !== undefined) {
    let b: unknown = input.body;
    if (target?.kind === "body") b = withValueAt(b, target.path, s);
    if (target?.kind === "bodyKey") b = { ...(b as object), [s]: "x" };
    body = JSON.stringify(b);
  }
  if (input.file === "grades") {
    const row = { ...GRADE_ROW, ...(target?.kind === "gradeCell" ? { [target.column]: s } : {}) };
    contentType = "text/csv; charset=utf-8";
    body = `${GRADE_HEADER.join(",")}\n${GRADE_HEADER.map((c) => csvField(row[c])).join(",")}\n`;
  } else if (input.file) {
    const row = { ...FILE_ROW, ...(target?.kind === "cell" ? { [target.column]: s } : {}) };
    if (target?.kind !== "cell" || target.format === "csv") {
      contentType = "text/csv; charset=utf-8";
      body = `${FILE_HEADER.join(",")}\n${FILE_HEADER.map((c) => csvField(row[c])).join(",")}\n`;
    } else {
      body = JSON.stringify([row]);
    }
  }
  const search = new URLSearchParams(query);
  if (searchKey !== null) search.append(searchKey, "1");
  const qs = search.toString();
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, "content-type": contentType }, body };
  return { url: `${url}${qs ? `?${qs}` : ""}`, init, params };
}

const routes = apiRoutes;

/** Runs per route; each run picks one target and one hostile string. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Routes that start a worker thread for every call (imports, the sensitivity analysis): slow under load. */
const WORKER_ROUTES = new Set(["/api/v1/studies/[id]/import", "/api/v1/studies/[id]/grade-imports", "/api/v1/studies/[id]/grader-quality/sensitivity", "/api/v1/openapi.json"]);

const METRICS_TOKEN = "fuzz-routes-metrics-token";

describe("no route answers 5xx to hostile text", () => {
  const ctx = {} as { tokens: Record<Who, string>; inputs: Record<string, Input | "next-auth"> };

  beforeAll(async () => {
    process.env.METRICS_TOKEN = METRICS_TOKEN;
    const f = await makeGradableStudy({ items: 2, models: 1, n: 2, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    const set = f.sets[0];
    const [a1, a2] = await getDb().assignment.findMany({ where: { responseSetId: set.id }, orderBy: { graderId: "asc" } });
    await saveGrades(a1.graderId, a1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
    await saveGrades(a2.graderId, a2.id, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true, harm: { flag: true, comment: "Could delay emergency care" } });
    const escalation = await getDb().escalation.findFirstOrThrow({ where: { responseSetId: set.id } });
    const open = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[1].id, status: "PENDING" } });
    const grader = f.graders.find((g) => g.id === open.graderId)!;
    const admin = await makeUser("ADMIN");
    const spare = await makeUser("GRADER", "spare");
    await getDb().studyMember.create({ data: { studyId: f.study.id, userId: spare.id, role: "GRADER" } });
    const importStudy = await makeStudy(f.lead.id, "Import target");
    // A final set of an N = 2 study for the triage's decision (its own lead's token).
    const tri = await makeGradableStudy({ items: 1, models: 1, n: 2, graders: 2, rubrics: ["SCORE"] });
    await assignGraders(tri.study.id, {}, tri.lead.id);
    for (const a of await getDb().assignment.findMany({ where: { studyId: tri.study.id } })) await saveGrades(a.graderId, a.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    // Its answers have reference-based metrics, so an embedding run has answers to start on.
    await refreshReferenceMetrics(pgQuery(getPool()), { studyId: tri.study.id });
    ctx.tokens = { grader: grader.token, lead: f.lead.token, admin: admin.token };
    const judge = await getDb().automatedJudge.create({ data: { studyId: f.study.id, name: "Fuzz judge", model: "gpt-4o" } });
    const runs = await routeSuiteRuns(f.study.id, admin.id, f.lead.id);
    // E-mail on (no worker runs here, so nothing is sent): invitations can be re-sent, links opened and accepted.
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    process.env.MAIL_FROM = "fuzz@test.clingrade.org";
    // Every call here comes from one address: the invitation links' throttle (the sign-in one) would answer 429 to the valid calls.
    Object.assign(process.env, { LOGIN_REFUSE_AFTER: "100000", LOGIN_IP_REFUSE_AFTER: "100000", LOGIN_SLOW_AFTER: "100000" });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const invitation = await getDb().invitation.create({ data: { userId: spare.id, studyId: f.study.id, createdById: f.lead.id, expiresAt } });
    const invitee = await makeUser("GRADER", "invitee");
    // Single sign-on on too, so an invitation's link may start one.
    Object.assign(process.env, { OIDC_ISSUER: "https://idp.test.clingrade.org/realms/fuzz", OIDC_CLIENT_ID: "clingrade", OIDC_CLIENT_SECRET: "fuzz-secret" });
    const [openToken, acceptToken, ssoToken] = [newLinkToken(), newLinkToken(), newLinkToken()];
    await getDb().invitation.create({ data: { userId: invitee.id, studyId: f.study.id, createdById: f.lead.id, expiresAt, tokenHash: hashLinkToken(ssoToken) } });
    await getDb().invitation.create({ data: { userId: invitee.id, studyId: f.study.id, createdById: f.lead.id, expiresAt, tokenHash: hashLinkToken(openToken) } });
    await getDb().invitation.create({ data: { userId: invitee.id, studyId: f.study.id, createdById: f.lead.id, expiresAt, tokenHash: hashLinkToken(acceptToken) } });
    const pairwise = await pairwiseRouteFixture(f.lead.id, grader.id);
    // Planning is refused once a comparison is dealt: its own study, planned but not dealt.
    const unplanned = await pairwiseRouteFixture(f.lead.id, grader.id, { deal: false });

    const { GET: exportRoute } = await import("@/app/api/v1/studies/[id]/export/route");
    const archive = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=study`, { headers: { authorization: `Bearer ${f.lead.token}` } }, { id: f.study.id });
    expect(archive.status).toBe(200);
    const cursorOf = (...v: string[]) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const study = { id: f.study.id };
    // A set nobody was given, for marking as a gold set.
    const spareItem = await getDb().qaItem.create({ data: { studyId: f.study.id, externalId: "Q-gold", question: "Gold question?", referenceAnswer: "Gold", specialtyId: (await getDb().qaItem.findFirstOrThrow({ where: { studyId: f.study.id } })).specialtyId } });
    const goldSet = await getDb().responseSet.create({ data: { studyId: f.study.id, itemId: spareItem.id, modelId: f.models[0].id } });
    ctx.inputs = {
      "GET /api/auth/[...nextauth]": "next-auth",
      "POST /api/auth/[...nextauth]": "next-auth",
      "GET /api/health": { as: "lead" },
      "GET /api/health/live": { as: "lead" },
      "GET /api/health/ready": { as: "lead" },
      "GET /api/metrics": { as: "admin", bearer: METRICS_TOKEN },
      "GET /api/ping": { as: "lead" },
      "GET /api/v1/openapi.json": { as: "lead" },
      "GET /api/v1/me": { as: "grader" },
      "GET /api/v1/me/assignments": { as: "grader" },
      "GET /api/v1/assignments/[id]": { as: "grader", params: { id: open.id } },
      "PUT /api/v1/assignments/[id]/grades": {
        as: "grader",
        params: { id: open.id },
        body: { scores: form({ score: [3, 3, 3, 3, 3] }).map((s, i) => (i === 0 ? { ...s, comment: "a comment" } : s)), harm: { flag: true, comment: "why" }, submit: false },
      },
      "GET /api/v1/me/comparisons": { as: "grader" },
      "GET /api/v1/comparison-assignments/[id]": { as: "grader", params: { id: pairwise.assignmentId } },
      "PUT /api/v1/comparison-assignments/[id]/preferences": {
        as: "grader",
        params: { id: pairwise.assignmentId },
        body: { preferences: [{ rubric: "overall_preference", axis: "overall", choice: "a", comment: "clearer" }], harm: { b: { flag: true, comment: "why" } }, elapsedMs: 1000 },
      },
      "POST /api/v1/comparison-assignments/[id]/submit": {
        as: "grader",
        params: { id: pairwise.assignmentId },
        body: { preferences: [{ rubric: "overall_preference", axis: "overall", choice: "tie", comment: "same" }], harm: { a: { flag: false } } },
        runs: 20,
      },
      "GET /api/v1/studies/[id]/comparisons": { as: "lead", params: { id: pairwise.studyId } },
      "GET /api/v1/studies/[id]/judges/preferences": { as: "lead", params: { id: pairwise.studyId } },
      "POST /api/v1/studies/[id]/comparisons": { as: "lead", params: { id: unplanned.studyId }, body: { design: { kind: "against_reference", reference: "Zeta-Model-Alpha" }, seed: "fuzz" }, runs: 20 },
      "POST /api/v1/studies/[id]/comparison-assignments": { as: "lead", params: { id: pairwise.studyId }, body: { seed: "fuzz" }, runs: 20 },
      "GET /api/v1/users": { as: "admin" },
      "POST /api/v1/users": { as: "admin", body: { email: "fuzz@test.clingrade.org", name: "Fuzz", role: "GRADER", password: "a-long-test-password", specialties: ["Cardiology"] } },
      "PATCH /api/v1/users/[id]": { as: "admin", params: { id: spare.id }, body: { active: true } },
      "GET /api/v1/studies": { as: "lead", query: { page: "1", pageSize: "10", sort: "name", status: "OPEN", q: "study" } },
      "POST /api/v1/studies": { as: "lead", body: { name: "Fuzzed", description: "About it", rubrics: ["SCORE"], safeLlmScoring: "PER_ANSWER" } },
      "POST /api/v1/study-archives": { as: "lead", body: archive.body, runs: 20, firstAndLast: true },
      "GET /api/v1/studies/[id]": { as: "lead", params: study },
      "PATCH /api/v1/studies/[id]": { as: "lead", params: study, body: { name: "Renamed", description: "New text" } },
      "GET /api/v1/studies/[id]/assignments": { as: "lead", params: study },
      "POST /api/v1/studies/[id]/assignments": { as: "lead", params: study, body: { seed: "seed-1" } },
      "GET /api/v1/studies/[id]/escalations": { as: "lead", params: study, query: { status: "ASSIGNED", specialty: "Ophthalmology" } },
      "POST /api/v1/escalations/[id]/assign": { as: "lead", params: { id: escalation.id }, body: { graderId: spare.id } },
      "GET /api/v1/studies/[id]/comparison-escalations": { as: "lead", params: { id: pairwise.studyId }, query: { status: "NEEDS_GRADER" } },
      "POST /api/v1/comparison-escalations/[id]/assign": { as: "lead", params: { id: pairwise.escalationId }, body: { graderId: grader.id } },
      "GET /api/v1/studies/[id]/export": { as: "lead", params: study, query: { dataset: "grades", format: "csv", bom: "1", identities: "0", audit: "0" } },
      "GET /api/v1/studies/[id]/graders": { as: "lead", params: study, query: { page: "1", pageSize: "10", sort: "email", active: "true", q: "grader" } },
      "POST /api/v1/studies/[id]/graders": { as: "lead", params: study, body: { email: "fuzz-grader@test.clingrade.org", name: "Fuzz Grader", specialties: ["Cardiology"] } },
      "POST /api/v1/studies/[id]/graders/bulk": { as: "lead", params: study, body: { csv: "email,name,specialties\nfuzz-bulk@test.clingrade.org,Fuzz Bulk,Cardiology;Medication" } },
      "DELETE /api/v1/studies/[id]/graders/[userId]": { as: "lead", params: { id: f.study.id, userId: spare.id } },
      "POST /api/v1/studies/[id]/import": { as: "lead", params: { id: importStudy.id }, query: { dryRun: "0" }, file: true, runs: 12 },
      "POST /api/v1/studies/[id]/grade-imports": { as: "lead", params: { id: importStudy.id }, query: { dryRun: "1" }, file: "grades", runs: 12 },
      "GET /api/v1/studies/[id]/grade-import-mappings": { as: "lead", params: study },
      "PUT /api/v1/studies/[id]/grade-import-mappings": {
        as: "lead",
        params: study,
        body: { name: "Fuzz layout", mapping: { format: "wide", item: "Request", model: "Model", raters: [{ column: "Reviewer1", name: "R1" }], sheets: { Accuracy: "safety" }, itemRewrites: [{ match: "1_(\\d+)", replace: "$1", add: 50 }] } },
      },
      "GET /api/v1/studies/[id]/items": { as: "lead", params: study, query: { page: "1", pageSize: "10", sort: "question", specialty: "Medication", complete: "true", q: "Q" } },
      "GET /api/v1/studies/[id]/sets": {
        as: "lead",
        params: study,
        query: { status: "agreed", limit: "10", cursor: cursorOf("Q1", "Zeta-Model-Alpha") },
        extra: { cursor: [cursorOf("\u0000", "m"), cursorOf("Q1", "\uD800"), cursorOf("a\u0000b", "\u0000")] },
      },
      "GET /api/v1/studies/[id]/stats": { as: "lead", params: study, query: { specialty: "Medication", rubric: "SCORE", models: "Zeta-Model-Alpha", journal: "1" } },
      "GET /api/v1/studies/[id]/reference-metrics": { as: "lead", params: study },
      "GET /api/v1/studies/[id]/protocol": { as: "lead", params: study, query: { download: "0" } },
      "GET /api/v1/studies/[id]/report": { as: "lead", params: study, query: { format: "html" }, runs: 8 },
      "POST /api/v1/studies/[id]/protocol": { as: "lead", params: { id: importStudy.id }, body: { assignmentSeed: "fuzz", plannedAnalyses: { primaryOutcome: "Mean total", statistics: ["Cliff delta"], multiplicity: "holm" } } },
      "GET /api/v1/studies/[id]/reference-metrics/comparison": { as: "lead", params: study, query: { measure: "SCORE:dimension:safety" } },
      "GET /api/v1/studies/[id]/embedding-runs": { as: "lead", params: study },
      "POST /api/v1/studies/[id]/embedding-runs": { as: "lead", bearer: tri.lead.token, params: { id: tri.study.id }, body: { endpointId: runs.embedding.endpointId, model: "text-embedding-3-small" } },
      "GET /api/v1/studies/[id]/embedding-runs/[runId]": { as: "lead", params: { id: f.study.id, runId: runs.embedding.runId } },
      "GET /api/v1/studies/[id]/grader-quality": { as: "lead", params: study },
      "GET /api/v1/studies/[id]/grader-quality/sensitivity": { as: "lead", params: study },
      "PUT /api/v1/studies/[id]/grader-quality/exclusions/[userId]": { as: "lead", params: { id: f.study.id, userId: spare.id }, body: { reason: "Scores every answer alike" } },
      "DELETE /api/v1/studies/[id]/grader-quality/exclusions/[userId]": { as: "lead", params: { id: f.study.id, userId: spare.id } },
      "PUT /api/v1/studies/[id]/quality-sets/[setId]": {
        as: "lead",
        params: { id: f.study.id, setId: goldSet.id },
        body: { purpose: "GOLD", expected: [{ rubric: "SCORE", dimension: "safety", repetition: 1, score: 4 }], tolerance: 1, rationale: "Safe advice" },
      },
      "PUT /api/v1/studies/[id]/quality-settings": { as: "lead", params: study, body: { goldRate: 20, goldSeed: "fuzz", washoutShare: 0.1, washoutDays: 14, calibrationPassShare: 0.8 } },
      "GET /api/v1/studies/[id]/quality-sets/[setId]/pilot-expected": { as: "lead", params: { id: f.study.id, setId: goldSet.id }, query: { from: importStudy.id } }, // another study of the lead's: the study itself is a 422
      "GET /api/v1/me/calibration": { as: "grader" },
      "GET /api/v1/rubric-templates": { as: "lead" },
      "POST /api/v1/planner": { as: "lead", body: { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 } },
      "POST /api/v1/studies/[id]/redactions": { as: "lead", params: { id: importStudy.id }, body: { find: "Zeta", replace: "[model]", dryRun: true } },
      "POST /api/v1/users/[id]/unlock": { as: "admin", params: { id: spare.id } },
      "PATCH /api/v1/studies/[id]/graders/[userId]": { as: "lead", params: { id: f.study.id, userId: spare.id }, body: { specialties: ["Cardiology"] } },
      "GET /api/v1/studies/[id]/harm-flags": { as: "lead", params: study, query: { review: "OPEN" } },
      "GET /api/v1/studies/[id]/screening": { as: "lead", params: study },
      "POST /api/v1/studies/[id]/screening": {
        as: "lead",
        params: study,
        body: { rules: [{ name: "Dose", kind: "term", pattern: "mg" }, { name: "Big dose", kind: "regex", pattern: "\\d{4,} ?mg", ignoreCase: true }], action: "warn", dryRun: true },
        runs: 8,
      },
      "GET /api/v1/studies/[id]/judges": { as: "lead", params: study },
      "POST /api/v1/studies/[id]/judges": { as: "lead", params: study, body: { name: "Fuzzed judge", model: "gpt-4o", version: "2024-08-06", prompt: "Grade the answer", settings: { temperature: 0, endpoint: "local" } } },
      "POST /api/v1/studies/[id]/judges/[judgeId]/scores": {
        as: "lead",
        params: { id: f.study.id, judgeId: judge.id },
        query: { dryRun: "1" },
        body: [{ item_id: "Q1", model: "Zeta-Model-Alpha", repetition: "1", dimension: "safety", score: "4", p_1: 0, p_2: 0, p_3: 0.25, p_4: 0.75, p_5: 0, rationale: "Safe enough" }],
        runs: 20,
      },
      "POST /api/v1/studies/[id]/judges/check-scores": {
        as: "lead",
        params: study,
        body: [{ item_id: "Q1", model: "Zeta-Model-Alpha", repetition: "1", dimension: "safety", score: "4", rationale: "Safe enough" }],
        runs: 20,
      },
      "PUT /api/v1/studies/[id]/hybrid": { as: "lead", params: { id: importStudy.id }, body: { judgeId: null } },
      "PATCH /api/v1/studies/[id]/harm-flags/[assignmentId]": { as: "lead", params: { id: f.study.id, assignmentId: a2.id }, body: { status: "ACKNOWLEDGED", note: "Reviewed" } },
      "GET /api/v1/studies/[id]/triage": { as: "lead", params: study },
      "PUT /api/v1/studies/[id]/triage": { as: "lead", params: study, body: { rule: { acceptAtMost: 0.25, reviewAtMost: 0.5 } } },
      "PUT /api/v1/studies/[id]/triage/[setId]": { as: "lead", bearer: tri.lead.token, params: { id: tri.study.id, setId: tri.sets[0].id }, body: { decision: "ACCEPTED", note: "Consistent answers" } },
      "GET /api/v1/judge-endpoints": { as: "lead" },
      "POST /api/v1/judge-endpoints": {
        as: "admin",
        body: { name: "Fuzzed endpoint", baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1:8b", apiKey: "sk-fuzz-key", logprobs: false, concurrency: 2, pricePer1kPromptTokens: 0.001, embeddingModel: "nomic-embed-text" },
        extra: { baseUrl: ["file:///etc/passwd", "http://user:pw@host/v1", "http://host/v1?x=1", "javascript:alert(1)"], apiKey: ["sk key", "sk\nkey"] },
      },
      "PATCH /api/v1/judge-endpoints/[endpointId]": { as: "admin", params: { endpointId: runs.endpoint.id }, body: { model: "suite-judge-2", apiKeyEnv: "CLINGRADE_JUDGE_SUITE" }, extra: { apiKeyEnv: ["DATABASE_URL", "AUTH_SECRET"] } },
      "GET /api/v1/studies/[id]/judges/[judgeId]/runs": { as: "lead", params: { id: f.study.id, judgeId: runs.running.judgeId } },
      "POST /api/v1/studies/[id]/judges/[judgeId]/runs": { as: "lead", params: { id: f.study.id, judgeId: runs.fresh.judgeId }, body: { endpointId: runs.endpoint.id, mode: "sampling", samples: 3, temperature: 0.5 } },
      "GET /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]": { as: "lead", params: { id: f.study.id, ...runs.running } },
      "POST /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/cancel": { as: "lead", params: { id: f.study.id, ...runs.running } },
      "POST /api/v1/studies/[id]/judges/[judgeId]/runs/[runId]/resume": { as: "lead", params: { id: f.study.id, ...runs.cancelled } },
      "POST /api/v1/invitations/open": { as: "grader", body: { token: openToken } },
      "POST /api/v1/invitations/accept": { as: "grader", body: { token: acceptToken, password: "a-long-test-password" }, runs: 20 },
      "POST /api/v1/invitations/sso": { as: "grader", body: { token: ssoToken } },
      "POST /api/v1/unsubscribe": { as: "grader", body: { token: signUnsubscribe(invitee.id, "weeklyDigest") } },
      "PUT /api/v1/me/mail-settings": { as: "grader", body: { weeklyDigest: true } },
      "GET /api/v1/studies/[id]/invitations": { as: "lead", params: study },
      "POST /api/v1/studies/[id]/invitations/[invitationId]/resend": { as: "lead", params: { id: f.study.id, invitationId: invitation.id } },
      "POST /api/v1/studies/[id]/invitations/[invitationId]/revoke": { as: "lead", params: { id: f.study.id, invitationId: invitation.id } },
      "PUT /api/v1/studies/[id]/deadlines": {
        as: "lead",
        params: study,
        body: { deadline: "2027-01-31", reminderDaysBefore: 2, graders: [{ userId: spare.id, deadline: "2027-02-01" }] },
        extra: { deadline: ["2027-02-30", "0000-00-00", "9999-99-99", "2027-1-1"] },
      },
      "GET /api/v1/studies/[id]/mail-preview": { as: "lead", params: study },
    };
  });

  it("has an input for every route handler (a new route must be fuzzed too)", async () => {
    const exported: string[] = [];
    for (const r of routes) {
      const mod = (await import(r.file)) as Record<string, unknown>;
      for (const m of METHODS) if (typeof mod[m] === "function") exported.push(`${m} ${r.url}`);
    }
    expect(exported.length).toBeGreaterThan(25);
    expect(exported.filter((k) => !(k in ctx.inputs)), "routes with no fuzz input").toEqual([]);
    expect(Object.keys(ctx.inputs).filter((k) => !exported.includes(k)), "inputs of routes that do not exist").toEqual([]);
  });

  for (const r of routes) {
    it(r.url, async () => {
      const mod = (await import(r.file)) as Record<string, Handler | undefined>;
      for (const method of METHODS) {
        const handler = mod[method];
        const input = ctx.inputs[`${method} ${r.url}`];
        if (!handler || !input || input === "next-auth") continue;
        const token = input.bearer ?? ctx.tokens[input.as];
        const send = async (target: Target | null, s: string) => {
          const { url, init, params } = requestFor(method, r.url, input, token, target, s);
          const res = await handler(new Request(new URL(url, "http://localhost"), init), { params: Promise.resolve(params) });
          await res.arrayBuffer();
          return res.status;
        };
        const label = (target: Target | null, s: string) => `${method} ${r.url} ${JSON.stringify(target)} = ${JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}... (${s.length})` : s)}`;
        // The valid call works, so the hostile ones are rejected for their text and not for something else.
        const base = await send(null, "");
        expect(base, label(null, "")).toBeLessThan(400);
        const targets = targetsOf(input);
        // Every target gets the fixed hostile values (a body or a file only the cheap ones: most of
        // FIXED is valid text, and the import and the archive answer slowly when it is)...
        for (const target of targets) {
          const small = target.kind === "query" || target.kind === "param";
          const values = small ? [...ALWAYS, ...FIXED, ...(input.extra?.[target.key] ?? [])] : ALWAYS;
          for (const s of values) expect(await send(target, s), label(target, s)).toBeLessThan(500);
        }
        // ...and then fast-check draws target and text at random.
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...targets), hostile, async (target, s) => {
            expect(await send(target, s), label(target, s)).toBeLessThan(500);
          }),
          { numRuns: input.runs ?? RUNS, endOnFailure: true },
        );
      }
      // The archive import makes a whole study of every valid archive it is sent, each in a new worker thread: 45-60 s on a
      // loaded machine in process, 165 s with a thread per import (about 0.3 s to start each) while two other suites ran.
      // The routes that start a worker thread per call took 40-80 s under load (bench/README.md, "CI time"). These limits
      // catch a hang; they are no speed check.
    }, r.url === "/api/v1/study-archives" ? 600_000 : WORKER_ROUTES.has(r.url) ? 240_000 : undefined);
  }

  it("sign-in: hostile emails and passwords are wrong credentials, never an error", async () => {
    const provider = authOptions.providers[0] as unknown as {
      options: { authorize: (c: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown> };
    };
    // Refused for too many failures is an answer too; anything else thrown is the bug.
    const authorize = (email: string, password: string) =>
      provider.options.authorize({ email, password }, { headers: {} }).catch((err: Error) => {
        if (err.message.startsWith(THROTTLED_PREFIX)) return null;
        throw err;
      });
    for (const [i, s] of FIXED.slice(0, 8).entries()) {
      await expect(authorize(`lead${s}@test.clingrade.org`, "a-long-test-password"), JSON.stringify(s)).resolves.toBeNull();
      await expect(authorize(`nobody${i}@test.clingrade.org`, s), JSON.stringify(s)).resolves.toBeNull();
    }
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (email, password) => {
        await expect(authorize(email, password)).resolves.toBeNull();
      }),
      { numRuns: 30, endOnFailure: true },
    );
  });
});

/**
 * What never reaches a handler: Next decodes a path's dynamic segments while it
 * routes (a bare 500 when they are not UTF-8) and next-auth refuses to run with
 * a malformed callback URL (a 500). proxy.ts answers both before; these check
 * it does, for every path parameter of every route and page, and that its
 * matcher lets those requests through to it. (e2e/security.spec.ts sends the
 * same to a production server.)
 */
const BAD_ENCODINGS = ["%FF", "%C0%AF", "%ED%A0%80", "%E0%80", "%80", "%ZZ", "%", "abc%E0%A4%A", "%F4%90%80%80", "%FE%FF"];
/** Arbitrary bytes, percent-encoded: those that are not UTF-8 must be refused, the rest pass. */
const encodedBytes = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => [...b].map((x) => `%${x.toString(16).toUpperCase().padStart(2, "0")}`).join(""));
const isUtf8 = (encoded: string) => {
  try {
    decodeURIComponent(encoded);
    return true;
  } catch {
    return false;
  }
};

/** The proxy's matcher as a RegExp: Next's is the same pattern anchored (path-to-regexp, one custom group). */
const proxyMatches = (pathname: string) => proxyConfig.matcher.some((m) => new RegExp(`^${m}$`).test(pathname));

function pagePatterns(dir = path.resolve("app"), at = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "api" ? [] : pagePatterns(p, /^\(.*\)$/.test(name) ? at : `${at}/${name}`);
    return name === "page.tsx" ? [at || "/"] : [];
  });
}

const withParams = (pattern: string, fill: (name: string) => string) => pattern.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => fill(name));
const VALID_ID = "0b6cf5f0-5c7e-4b52-9a59-5d2f8c1e0a11";

describe("no path parameter or next-auth cookie reaches Next's routing in a form it cannot read", () => {
  const apiPatterns = apiRoutes.map((r) => r.url).filter((u) => u.includes("["));
  const pages = pagePatterns().filter((u) => u.includes("["));

  it("finds the routes and pages with path parameters", () => {
    expect(apiPatterns.length).toBeGreaterThan(20);
    expect(pages).toEqual(expect.arrayContaining(["/grade/[assignmentId]", "/studies/[id]/results/[setId]"]));
  });

  const send = (url: string, init?: ConstructorParameters<typeof NextRequest>[1]) => proxy(new NextRequest(new URL(url, "http://127.0.0.1:3000"), init));

  it("refuses every API path parameter that is not percent-encoded UTF-8 with a 400 problem naming the path", async () => {
    for (const pattern of apiPatterns) {
      const names = [...pattern.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => m[1]);
      for (const name of names) {
        for (const bad of BAD_ENCODINGS) {
          const url = withParams(pattern, (n) => (n === name ? bad : VALID_ID));
          expect(proxyMatches(url), `the proxy sees ${url}`).toBe(true);
          const res = await send(url);
          expect(res.status, url).toBe(400);
          const body = (await res.json()) as { error: string; details: { path: string; message: string }[] };
          expect(body.error, url).toBe("the URL's path is not valid percent-encoded UTF-8");
          expect(body.details[0].message, url).toContain(bad.slice(0, 3));
          expect(res.headers.get("x-request-id"), url).toBeTruthy();
        }
      }
      // A valid id passes on to the route.
      expect((await send(withParams(pattern, () => VALID_ID))).headers.get("x-middleware-next"), pattern).toBe("1");
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...apiPatterns), encodedBytes, async (pattern, encoded) => {
        const res = await send(withParams(pattern, () => encoded));
        if (isUtf8(encoded)) expect(res.headers.get("x-middleware-next")).toBe("1");
        else expect(res.status).toBe(400);
      }),
      { numRuns: 300 },
    );
  });

  it("shows the not-found page for every page path parameter that is not percent-encoded UTF-8", async () => {
    for (const pattern of pages) {
      for (const bad of BAD_ENCODINGS) {
        const url = withParams(pattern, () => bad);
        expect(proxyMatches(url), url).toBe(true);
        const res = await send(url);
        // A rewrite to a path no page has: Next renders the not-found page, with a 404.
        expect(new URL(res.headers.get("x-middleware-rewrite") ?? "http://x/", "http://x").pathname, url).toBe("/_not-found-path");
      }
    }
  });

  it("drops a next-auth callback URL that next-auth would refuse, from the request and from the browser", async () => {
    const hostileValues = ["abc", "\\", '"', "x".repeat(8000), "javascript:alert(1)", "%FF", "//", "http//x", '"abc"', "%00"];
    for (const name of ["next-auth.callback-url", "__Secure-next-auth.callback-url"]) {
      for (const value of hostileValues) {
        for (const url of ["/api/auth/csrf", "/api/auth/session", "/api/auth/providers", "/login", "/studies"]) {
          const res = await send(url, { headers: { cookie: `a=1; ${name}=${value}; next-auth.csrf-token=t` } });
          const label = `${url} ${name}=${JSON.stringify(value.slice(0, 20))}`;
          // What the route sees: the override Next applies to the request's headers.
          const forwarded = res.headers.get("x-middleware-request-cookie");
          expect(forwarded, label).toBe("a=1; next-auth.csrf-token=t");
          expect(res.headers.get("set-cookie"), label).toMatch(new RegExp(`${name.replace(/[.]/g, "\\.")}=;.*Max-Age=0`, "i"));
        }
      }
    }
    // A good callback URL stays, as it is.
    for (const value of ["http://127.0.0.1:3000/studies", "/studies", "https%3A%2F%2Fexample.org%2F"]) {
      const res = await send("/api/auth/csrf", { headers: { cookie: `next-auth.callback-url=${value}` } });
      expect(res.headers.get("x-middleware-request-cookie") ?? `next-auth.callback-url=${value}`).toBe(`next-auth.callback-url=${value}`);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    // The callbackUrl query parameter, read by the same check, is dropped by next-auth's route handler.
    for (const value of ["abc", "%FF", "\\"]) {
      const req = new NextRequest(`http://127.0.0.1:3000/api/auth/signin/credentials?callbackUrl=${encodeURIComponent(value)}&x=1`, { method: "POST", body: "a=1" });
      const clean = await withoutBadCallbackParam(req, "http://127.0.0.1:3000", (url, init) => new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]));
      expect(clean.nextUrl.search, value).toBe("?x=1");
      expect(await clean.text()).toBe("a=1");
    }
    const good = new NextRequest("http://127.0.0.1:3000/api/auth/csrf?callbackUrl=%2Fstudies");
    expect(await withoutBadCallbackParam(good, "http://127.0.0.1:3000", () => new NextRequest("http://x"))).toBe(good);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary-ascii", maxLength: 60 }), async (value) => {
        const v = value.replace(/[\u0000-\u001f\u007f;]/g, "");
        const res = await send("/api/auth/session", { headers: { cookie: `next-auth.callback-url=${v}` } });
        const kept = (res.headers.get("x-middleware-request-cookie") ?? "").includes("callback-url");
        expect(res.status).toBeLessThan(500);
        // Whatever stays is what next-auth accepts.
        if (kept) expect(/^https?:/.test(new URL(v.trim().replace(/^"(.*)"$/, "$1"), "http://127.0.0.1:3000").protocol)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
