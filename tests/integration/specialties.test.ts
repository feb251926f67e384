import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as postGrader } from "@/app/api/v1/studies/[id]/graders/route";
import { PATCH as patchGrader } from "@/app/api/v1/studies/[id]/graders/[userId]/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb, getPool } from "@/lib/db/client";
import { importIntoStudy } from "@/lib/import/service";
import { addGrader } from "@/lib/graders/service";
import { SPECIALTY_NAMES_LOCK, specialtyIdsFor } from "@/lib/specialties/names";
import { createUser } from "@/lib/users/service";
import { useIsolatedDatabase } from "./helpers/db";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

/** Specialty names are one vocabulary whatever their case, in every path that writes them. */
describe("specialty names", () => {
  const count = (name: string) => getDb().specialty.count({ where: { name: { equals: name, mode: "insensitive" } } });

  it("a grader registered with another case of an item's specialty is matched to its items", async () => {
    // Items under "Ophthalmology" (as imported); the only grader with that specialty typed it "OPHTHALMOLOGY ".
    const f = await makeGradableStudy({ items: 1, models: 2, graders: 2, rubrics: ["SCORE"], specialties: ["Ophthalmology"], graderSpecialties: () => ["Medication"] });
    const added = await addGrader({ id: f.lead.id }, f.study.id, { email: "eye@x.org", name: "Eye", specialties: ["OPHTHALMOLOGY "], password: "a-long-enough-password-1" });
    const second = await addGrader({ id: f.lead.id }, f.study.id, { email: "eye2@x.org", name: "Eye 2", specialties: ["ophthalmology"], password: "a-long-enough-password-1" });
    expect(await count("ophthalmology")).toBe(1);
    await assignGraders(f.study.id, { matchSpecialty: true }, f.lead.id);
    const graders = new Set((await getDb().assignment.findMany({ where: { studyId: f.study.id } })).map((a) => a.graderId));
    expect(graders).toEqual(new Set([added.userId, second.userId]));
  });

  it("accounts created with several cases of one name hold it once; an unknown name is created as typed", async () => {
    const u = await createUser({ email: "c@x.org", name: "C", role: "GRADER", password: "a-long-enough-password-1", specialties: ["cardiology", "Cardiology", "Paediatric cardiology"] }, null);
    const mine = await getDb().userSpecialty.findMany({ where: { userId: u.id }, include: { specialty: true } });
    expect(mine.map((m) => m.specialty.name).sort()).toEqual(["Paediatric cardiology", "cardiology"]);
    expect(await count("cardiology")).toBe(1);
  });

  it("two transactions adding the same new name in different cases at the same moment make one specialty", async () => {
    const names = ["Dermatology", "dermatology", "DERMATOLOGY", "Dermatology "];
    const ids = await Promise.all(names.map((n) => getDb().$transaction((tx) => specialtyIdsFor(tx, [n]))));
    expect(new Set(ids.map((m) => m.get("dermatology")))).toHaveProperty("size", 1);
    expect(await count("dermatology")).toBe(1);
  });

  it("an import that brings a new name waits for a registration creating it in another case, then uses that one", async () => {
    const lead = await makeUser("LEAD");
    const study = await getDb().study.findUniqueOrThrow({ where: { id: (await makeStudy(lead.id, "Race")).id } });
    // A registration in progress: it holds the lock and has created "nephrology", not committed yet.
    const other = await getPool().connect();
    try {
      await other.query("BEGIN");
      await other.query(SPECIALTY_NAMES_LOCK);
      await other.query(`INSERT INTO "Specialty" (id, name) VALUES (gen_random_uuid(), 'nephrology')`);
      const text = "item_id,specialty,question,reference_answer,model,repetition,response\n" + [1, 2, 3].map((r) => `N1,Nephrology,Question?,Reference.,m1,${r},Answer ${r}.`).join("\n") + "\n";
      const importing = importIntoStudy({
        study,
        actorId: lead.id,
        requestId: "race",
        contentType: "text/csv",
        body: (async function* () {
          yield new TextEncoder().encode(text);
        })(),
      });
      // Long enough for the import to have read the names it knew and to be waiting for the lock.
      await new Promise((r) => setTimeout(r, 500));
      await other.query("COMMIT");
      await importing;
    } finally {
      other.release();
    }
    expect(await count("nephrology")).toBe(1);
    const item = await getDb().qaItem.findFirstOrThrow({ where: { studyId: study.id }, include: { specialty: true } });
    expect(item.specialty.name).toBe("nephrology");
  });

  it("the database itself refuses another case of an existing name, from a writer that skips the lock (Prisma's upsert by exact name)", async () => {
    await getDb().specialty.create({ data: { name: "Oncology" } });
    await expect(getDb().specialty.upsert({ where: { name: "oncology" }, create: { name: "oncology" }, update: {} })).rejects.toThrow(/Unique constraint|Specialty_name_lower_key|unique/i);
    await expect(getPool().query(`INSERT INTO "Specialty" (id, name) VALUES (gen_random_uuid(), 'ONCOLOGY')`)).rejects.toThrow(/Specialty_name_lower_key/);
    expect(await count("oncology")).toBe(1);
    // The shared path still finds it, whatever the case it is given in.
    const ids = await getDb().$transaction((tx) => specialtyIdsFor(tx, ["ONCOLOGY "]));
    expect(ids.get("oncology")).toBe((await getDb().specialty.findUniqueOrThrow({ where: { name: "Oncology" } })).id);
  });
});

/** A grader's specialties belong to a study: what one study's lead sets reaches no other study. */
describe("specialties per study", () => {
  const json = (token: string, method: string, body: unknown) => bearer(token, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const addAs = (token: string, id: string, body: unknown) => call(postGrader, "/x", json(token, "POST", body), { id });
  const patchAs = (token: string, id: string, userId: string, body: unknown) => call(patchGrader, "/x", json(token, "PATCH", body), { id, userId });
  const submit = (token: string, id: string, score: [number, number, number, number, number]) =>
    call(putGrades, "/x", bearer(token, { method: "PUT", body: JSON.stringify({ scores: form({ score }), submit: true }) }), { id });

  /** Study B: three Ophthalmology sets, matched by specialty; graders 1-2 are ophthalmologists there, 3-4 are not. */
  const studyB = () =>
    makeGradableStudy({ items: 1, models: 3, graders: 4, k: 2, rubrics: ["SCORE"], specialties: ["Ophthalmology"], graderSpecialties: (i) => (i < 2 ? ["Ophthalmology"] : []) });

  /** Assigns study B with matching, then the primaries of its first set disagree; returns who got work and the escalation. */
  async function assignAndEscalate(b: Awaited<ReturnType<typeof studyB>>) {
    await assignGraders(b.study.id, { matchSpecialty: true, seed: "per-study" }, b.lead.id);
    const assigned = await getDb().assignment.findMany({ where: { studyId: b.study.id }, orderBy: { graderId: "asc" } });
    const [p1, p2] = assigned.filter((a) => a.responseSetId === b.sets[0].id);
    const tokenOf = (graderId: string) => b.graders.find((g) => g.id === graderId)!.token;
    expect((await submit(tokenOf(p1.graderId), p1.id, [5, 5, 5, 5, 5])).status).toBe(200);
    expect((await submit(tokenOf(p2.graderId), p2.id, [1, 5, 5, 5, 5])).status).toBe(200);
    const escalation = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: b.sets[0].id } });
    const adjudicator = await getDb().assignment.findFirst({ where: { responseSetId: b.sets[0].id, kind: "ADJUDICATOR" } });
    return { graders: new Set(assigned.map((a) => a.graderId)), count: assigned.length, escalation: escalation.status, adjudicator: adjudicator?.graderId ?? null };
  }

  it("a lead of study A setting a grader's specialties changes neither specialty matching nor the choice of adjudicator in study B", async () => {
    const b = await studyB();
    const [g1, g2, g3, g4] = b.graders;
    const leadA = await makeUser("LEAD", "lead-a");
    const a = await makeStudy(leadA.id, "Study A");
    // Lead A makes graders 3 and 4 ophthalmologists (one when adding them, one afterwards) and grader 1 not.
    expect((await addAs(leadA.token, a.id, { email: g3.email, name: "x", specialties: ["Ophthalmology"] })).status).toBe(201);
    expect((await addAs(leadA.token, a.id, { email: g4.email, name: "x" })).status).toBe(201);
    expect((await patchAs(leadA.token, a.id, g4.id, { specialties: ["ophthalmology"] })).status).toBe(200);
    expect((await addAs(leadA.token, a.id, { email: g1.email, name: "x", specialties: ["Medication"] })).status).toBe(201);

    // In B only graders 1 and 2 have the items' specialty: they take all six primary assignments,
    // and no one else in B can adjudicate, so the escalation waits for the lead.
    expect(await assignAndEscalate(b)).toEqual({ graders: new Set([g1.id, g2.id]), count: 6, escalation: "NEEDS_GRADER", adjudicator: null });
    // The accounts' own lists are as the fixture made them.
    const accountOf = async (id: string) => (await getDb().userSpecialty.findMany({ where: { userId: id }, include: { specialty: true } })).map((s) => s.specialty.name);
    expect([await accountOf(g1.id), await accountOf(g3.id), await accountOf(g4.id)]).toEqual([["Ophthalmology"], [], []]);
  });

  it("matching and adjudicator choice in a study read that study's list, not the account's", async () => {
    const b = await studyB();
    const [g1, g2, g3, g4] = b.graders;
    const ophthalmology = await getDb().specialty.findUniqueOrThrow({ where: { name: "Ophthalmology" } });
    // Grader 4's account says ophthalmologist, but not in B; grader 3 is one in B only.
    await getDb().userSpecialty.create({ data: { userId: g4.id, specialtyId: ophthalmology.id } });
    expect((await patchAs(b.lead.token, b.study.id, g3.id, { specialties: ["Ophthalmology"] })).status).toBe(200);
    const run = await assignAndEscalate(b);
    expect(run.graders).toEqual(new Set([g1.id, g2.id, g3.id]));
    expect(run).toMatchObject({ count: 6, escalation: "ASSIGNED" });
    // The adjudicator is the one eligible grader of B not on the set.
    const onSet = (await getDb().assignment.findMany({ where: { responseSetId: b.sets[0].id, kind: "PRIMARY" } })).map((x) => x.graderId);
    expect(run.adjudicator).toBe([g1.id, g2.id, g3.id].find((id) => !onSet.includes(id)));
  });
});
