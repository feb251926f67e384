import { beforeAll, describe, expect, it } from "vitest";
import { PUT as gradesRoute } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as assignmentRoute } from "@/app/api/v1/assignments/[id]/route";
import { POST as assignRoute } from "@/app/api/v1/escalations/[id]/assign/route";
import { GET as meRoute } from "@/app/api/v1/me/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { DELETE as removeGraderRoute } from "@/app/api/v1/studies/[id]/graders/[userId]/route";
import { POST as addGraderRoute } from "@/app/api/v1/studies/[id]/graders/route";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { GET as itemsRoute } from "@/app/api/v1/studies/[id]/items/route";
import { PATCH as patchStudyRoute } from "@/app/api/v1/studies/[id]/route";
import { GET as setsRoute } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as listStudiesRoute, POST as createStudyRoute } from "@/app/api/v1/studies/route";
import { PATCH as patchUserRoute } from "@/app/api/v1/users/[id]/route";
import { POST as createUserRoute } from "@/app/api/v1/users/route";
import { assignGraders } from "@/lib/assignment/service";
import { authOptions } from "@/lib/auth/options";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { userFromHeaders } from "@/lib/server/current-user";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

/** Ids that looked like uuids to the old checks (/^[0-9a-f-]{36}$/) and made PostgreSQL fail the query. */
const NOT_UUIDS = ["-".repeat(36), "0123456789abcdef0123456789abcdef----", "ffffffff-ffff-ffff-ffff-fffffffffffg", "\u0000"];

const json = (token: string, method: string, body: unknown) => bearer(token, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

let f: Awaited<ReturnType<typeof makeGradableStudy>>;
let admin: Awaited<ReturnType<typeof makeUser>>;
let open: { id: string; graderId: string };
let graderToken: string;
let escalationId: string;

beforeAll(async () => {
  f = await makeGradableStudy({ items: 2, models: 1, n: 2, graders: 2, rubrics: ["SCORE"] });
  await assignGraders(f.study.id, {}, f.lead.id);
  const [a1, a2] = await getDb().assignment.findMany({ where: { responseSetId: f.sets[0].id }, orderBy: { graderId: "asc" } });
  await saveGrades(a1.graderId, a1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
  await saveGrades(a2.graderId, a2.id, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true });
  escalationId = (await getDb().escalation.findFirstOrThrow({ where: { responseSetId: f.sets[0].id } })).id;
  open = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[1].id } });
  graderToken = f.graders.find((g) => g.id === open.graderId)!.token;
  admin = await makeUser("ADMIN");
});

describe("control characters and unpaired surrogates are a 422 naming the field, never a 500", () => {
  it("in a study's name and description (and nothing changes)", async () => {
    const patch = (body: unknown) => call(patchStudyRoute, `/api/v1/studies/${f.study.id}`, json(f.lead.token, "PATCH", body), { id: f.study.id });
    for (const [body, path] of [
      [{ name: "Eyes\u0000" }, "name"],
      [{ name: "two\nlines" }, "name"],
      [{ description: "bell\u0007" }, "description"],
      [{ description: "\uD83D alone" }, "description"],
    ] as const) {
      const r = await patch(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.details).toEqual([expect.objectContaining({ path })]);
    }
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).name).toBe(f.study.name);
    const ok = await patch({ description: "multi-line\n\twith a tab 😷" });
    expect(ok.status).toBe(200);
    const created = await call(createStudyRoute, "/api/v1/studies", json(f.lead.token, "POST", { name: "x\u0085", rubrics: ["SCORE"] }));
    expect(created.status).toBe(422);
    expect(created.body.details).toEqual([{ path: "name", message: "name contains the control character U+0085 at character 2 (only tab and line breaks are allowed)" }]);
  });

  it("in a grade comment, and the draft is not half-saved", async () => {
    const scores = form({ score: [3, 3, 3, 3, 3] });
    const r = await call(
      gradesRoute,
      `/api/v1/assignments/${open.id}/grades`,
      json(graderToken, "PUT", { scores: scores.map((s, i) => (i === 2 ? { ...s, comment: "see\u0000this" } : s)), submit: false }),
      { id: open.id },
    );
    expect(r.status).toBe(422);
    expect(r.body.details).toEqual([expect.objectContaining({ path: "scores.2.comment" })]);
    expect(await getDb().grade.count({ where: { assignmentId: open.id } })).toBe(0);
  });

  it("in an account's or a grader's fields", async () => {
    const user = await call(createUserRoute, "/api/v1/users", json(admin.token, "POST", { email: "u@x.org", name: "\uDC00", role: "GRADER", password: "a-long-test-password" }));
    expect(user.status).toBe(422);
    expect(user.body.details).toEqual([expect.objectContaining({ path: "name" })]);
    const grader = await call(
      addGraderRoute,
      `/api/v1/studies/${f.study.id}/graders`,
      json(f.lead.token, "POST", { email: "new\u0000@x.org", name: "New", specialties: ["Cardio\u001Blogy"] }),
      { id: f.study.id },
    );
    expect(grader.status).toBe(422);
    expect((grader.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(["email", "specialties.0"]);
    expect(await getDb().user.count({ where: { email: { startsWith: "new" } } })).toBe(0);
  });

  it("in query parameters, named, on every route (the shared guard) and in the table filters", async () => {
    const get = (handler: typeof itemsRoute, url: string) => call(handler, url, bearer(f.lead.token), { id: f.study.id });
    const items = await get(itemsRoute, `/api/v1/studies/${f.study.id}/items?specialty=%C2%85&q=ok`);
    expect(items.status).toBe(422);
    expect(items.body.details).toEqual([{ path: "specialty", message: "specialty contains the control character U+0085 at character 1" }]);
    const studies = await call(listStudiesRoute, "/api/v1/studies?q=%00", bearer(f.lead.token));
    expect(studies.status).toBe(422);
    expect(studies.body.details).toEqual([expect.objectContaining({ path: "q" })]);
    const unknown = await get(itemsRoute, `/api/v1/studies/${f.study.id}/items?a%00b=1`);
    expect(unknown.status).toBe(422);
    // The sets cursor is opaque base64: what it decodes to obeys the same rule.
    const cursor = Buffer.from(JSON.stringify(["Q\u00001", "m"])).toString("base64url");
    const sets = await get(setsRoute, `/api/v1/studies/${f.study.id}/sets?cursor=${cursor}`);
    expect(sets.status).toBe(422);
    expect(sets.body.details).toEqual([expect.objectContaining({ path: "cursor" })]);
  });

  it("in an import file: listed as the row's problem, nothing imported", async () => {
    const study = await makeStudy(f.lead.id);
    const header = "item_id,specialty,question,reference_answer,model,repetition,response";
    const csv = await call(
      importRoute,
      `/api/v1/studies/${study.id}/import`,
      bearer(f.lead.token, { method: "POST", headers: { "content-type": "text/csv" }, body: `${header}\nQ1,Eyes,"Why\u0000?",ref,m,1,answer\n` }),
      { id: study.id },
    );
    expect(csv.status).toBe(422);
    expect(csv.body.details).toEqual({
      errors: [{ row: 1, line: 2, column: "question", message: "question contains the control character U+0000 at character 4 (only tab and line breaks are allowed)" }],
      total: 1,
    });
    const rows = [{ item_id: "Q1", specialty: "Eyes", question: "Why?", reference_answer: "ref", model: "m\uD800", repetition: 1, response: "answer" }];
    const fromJson = await call(
      importRoute,
      `/api/v1/studies/${study.id}/import`,
      bearer(f.lead.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(rows) }),
      { id: study.id },
    );
    expect(fromJson.status).toBe(422);
    expect(fromJson.body.details).toMatchObject({ errors: [{ row: 1, column: "model", message: expect.stringContaining("unpaired surrogate U+D800") }] });
    expect(await getDb().qaItem.count({ where: { studyId: study.id } })).toBe(0);
  });

  it("at sign-in: wrong credentials, not an error whose message reaches the redirect URL", async () => {
    const { options } = authOptions.providers[0] as unknown as { options: { authorize: (c: unknown, req: unknown) => Promise<unknown> } };
    for (const email of [`${f.lead.email}\u0000`, "\u0000", "a\uD800@x.org", `${f.lead.email}\u0085`]) {
      await expect(options.authorize({ email, password: "a-long-test-password" }, { headers: {} }), JSON.stringify(email)).resolves.toBeNull();
    }
    await expect(options.authorize({ email: f.lead.email, password: "a-long-test-password" }, { headers: {} })).resolves.toMatchObject({ id: f.lead.id });
  });
});

describe("ids that are not uuids are 404", () => {
  it.each(NOT_UUIDS)("%j in every id of a path", async (bad) => {
    const patchUser = await call(patchUserRoute, `/api/v1/users/x`, json(admin.token, "PATCH", { active: false }), { id: bad });
    expect(patchUser.status).toBe(404);
    const assign = await call(assignRoute, `/api/v1/escalations/x/assign`, json(f.lead.token, "POST", { graderId: f.graders[0].id }), { id: bad });
    expect(assign.status).toBe(404);
    const remove = await call(removeGraderRoute, `/api/v1/studies/x/graders/y`, bearer(f.lead.token, { method: "DELETE" }), { id: f.study.id, userId: bad });
    expect(remove.status).toBe(404);
    expect((await call(assignmentRoute, `/api/v1/assignments/x`, bearer(graderToken), { id: bad })).status).toBe(404);
    expect((await call(itemsRoute, `/api/v1/studies/x/items`, bearer(f.lead.token), { id: bad })).status).toBe(404);
  });

  it("and the real ids still work", async () => {
    expect((await call(assignRoute, `/api/v1/escalations/x/assign`, json(f.lead.token, "POST", { graderId: "nope" }), { id: escalationId })).status).toBe(422);
    expect((await call(patchUserRoute, `/api/v1/users/x`, json(admin.token, "PATCH", { active: true }), { id: f.graders[0].id })).status).toBe(200);
  });
});

describe("a malformed session cookie means nobody is signed in", () => {
  it.each(["%", "%E0%A4%A", "abc%zz", "%%%"])("%j", async (value) => {
    const headers = new Headers({ cookie: `other=1; next-auth.session-token=${value}` });
    await expect(userFromHeaders(headers)).resolves.toBeNull();
    const res = await call(meRoute, "/api/v1/me", { headers });
    expect(res.status).toBe(401);
  });
});

describe("CSV exports quote a field holding a semicolon or a tab", () => {
  it("in the grades (written by PostgreSQL) and the sets (written by the app)", async () => {
    const model = "Zeta;=HYPERLINK(1)\t@x";
    await getDb().llmModel.update({ where: { id: f.models[0].id }, data: { name: model } });
    const get = async (dataset: string) => {
      const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${f.study.id}/export?dataset=${dataset}&format=csv`, bearer(f.lead.token)), {
        params: Promise.resolve({ id: f.study.id }),
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const grades = await get("grades");
    expect(grades).toContain(`,"${model}",`);
    expect(grades).not.toContain(`,${model}`);
    const sets = await get("sets");
    expect(sets).toContain(`,"${model}",`);
    expect(sets).not.toContain(`,${model}`);
  });
});
