import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listStudies, POST as createStudy } from "@/app/api/v1/studies/route";
import { GET as getStudy, PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { getDb } from "@/lib/db/client";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

type User = Awaited<ReturnType<typeof makeUser>>;

const send = (token: string | null, method: string, body?: unknown, extra: Record<string, string> = {}): RequestInit => {
  const init: RequestInit = {
    method,
    headers: { "content-type": "application/json", ...extra },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  };
  return token ? bearer(token, init) : init;
};

const post = (token: string | null, body: unknown) => call(createStudy, "/api/v1/studies", send(token, "POST", body));
const get = (token: string | null, id: string) => call(getStudy, `/api/v1/studies/${id}`, send(token, "GET"), { id });
const patch = (token: string | null, id: string, body: unknown) => call(patchStudy, `/api/v1/studies/${id}`, send(token, "PATCH", body), { id });
const list = (token: string, query = "") => call(listStudies, `/api/v1/studies${query}`, send(token, "GET"));

const detailsPaths = (body: Record<string, unknown>) => (body.details as { path: string; message: string }[]).map((d) => d.path);

/** A study with one graded (or only submitted) assignment: the state in which settings lock. */
async function startGrading(studyId: string, graderId: string, how: "grade" | "submitted") {
  const db = getDb();
  const specialty = await db.specialty.upsert({ where: { name: "Ophthalmology" }, create: { name: "Ophthalmology" }, update: {} });
  const item = await db.qaItem.create({
    data: { studyId, externalId: `Q-${how}`, question: "What is glaucoma?", referenceAnswer: "…", specialtyId: specialty.id },
  });
  const model = await db.llmModel.create({ data: { studyId, name: `model-${how}` } });
  const set = await db.responseSet.create({ data: { studyId, itemId: item.id, modelId: model.id } });
  await db.response.createMany({ data: [1, 2, 3].map((repetition) => ({ responseSetId: set.id, repetition, text: `answer ${repetition}` })) });
  const assignment = await db.assignment.create({
    data: { responseSetId: set.id, studyId, graderId, kind: "PRIMARY", position: 0, status: how === "submitted" ? "SUBMITTED" : "IN_PROGRESS" },
  });
  if (how === "grade") {
    await db.grade.create({ data: { assignmentId: assignment.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 4 } });
  }
}

let lead: User, otherLead: User, admin: User, grader: User;

beforeAll(async () => {
  [lead, otherLead, admin, grader] = await Promise.all([makeUser("LEAD", "lead"), makeUser("LEAD", "other-lead"), makeUser("ADMIN"), makeUser("GRADER")]);
});

describe("POST /api/v1/studies", () => {
  it("answers 401 to the anonymous and 403 to a grader", async () => {
    expect((await post(null, { name: "X", rubrics: ["SCORE"] })).status).toBe(401);
    const r = await post(grader.token, { name: "X", rubrics: ["SCORE"] });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/roles LEAD, ADMIN/);
  });

  it("creates a DRAFT study with the papers' defaults, makes the creator its LEAD and audits it", async () => {
    const r = await post(lead.token, { name: "Ophthalmology QA", rubrics: ["SCORE", "SAFE_LLM"] });
    expect(r.status).toBe(201);
    const id = r.body.id as string;
    expect(r.body.slug).toBe("ophthalmology-qa");

    const db = getDb();
    const study = await db.study.findUniqueOrThrow({ where: { id }, include: { members: true } });
    expect(study).toMatchObject({
      status: "DRAFT",
      rubrics: templateRubrics(["SCORE", "SAFE_LLM"]),
      repetitions: 3,
      gradersPerSet: 2,
      showReferenceAnswer: true,
      matchSpecialty: false,
      safeLlmScoring: "PER_ANSWER",
      createdById: lead.id,
      thresholds: DEFAULT_THRESHOLDS,
    });
    expect(study.members).toEqual([expect.objectContaining({ userId: lead.id, role: "LEAD", active: true })]);

    const events = await db.auditEvent.findMany({ where: { studyId: id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: "study.create", actorId: lead.id, entityType: "Study", entityId: id, before: null });
    expect(events[0].after).toMatchObject({ name: "Ophthalmology QA", status: "DRAFT", repetitions: 3, gradersPerSet: 2 });
    expect(events[0].requestId).toBeTruthy();
  });

  it("merges partial thresholds over the defaults and keeps every other setting it is given", async () => {
    const r = await post(lead.token, {
      name: "Custom",
      description: "  a description  ",
      rubrics: ["SAFE_LLM"],
      repetitions: 5,
      gradersPerSet: 3,
      thresholds: { SAFE_LLM: { fluency: 0.25 } },
      showReferenceAnswer: false,
      matchSpecialty: true,
      safeLlmScoring: "OVERALL",
    });
    expect(r.status).toBe(201);
    const detail = (await get(lead.token, r.body.id as string)).body;
    expect(detail).toMatchObject({
      description: "a description",
      rubrics: ["SAFE_LLM"],
      repetitions: 5,
      gradersPerSet: 3,
      showReferenceAnswer: false,
      matchSpecialty: true,
      safeLlmScoring: "OVERALL",
      thresholds: { SAFE_LLM: { ...DEFAULT_THRESHOLDS.SAFE_LLM, fluency: 0.25 } },
    });
  });

  it("gives each study a unique slug, adding a suffix on a clash", async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await post(lead.token, { name: "Same Name!", rubrics: ["SCORE"] })).body.slug);
    expect(slugs).toEqual(["same-name", "same-name-2", "same-name-3"]);
  });

  it("lets an admin create a study (and lead it)", async () => {
    const r = await post(admin.token, { name: "Admin study", rubrics: ["SCORE"] });
    expect(r.status).toBe(201);
    const member = await getDb().studyMember.findUnique({ where: { studyId_userId: { studyId: r.body.id as string, userId: admin.id } } });
    expect(member?.role).toBe("LEAD");
  });

  it("answers 422 naming every bad field", async () => {
    const r = await post(lead.token, {
      name: " ",
      rubrics: ["SCORE", 7],
      repetitions: 11,
      gradersPerSet: 0,
      thresholds: { SCORE: { safety: -1 } },
      safeLlmScoring: "SOMETIMES",
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("invalid input");
    expect(detailsPaths(r.body)).toEqual(expect.arrayContaining(["name", "rubrics.1", "repetitions", "gradersPerSet", "thresholds.SCORE.safety", "safeLlmScoring"]));
    // What the fields say of the study's rubrics is checked once the fields themselves are valid.
    const second = await post(lead.token, { name: "x", rubrics: ["SCORE", "SCORE"], thresholds: { SCORE: { bogus: 2 }, SAFE_LLM: { fluency: 0.5 } } });
    expect(second.status).toBe(422);
    expect(second.body.details).toEqual([{ path: "rubrics.1.key", message: 'two rubrics have the key "SCORE": each rubric of a study needs its own key' }]);
    const third = await post(lead.token, { name: "x", rubrics: ["SCORE"], thresholds: { SCORE: { bogus: 2 }, SAFE_LLM: { fluency: 0.5 } } });
    expect(detailsPaths(third.body)).toEqual(["thresholds.SCORE.bogus", "thresholds.SAFE_LLM"]);
    const messages = (third.body.details as { message: string }[]).map((d) => d.message).join("\n");
    expect(messages).toMatch(/unknown SCORE dimension "bogus"/);
    expect(messages).toMatch(/unknown rubric "SAFE_LLM" in thresholds/);

    expect(detailsPaths((await post(lead.token, { name: "x" })).body)).toEqual(["rubrics"]);
    expect(detailsPaths((await post(lead.token, { name: "x", rubrics: [] })).body)).toEqual(["rubrics"]);
    expect((await post(lead.token, { name: "x", rubrics: ["SCORE"], colour: "red" })).body.details).toEqual([
      { path: "", message: "unknown setting colour" },
    ]);
  });

  it("answers 400 to a body that is not JSON and 413 to one that is too large", async () => {
    const bad = await post(lead.token, "{not json");
    expect(bad).toMatchObject({ status: 400, body: { error: "request body is not valid JSON" } });
    const big = await post(lead.token, { name: "x", rubrics: ["SCORE"], description: "a".repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect(big.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("accepts a Bearer-token write whatever its Origin (only session cookies are held to same-origin)", async () => {
    const r = await call(createStudy, "/api/v1/studies", send(lead.token, "POST", { name: "Cross", rubrics: ["SCORE"] }, { origin: "https://evil.example" }));
    expect(r.status).toBe(201);
  });
});

describe("GET /api/v1/studies", () => {
  it("pages, sorts and filters in the database, showing a lead only their own studies", async () => {
    const mine = await makeUser("LEAD", "list-lead");
    const names = ["Bravo", "alpha", "Charlie", "delta", "Echo"];
    const ids: Record<string, string> = {};
    for (const name of names) ids[name] = (await post(mine.token, { name, rubrics: ["SCORE"] })).body.id as string;
    await patch(mine.token, ids.Charlie, { status: "OPEN" });
    await patch(mine.token, ids.Echo, { status: "OPEN" });

    const all = await list(mine.token, "?sort=name&pageSize=2");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect((all.body.studies as { name: string }[]).map((s) => s.name)).toEqual(["alpha", "Bravo"]);
    const page3 = await list(mine.token, "?sort=name&pageSize=2&page=3");
    expect((page3.body.studies as { name: string }[]).map((s) => s.name)).toEqual(["Echo"]);
    const desc = await list(mine.token, "?sort=-name&pageSize=2");
    expect((desc.body.studies as { name: string }[]).map((s) => s.name)).toEqual(["Echo", "delta"]);

    const open = await list(mine.token, "?status=OPEN&sort=name");
    expect((open.body.studies as { name: string }[]).map((s) => s.name)).toEqual(["Charlie", "Echo"]);
    expect(open.body.total).toBe(2);
    const search = await list(mine.token, "?q=LT");
    expect((search.body.studies as { name: string }[]).map((s) => s.name)).toEqual(["delta"]);

    // Another lead's studies never show up, whatever the filter.
    const theirs = await list(otherLead.token, "?q=alpha");
    expect(theirs.body.total).toBe(0);
    const adminView = await list(admin.token, "?q=alpha&pageSize=100");
    expect((adminView.body.studies as { id: string }[]).map((s) => s.id)).toContain(ids.alpha);
  });

  it("answers 422 naming a bad query parameter", async () => {
    const r = await list(lead.token, "?sort=colour&pageSize=1000&status=ARCHIVED");
    expect(r.status).toBe(422);
    expect(detailsPaths(r.body).sort()).toEqual(["pageSize", "sort", "status"]);
  });
});

describe("GET /api/v1/studies/{id}", () => {
  it("applies the role and ownership rules", async () => {
    const study = await makeStudy(lead.id, "Access");
    expect((await get(null, study.id)).status).toBe(401);
    expect((await get(grader.token, study.id)).status).toBe(403);
    const other = await get(otherLead.token, study.id);
    expect(other).toMatchObject({ status: 404, body: { error: "study not found" } });
    expect((await get(lead.token, "not-a-uuid")).status).toBe(404);
    expect((await get(lead.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get(admin.token, study.id)).status).toBe(200);
  });

  it("returns settings and counts", async () => {
    const study = await makeStudy(lead.id, "Counts");
    await startGrading(study.id, grader.id, "grade");
    await getDb().studyMember.create({ data: { studyId: study.id, userId: grader.id, role: "GRADER" } });
    const r = await get(lead.token, study.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: study.id,
      name: "Counts",
      status: "DRAFT",
      rubrics: ["SCORE"],
      thresholds: { SCORE: DEFAULT_THRESHOLDS.SCORE },
      createdBy: { id: lead.id, name: "lead" },
      counts: {
        items: 1,
        models: 1,
        responseSets: 1,
        completeResponseSets: 1,
        graders: 1,
        activeGraders: 1,
        assignments: 1,
        submittedAssignments: 0,
      },
      gradingStarted: true,
      lockedSettings: ["rubrics", "repetitions", "gradersPerSet"],
    });
  });
});

describe("PATCH /api/v1/studies/{id}", () => {
  it("applies the role and ownership rules", async () => {
    const study = await makeStudy(lead.id, "Patch access");
    expect((await patch(null, study.id, { name: "x" })).status).toBe(401);
    expect((await patch(grader.token, study.id, { name: "x" })).status).toBe(403);
    expect((await patch(otherLead.token, study.id, { name: "x" })).status).toBe(404);
    expect((await patch(admin.token, study.id, { name: "Renamed by admin" })).status).toBe(200);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: study.id } })).name).toBe("Renamed by admin");
  });

  it("changes settings, merges thresholds over the current ones and audits before/after of what changed", async () => {
    const id = (await post(lead.token, { name: "Editable", rubrics: ["SCORE"], thresholds: { SCORE: { safety: 1 } } })).body.id as string;
    const r = await patch(lead.token, id, {
      name: "Edited",
      rubrics: ["SCORE", "SAFE_LLM"],
      repetitions: 4,
      gradersPerSet: 1,
      thresholds: { SCORE: { objectivity: 3 } },
      matchSpecialty: true,
      description: "",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: "Edited",
      rubrics: ["SCORE", "SAFE_LLM"],
      repetitions: 4,
      gradersPerSet: 1,
      matchSpecialty: true,
      // New rubrics bring their own thresholds; the patch applies over them.
      thresholds: { SCORE: { ...DEFAULT_THRESHOLDS.SCORE, objectivity: 3 }, SAFE_LLM: DEFAULT_THRESHOLDS.SAFE_LLM },
    });

    const events = await getDb().auditEvent.findMany({ where: { studyId: id, action: "study.update" } });
    expect(events).toHaveLength(1);
    expect(events[0].actorId).toBe(lead.id);
    // description was sent unchanged, so it is not part of the change.
    // The rubrics are audited as the documents they were and became.
    expect(events[0].before).toEqual({
      name: "Editable",
      rubrics: templateRubrics(["SCORE"]),
      repetitions: 3,
      gradersPerSet: 2,
      thresholds: { SCORE: { ...DEFAULT_THRESHOLDS.SCORE, safety: 1 } },
      matchSpecialty: false,
    });
    expect(events[0].after).toEqual({
      name: "Edited",
      rubrics: templateRubrics(["SCORE", "SAFE_LLM"]),
      repetitions: 4,
      gradersPerSet: 1,
      thresholds: { SCORE: { ...DEFAULT_THRESHOLDS.SCORE, objectivity: 3 }, SAFE_LLM: DEFAULT_THRESHOLDS.SAFE_LLM },
      matchSpecialty: true,
    });

    // Sending the same values again changes nothing and writes no event.
    expect((await patch(lead.token, id, { name: "Edited", repetitions: 4 })).status).toBe(200);
    expect(await getDb().auditEvent.count({ where: { studyId: id, action: "study.update" } })).toBe(1);
  });

  it("answers 422 to an empty, unknown or invalid patch", async () => {
    const study = await makeStudy(lead.id, "Invalid patch");
    expect((await patch(lead.token, study.id, {})).body.details).toEqual([
      { path: "", message: "nothing to change: send at least one setting or a status" },
    ]);
    const r = await patch(lead.token, study.id, { status: "DRAFT", repetitions: 0, thresholds: { SAFE_LLM: { accuracy: 0 } } });
    expect(r.status).toBe(422);
    expect(detailsPaths(r.body).sort()).toEqual(["repetitions", "status", "thresholds.SAFE_LLM.accuracy"]);
    expect((await patch(lead.token, study.id, { slug: "mine" })).status).toBe(422);
  });

  for (const how of ["grade", "submitted"] as const) {
    it(`locks rubrics, repetitions and lowering k once grading has started (${how === "grade" ? "a grade exists" : "an assignment is submitted"})`, async () => {
      const id = (await post(lead.token, { name: `Locked ${how}`, rubrics: ["SCORE"], gradersPerSet: 3 })).body.id as string;
      // Before grading, everything may change.
      expect((await patch(lead.token, id, { repetitions: 3, rubrics: ["SCORE"] })).status).toBe(200);
      await startGrading(id, grader.id, how);

      const r = await patch(lead.token, id, { rubrics: ["SCORE", "SAFE_LLM"], repetitions: 5, gradersPerSet: 2, name: "Not applied" });
      expect(r.status).toBe(409);
      expect(r.body.error).toMatch(new RegExp(`^grading has started in "Locked ${how}", so these settings are locked: rubrics \\(.+\\), repetitions \\(.+\\), gradersPerSet \\(k cannot be lowered`));
      expect(r.body.details).toEqual({ locked: ["rubrics", "repetitions", "gradersPerSet"] });
      const unchanged = await getDb().study.findUniqueOrThrow({ where: { id } });
      expect(unchanged).toMatchObject({ name: `Locked ${how}`, rubrics: templateRubrics(["SCORE"]), repetitions: 3, gradersPerSet: 3 });

      expect((await patch(lead.token, id, { repetitions: 2 })).body.details).toEqual({ locked: ["repetitions"] });
      // Raising k, the same values, and settings that do not change a grade's meaning are still allowed.
      const ok = await patch(lead.token, id, {
        gradersPerSet: 4,
        rubrics: ["SCORE"],
        repetitions: 3,
        name: "Renamed",
        thresholds: { SCORE: { safety: 1 } },
        showReferenceAnswer: false,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ gradersPerSet: 4, name: "Renamed", showReferenceAnswer: false, gradingStarted: true });
    });
  }

  it("moves DRAFT→OPEN→CLOSED→OPEN, refuses other transitions with 409, and audits each one", async () => {
    const id = (await post(lead.token, { name: "Lifecycle", rubrics: ["SCORE"] })).body.id as string;
    const db = getDb();

    const draftToClosed = await patch(lead.token, id, { status: "CLOSED" });
    expect(draftToClosed.status).toBe(409);
    expect(draftToClosed.body.error).toMatch(/a DRAFT study cannot become CLOSED/);

    const opened = await patch(lead.token, id, { status: "OPEN" });
    expect(opened.status).toBe(200);
    expect(opened.body.status).toBe("OPEN");
    expect(opened.body.openedAt).toEqual(expect.any(String));
    expect(opened.body.closedAt).toBeNull();

    expect(await patch(lead.token, id, { status: "OPEN" })).toMatchObject({ status: 409, body: { error: "the study is already OPEN" } });

    const closed = await patch(lead.token, id, { status: "CLOSED" });
    expect(closed.body).toMatchObject({ status: "CLOSED", closedAt: expect.any(String) });

    // A settings change and a status change in one request: both land, each with its own event.
    const reopened = await patch(lead.token, id, { status: "OPEN", name: "Lifecycle (reopened)" });
    expect(reopened.body).toMatchObject({ status: "OPEN", name: "Lifecycle (reopened)", closedAt: null });
    expect(new Date(reopened.body.openedAt as string).getTime()).toBeGreaterThanOrEqual(new Date(opened.body.openedAt as string).getTime());

    const events = await db.auditEvent.findMany({ where: { studyId: id, action: { startsWith: "study." } }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["study.create", "study.open", "study.close", "study.update", "study.reopen"]);
    const reopen = events.at(-1)!;
    expect(reopen.before).toMatchObject({ status: "CLOSED", closedAt: expect.any(String) });
    expect(reopen.after).toMatchObject({ status: "OPEN", closedAt: null });
    expect(events[1].before).toMatchObject({ status: "DRAFT", openedAt: null });
    expect(events[1].after).toMatchObject({ status: "OPEN", openedAt: expect.any(String) });

    // A refused transition changes nothing, the settings in the same request included.
    const refused = await patch(lead.token, id, { status: "OPEN", name: "never" });
    expect(refused.status).toBe(409);
    expect((await db.study.findUniqueOrThrow({ where: { id } })).name).toBe("Lifecycle (reopened)");
  });
});
