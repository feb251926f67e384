import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/login";
import { getDb } from "@/lib/db/client";
import { DEMO_STUDY_SLUG, DEMO_USERS, PILOT_STUDY_SLUG, seedDemo } from "@/lib/demo/seed";
import { CHATTOGOVAR_ATTRIBUTION, CHATTOGOVAR_STUDY_SLUG } from "@/lib/demo/chattogovar";
import { loadStudy } from "@/lib/analytics/load";
import { computeSetResults } from "@/lib/results/sets";
import { useIsolatedDatabase } from "./helpers/db";
import { bearer, call } from "./helpers/fixtures";
import { createApiToken } from "@/lib/auth/tokens";
import { metricsOf } from "@/lib/reference-metrics/compute";
import { GET as setsRoute } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as summaryRoute } from "@/app/api/v1/studies/[id]/reference-metrics/route";

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
    // the open study and the closed, graded pilot: 15 questions x 3 models x 3 answers each; then the
    // chattogovar study: 150 questions x 3 systems x 1 answer, its lead and 2 external raters
    expect(after).toEqual({ users: 12, studies: 3, items: 180, models: 9, sets: 540, responses: 720, members: 13 });

    const second = await seedDemo();
    expect(second).toEqual({ created: false, studyId: first.studyId });
    expect(await counts()).toEqual(after);

    const study = await getDb().study.findUniqueOrThrow({ where: { slug: DEMO_STUDY_SLUG }, include: { items: { include: { specialty: true } } } });
    expect(study).toMatchObject({ status: "OPEN", repetitions: 3, gradersPerSet: 2, rubrics: templateRubrics(["SCORE", "SAFE_LLM"]) });
    const perSpecialty: Record<string, number> = {};
    for (const i of study.items) perSpecialty[i.specialty.name] = (perSpecialty[i.specialty.name] ?? 0) + 1;
    expect(perSpecialty).toEqual({ Ophthalmology: 5, Medication: 5, Anesthesia: 5 });
    expect(study.items.every((i) => i.referenceAnswer.length > 50)).toBe(true);
  });

  it("gives every demo answer its reference metrics, through the sets and reference-metrics APIs", async () => {
    await seedDemo();
    const study = await getDb().study.findUniqueOrThrow({ where: { slug: DEMO_STUDY_SLUG } });
    const lead = await getDb().user.findFirstOrThrow({ where: { email: DEMO_USERS.find((u) => u.role === "LEAD")!.email } });
    const { token } = await createApiToken(lead.id, { name: "demo metrics" });
    const sets = await call(setsRoute, `/api/v1/studies/${study.id}/sets`, bearer(token), { id: study.id });
    expect(sets.status).toBe(200);
    const rows = sets.body.sets as { id: string; answers: { repetition: number; bleu: number | null; rouge1: number | null; rougeL: number | null }[] }[];
    expect(rows).toHaveLength(45);
    const stored = await getDb().response.findMany({
      where: { responseSet: { studyId: study.id } },
      select: { responseSetId: true, repetition: true, text: true, responseSet: { select: { item: { select: { referenceAnswer: true } } } } },
    });
    for (const r of stored) {
      const m = metricsOf(r.responseSet.item.referenceAnswer, r.text)!;
      const a = rows.find((s) => s.id === r.responseSetId)!.answers.find((x) => x.repetition === r.repetition)!;
      expect(a.bleu).toBeCloseTo(m.bleu, 12);
      expect(a.rouge1).toBeCloseTo(m.rouge1, 12);
      expect(a.rougeL).toBeCloseTo(m.rougeL, 12);
      expect(m.rouge1).toBeGreaterThan(0);
    }
    const summary = await call(summaryRoute, `/api/v1/studies/${study.id}/reference-metrics`, bearer(token), { id: study.id });
    const perModel = (summary.body.rows as { specialty: string | null; answers: number }[]).filter((r) => r.specialty === null);
    expect(perModel).toHaveLength(3);
    expect(perModel.every((r) => r.answers === 45)).toBe(true);
  });

  it("fills the demo graders' queues on the open study, and leaves a finished pilot for the lead", async () => {
    const db = getDb();
    const main = await db.study.findUniqueOrThrow({ where: { slug: DEMO_STUDY_SLUG } });
    const perGrader = await db.assignment.groupBy({ by: ["graderId"], where: { responseSet: { studyId: main.id } }, _count: { _all: true } });
    expect(perGrader).toHaveLength(4);
    expect(perGrader.reduce((s, g) => s + g._count._all, 0)).toBe(90);
    expect(Math.max(...perGrader.map((g) => g._count._all)) - Math.min(...perGrader.map((g) => g._count._all))).toBeLessThanOrEqual(1);
    expect(await db.grade.count({ where: { assignment: { responseSet: { studyId: main.id } } } })).toBe(0);

    const pilot = await db.study.findUniqueOrThrow({ where: { slug: PILOT_STUDY_SLUG } });
    expect(pilot.status).toBe("CLOSED");
    const statuses = await db.responseSet.groupBy({ by: ["status"], where: { studyId: pilot.id }, _count: { _all: true } });
    const byStatus = Object.fromEntries(statuses.map((s) => [s.status, s._count._all]));
    expect((byStatus.AGREED ?? 0) + (byStatus.ADJUDICATED ?? 0)).toBe(45);
    expect(byStatus.ADJUDICATED).toBeGreaterThan(0); // some disagreements went to a third grader
    const results = await computeSetResults(pilot.id);
    const mean = (model: string) => {
      const xs = results.filter((r) => r.model.name === model).map((r) => r.totals!.SCORE!.total!);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    // the careful model was written to grade best, the weak one worst
    expect(mean("Claude 3.5 Sonnet")).toBeGreaterThan(mean("Llama 3 70B Instruct"));
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

  it("seeds the chattogovar study from its published data: both raters external, the lead sees it, attributed", async () => {
    await seedDemo();
    const db = getDb();
    const study = await db.study.findUniqueOrThrow({ where: { slug: CHATTOGOVAR_STUDY_SLUG }, include: { members: { include: { user: true } } } });
    expect(study.status).toBe("CLOSED");
    expect(study.description).toContain(CHATTOGOVAR_ATTRIBUTION);
    expect(study.members.filter((m) => m.role === "LEAD").map((m) => m.user.email)).toEqual(["lead@demo.clingrade.org"]);
    const raters = study.members.filter((m) => m.role === "GRADER").map((m) => m.user);
    expect(raters.map((u) => [u.name, u.externalStudyId, u.active]).sort()).toEqual([["primary", study.id, false], ["secondary", study.id, false]]);
    expect(await db.grade.count({ where: { assignment: { studyId: study.id } } })).toBe(4500);
    expect(await db.escalation.count({ where: { responseSet: { studyId: study.id } } })).toBe(0);
    const loaded = await loadStudy(study.id);
    expect(loaded!.assignments.filter((a) => a.status === "SUBMITTED")).toHaveLength(900);
    // GPT-4o's own scores beside the raters: 450 answers x 5 criteria, never a grader.
    const judges = await db.automatedJudge.findMany({ where: { studyId: study.id }, include: { _count: { select: { scores: true } } } });
    expect(judges.map((j) => [j.model, j._count.scores])).toEqual([["gpt-4o", 2250]]);
  });
});
