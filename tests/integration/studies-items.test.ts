import { beforeAll, describe, expect, it } from "vitest";
import { GET as listItems } from "@/app/api/v1/studies/[id]/items/route";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

type User = Awaited<ReturnType<typeof makeUser>>;
interface Row {
  id: string;
  externalId: string;
  specialty: string;
  question: string;
  models: { model: string; repetitions: number }[];
  complete: boolean;
}

const N = 3;
const COUNT = 200;
const SPECIALTIES = ["Ophthalmology", "Medication", "Anesthesia"];

/**
 * The fixture, as rules the expectations are computed from: 200 items over
 * three specialties; model "alpha" answers every item but only twice for
 * every 7th; model "beta" skips every 5th item and answers a 4th time (beyond
 * N, which must not count) for every 11th.
 */
const fixture = Array.from({ length: COUNT }, (_, i) => ({
  externalId: `Q-${String(i).padStart(3, "0")}`,
  specialty: SPECIALTIES[i % 3],
  question: i % 50 === 0 ? `Question ${i}: is dose_max safe?` : `Question ${i}: which dose is safe?`,
  alpha: i % 7 === 0 ? 2 : 3,
  beta: i % 5 === 0 ? 0 : i % 11 === 0 ? 4 : 3,
}));
const isComplete = (f: (typeof fixture)[number]) => f.alpha >= N && f.beta >= N;

let lead: User, otherLead: User, admin: User, grader: User;
let studyId: string;

const get = (token: string | null, query = "", id = studyId) => {
  const init: RequestInit = { method: "GET" };
  return call(listItems, `/api/v1/studies/${id}/items${query}`, token ? bearer(token, init) : init, { id });
};
const rowsOf = (body: Record<string, unknown>) => body.items as Row[];
const ids = (body: Record<string, unknown>) => rowsOf(body).map((r) => r.externalId);

beforeAll(async () => {
  [lead, otherLead, admin, grader] = await Promise.all([makeUser("LEAD", "lead"), makeUser("LEAD", "other"), makeUser("ADMIN"), makeUser("GRADER")]);
  studyId = (await makeStudy(lead.id, "Items")).id;
  const db = getDb();
  const specialtyIds = new Map<string, string>();
  for (const name of SPECIALTIES) specialtyIds.set(name, (await db.specialty.create({ data: { name } })).id);
  const alpha = await db.llmModel.create({ data: { studyId, name: "alpha" } });
  const beta = await db.llmModel.create({ data: { studyId, name: "beta" } });
  await db.qaItem.createMany({
    data: fixture.map((f) => ({ studyId, externalId: f.externalId, question: f.question, specialtyId: specialtyIds.get(f.specialty)! })),
  });
  const items = new Map((await db.qaItem.findMany({ where: { studyId }, select: { id: true, externalId: true } })).map((i) => [i.externalId, i.id]));
  const sets = fixture.flatMap((f) => [
    { studyId, itemId: items.get(f.externalId)!, modelId: alpha.id, reps: f.alpha },
    ...(f.beta ? [{ studyId, itemId: items.get(f.externalId)!, modelId: beta.id, reps: f.beta }] : []),
  ]);
  await db.responseSet.createMany({ data: sets.map(({ reps: _reps, ...s }) => s) });
  const setIds = new Map((await db.responseSet.findMany({ where: { studyId } })).map((s) => [`${s.itemId}:${s.modelId}`, s.id]));
  await db.response.createMany({
    data: sets.flatMap((s) =>
      Array.from({ length: s.reps }, (_, r) => ({ responseSetId: setIds.get(`${s.itemId}:${s.modelId}`)!, repetition: r + 1, text: `answer ${r + 1}` })),
    ),
  });
});

describe("GET /api/v1/studies/{id}/items", () => {
  it("applies the role and ownership rules", async () => {
    expect((await get(null)).status).toBe(401);
    expect((await get(grader.token)).status).toBe(403);
    expect((await get(otherLead.token)).status).toBe(404);
    expect((await get(lead.token, "", "11111111-1111-4111-8111-111111111111")).status).toBe(404);
    expect((await get(admin.token)).status).toBe(200);
  });

  it("pages by externalId by default, and the pages cover every item exactly once", async () => {
    const first = await get(lead.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: COUNT, page: 1, pageSize: 50, repetitions: N });
    expect(ids(first.body)).toEqual(fixture.slice(0, 50).map((f) => f.externalId));

    const seen: string[] = [];
    for (let page = 1; page <= 7; page++) seen.push(...ids((await get(lead.token, `?pageSize=30&page=${page}`)).body));
    expect(seen).toEqual(fixture.map((f) => f.externalId));
    expect(rowsOf((await get(lead.token, "?pageSize=30&page=8")).body)).toEqual([]);

    const desc = await get(lead.token, "?sort=-externalId&pageSize=3");
    expect(ids(desc.body)).toEqual(["Q-199", "Q-198", "Q-197"]);
  });

  it("reports each model's answers among repetitions 1..N and whether the item is complete", async () => {
    const body = (await get(lead.token, "?pageSize=100")).body;
    for (const row of rowsOf(body)) {
      const f = fixture.find((x) => x.externalId === row.externalId)!;
      expect(row.specialty).toBe(f.specialty);
      expect(row.question).toBe(f.question);
      expect(row.models.map((m) => [m.model, m.repetitions])).toEqual([
        ["alpha", Math.min(f.alpha, N)],
        ["beta", Math.min(f.beta, N)],
      ]);
      expect(row.complete).toBe(isComplete(f));
    }
  });

  it("filters by completeness, specialty and text, together with the total", async () => {
    const complete = fixture.filter(isComplete);
    const yes = await get(lead.token, "?complete=true&pageSize=100&page=2");
    expect(yes.body.total).toBe(complete.length);
    expect(ids(yes.body)).toEqual(complete.slice(100, 200).map((f) => f.externalId));
    expect((await get(lead.token, "?complete=false")).body.total).toBe(COUNT - complete.length);

    const medication = await get(lead.token, "?specialty=Medication&pageSize=100");
    expect(medication.body.total).toBe(fixture.filter((f) => f.specialty === "Medication").length);
    expect(new Set(rowsOf(medication.body).map((r) => r.specialty))).toEqual(new Set(["Medication"]));
    expect((await get(lead.token, "?specialty=Dermatology")).body.total).toBe(0);

    // The search text is literal: "_" is not a LIKE wildcard here.
    expect(ids((await get(lead.token, "?q=DOSE_MAX")).body)).toEqual(["Q-000", "Q-050", "Q-100", "Q-150"]);
    expect(ids((await get(lead.token, "?q=_")).body)).toEqual(["Q-000", "Q-050", "Q-100", "Q-150"]);
    expect((await get(lead.token, "?q=Q-01")).body.total).toBe(10);

    const combined = fixture.filter((f) => f.specialty === "Anesthesia" && !isComplete(f) && f.question.includes("which"));
    const r = await get(lead.token, "?specialty=Anesthesia&complete=false&q=which&pageSize=100");
    expect(ids(r.body)).toEqual(combined.map((f) => f.externalId));
  });

  it("sorts by specialty, question and completeness in SQL, ties broken by externalId", async () => {
    const bySpecialty = await get(lead.token, "?sort=specialty&pageSize=100");
    const expected = [...fixture].sort((a, b) => a.specialty.localeCompare(b.specialty) || a.externalId.localeCompare(b.externalId));
    expect(ids(bySpecialty.body)).toEqual(expected.slice(0, 100).map((f) => f.externalId));

    const completeFirst = await get(lead.token, "?sort=-complete&pageSize=100");
    const ordered = [...fixture.filter(isComplete), ...fixture.filter((f) => !isComplete(f))];
    expect(ids(completeFirst.body)).toEqual(ordered.slice(0, 100).map((f) => f.externalId));
    const incompleteFirst = await get(lead.token, "?sort=complete&pageSize=5");
    expect(rowsOf(incompleteFirst.body).every((r) => !r.complete)).toBe(true);

    const byQuestion = await get(lead.token, "?sort=question&pageSize=1");
    expect(ids(byQuestion.body)).toEqual(["Q-000"]);
  });

  it("answers 422 naming each bad query parameter", async () => {
    const r = await get(lead.token, "?pageSize=1000&complete=maybe&sort=model&page=0");
    expect(r.status).toBe(422);
    expect((r.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(["complete", "page", "pageSize", "sort"]);
  });

  it("treats an item of a study without models as incomplete", async () => {
    const empty = (await makeStudy(lead.id, "No models")).id;
    const db = getDb();
    const specialty = await db.specialty.findFirstOrThrow();
    await db.qaItem.create({ data: { studyId: empty, externalId: "only", question: "q", specialtyId: specialty.id } });
    const r = await get(lead.token, "", empty);
    expect(rowsOf(r.body)).toEqual([expect.objectContaining({ externalId: "only", models: [], complete: false })]);
    expect((await get(lead.token, "?complete=true", empty)).body.total).toBe(0);
  });
});
