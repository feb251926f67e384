import { describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { DEMO_STUDY_SLUG, DEMO_USERS, seedDemo } from "@/lib/demo/seed";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

async function counts() {
  const db = getDb();
  return {
    users: await db.user.count(),
    studies: await db.study.count(),
    items: await db.qaItem.count(),
    models: await db.llmModel.count(),
    sets: await db.responseSet.count(),
    responses: await db.response.count(),
    members: await db.studyMember.count(),
  };
}

describe("the demo seed", () => {
  it("creates a realistic open study once, even when two starts seed at the same moment; re-running adds nothing", async () => {
    const both = await Promise.all([seedDemo(), seedDemo()]);
    expect(both.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(both.map((r) => r.studyId)).size).toBe(1);
    const first = both.find((r) => r.created)!;
    const after = await counts();
    expect(after).toEqual({ users: 6, studies: 1, items: 15, models: 3, sets: 45, responses: 135, members: 5 });

    const second = await seedDemo();
    expect(second).toEqual({ created: false, studyId: first.studyId });
    expect(await counts()).toEqual(after);

    const study = await getDb().study.findUniqueOrThrow({ where: { slug: DEMO_STUDY_SLUG }, include: { items: { include: { specialty: true } } } });
    expect(study).toMatchObject({ status: "OPEN", repetitions: 3, gradersPerSet: 2, rubrics: ["SCORE", "SAFE_LLM"] });
    const perSpecialty: Record<string, number> = {};
    for (const i of study.items) perSpecialty[i.specialty.name] = (perSpecialty[i.specialty.name] ?? 0) + 1;
    expect(perSpecialty).toEqual({ Ophthalmology: 5, Medication: 5, Anesthesia: 5 });
    expect(study.items.every((i) => i.referenceAnswer.length > 50)).toBe(true);
  });

  it("prints credentials that actually sign in, one lead and four graders", async () => {
    await seedDemo();
    expect(DEMO_USERS.filter((u) => u.role === "LEAD")).toHaveLength(1);
    expect(DEMO_USERS.filter((u) => u.role === "GRADER")).toHaveLength(4);
    for (const u of DEMO_USERS) {
      const r = await authenticate({ email: u.email, password: u.password, ip: "127.0.0.1" });
      expect(r.ok, u.email).toBe(true);
    }
  });
});
