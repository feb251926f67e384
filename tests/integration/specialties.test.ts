import { describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { getDb, getPool } from "@/lib/db/client";
import { importIntoStudy } from "@/lib/import/service";
import { addGrader } from "@/lib/graders/service";
import { SPECIALTY_NAMES_LOCK, specialtyIdsFor } from "@/lib/specialties/names";
import { createUser } from "@/lib/users/service";
import { useIsolatedDatabase } from "./helpers/db";
import { makeStudy, makeUser } from "./helpers/fixtures";
import { makeGradableStudy } from "./helpers/study-fixture";

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
