import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { hashPassword } from "@/lib/auth/password";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { assignGraders } from "@/lib/assignment/service";
import { saveGrades } from "@/lib/grading/service";
import { ApiError } from "@/lib/errors/api-error";
import { DEMO_ITEMS, DEMO_MODELS, DEMO_STUDY } from "./content";
import { harmFor, simulatedForm } from "./pilot";
import { seedChattogovar } from "./chattogovar";
import { metricsOf, statsArray } from "@/lib/reference-metrics/compute";
import { specialtyIdsFor, specialtyKey } from "@/lib/specialties/names";
import { copyAccountSpecialties } from "@/lib/graders/specialties";

/** The demo's people. Passwords are printed at every start: this is a demo, not a deployment. */
export const DEMO_USERS = [
  { email: "admin@demo.clingrade.org", name: "Ada Admin", role: "ADMIN", password: "demo-admin-2026", specialties: [] },
  { email: "lead@demo.clingrade.org", name: "Dr. Lena Ortiz", role: "LEAD", password: "demo-lead-2026", specialties: [] },
  { email: "grader1@demo.clingrade.org", name: "Dr. Amir Haddad", role: "GRADER", password: "demo-grader1-2026", specialties: ["Ophthalmology"] },
  { email: "grader2@demo.clingrade.org", name: "Dr. Sofia Keller", role: "GRADER", password: "demo-grader2-2026", specialties: ["Medication"] },
  { email: "grader3@demo.clingrade.org", name: "Dr. Tomás Rivera", role: "GRADER", password: "demo-grader3-2026", specialties: ["Anesthesia"] },
  { email: "grader4@demo.clingrade.org", name: "Dr. Mei Tanaka", role: "GRADER", password: "demo-grader4-2026", specialties: ["Ophthalmology", "Anesthesia", "Medication"] },
] as const;

/** Graders of the closed pilot, kept apart so the demo graders' queues hold only the open study. */
export const PILOT_GRADERS = [1, 2, 3, 4].map((i) => ({
  email: `pilot${i}@demo.clingrade.org`,
  name: ["Dr. Ines Duarte", "Dr. Kwame Mensah", "Dr. Hannah Berg", "Dr. Ravi Iyer"][i - 1],
  role: "GRADER" as const,
  password: `demo-pilot${i}-2026`,
  specialties: ["Ophthalmology", "Medication", "Anesthesia"],
}));

export const DEMO_STUDY_SLUG = "demo-clinical-qa";
export const PILOT_STUDY_SLUG = "demo-pilot-graded";

type DemoUser = { email: string; name: string; role: "ADMIN" | "LEAD" | "GRADER"; password: string; specialties: readonly string[] };

/**
 * Seeds the demo once: the open study (with graders assigned, so their queues
 * are filled) and a closed pilot graded by four other clinicians (so the lead
 * sees finished dashboards, adjudicated escalations and exports). Users are
 * created only if missing (their passwords are never reset); each study only if
 * its slug is absent, in one transaction, so a crash leaves nothing half-written.
 * Re-running adds nothing; an interrupted pilot grading is resumed. Then the
 * chattogovar study from real published data (chattogovar.ts).
 */
export async function seedDemo(): Promise<{ created: boolean; studyId: string }> {
  const main = await ensureStudy(DEMO_STUDY_SLUG, DEMO_STUDY.name, DEMO_STUDY.description, [...DEMO_USERS]);
  const db = getDb();
  const lead = await db.user.findUniqueOrThrow({ where: { email: "lead@demo.clingrade.org" } });
  if ((await db.assignment.count({ where: { studyId: main.studyId } })) === 0) {
    await assignGraders(main.studyId, { seed: "demo-2026" }, lead.id);
  }
  const pilot = await ensureStudy(
    PILOT_STUDY_SLUG,
    "Pilot (closed): the same 15 questions, graded",
    "A finished pilot round on the same questions and answers, graded by four clinicians with escalation to a third grader. Open its dashboard and exports to see what a completed study gives.",
    [DEMO_USERS[1], ...PILOT_GRADERS],
  );
  await gradePilot(pilot.studyId, lead.id);
  await seedChattogovar(lead.id);
  return main;
}

async function ensureStudy(slug: string, name: string, description: string, users: DemoUser[]): Promise<{ created: boolean; studyId: string }> {
  const db = getDb();
  const existing = await db.study.findUnique({ where: { slug }, select: { id: true } });
  if (existing) return { created: false, studyId: existing.id };
  const hashes = await Promise.all(users.map((u) => hashPassword(u.password)));
  try {
    return { created: true, studyId: await createStudyFromContent(slug, name, description, users, hashes) };
  } catch (err) {
    // Another process seeded at the same moment: its study won the unique slug.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const winner = await db.study.findUnique({ where: { slug }, select: { id: true } });
      if (winner) return { created: false, studyId: winner.id };
    }
    throw err;
  }
}

/** Grades every open assignment of the pilot with the simulated clinicians, adjudications included, then closes it. */
async function gradePilot(studyId: string, leadId: string) {
  const db = getDb();
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId } });
  if (study.status === "CLOSED") return;
  if ((await db.assignment.count({ where: { studyId } })) === 0) await assignGraders(studyId, { seed: "pilot-2026" }, leadId);
  const modelKey = new Map(DEMO_MODELS.map((m) => [m.name, m.key]));
  // Adjudications appear as primaries are submitted: loop until nothing is left to grade.
  for (let round = 0; round < 5; round++) {
    const open = await db.assignment.findMany({
      where: { studyId, status: { in: ["PENDING", "IN_PROGRESS"] } },
      orderBy: [{ kind: "asc" }, { position: "asc" }],
      select: { id: true, graderId: true, responseSet: { select: { item: { select: { externalId: true } }, model: { select: { name: true } } } } },
    });
    if (open.length === 0) break;
    for (const a of open) {
      const scores = simulatedForm(a.responseSet.item.externalId, modelKey.get(a.responseSet.model.name) ?? "", a.graderId, study.repetitions);
      try {
        await saveGrades(a.graderId, a.id, { scores, harm: harmFor(scores), submit: true, elapsedMs: 60_000 + (a.id.charCodeAt(0) % 7) * 20_000 });
      } catch (err) {
        // Two starts seeding at once grade the same pilot (the same forms, so either
        // save is the same grade); the one that finishes first closes it, and the
        // other's next save is refused as "closed": the pilot is done.
        if (err instanceof ApiError && err.status === 409) return;
        throw err;
      }
    }
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.study.updateMany({ where: { id: studyId, status: "OPEN" }, data: { status: "CLOSED", closedAt: new Date() } });
    if (count === 0) return; // closed by a concurrent start
    await recordAudit(tx, { actorId: leadId, action: "study.status", entityType: "Study", entityId: studyId, studyId, before: { status: "OPEN" }, after: { status: "CLOSED" } });
  });
}

async function createStudyFromContent(slug: string, name: string, description: string, users: DemoUser[], hashes: string[]): Promise<string> {
  const db = getDb();
  return db.$transaction(
    async (tx) => {
      const idsByKey = await specialtyIdsFor(tx, DEMO_ITEMS.map((i) => i.specialty));
      const specialtyIds = new Map<string, string>(DEMO_ITEMS.map((i) => [i.specialty, idsByKey.get(specialtyKey(i.specialty))!]));
      const userIds = new Map<string, string>();
      for (const [i, u] of users.entries()) {
        const user = await tx.user.upsert({
          where: { email: u.email },
          create: { email: u.email, name: u.name, role: u.role, passwordHash: hashes[i] },
          update: {},
        });
        userIds.set(u.email, user.id);
        for (const sp of u.specialties) {
          await tx.userSpecialty.upsert({
            where: { userId_specialtyId: { userId: user.id, specialtyId: specialtyIds.get(sp)! } },
            create: { userId: user.id, specialtyId: specialtyIds.get(sp)! },
            update: {},
          });
        }
      }
      const leadId = userIds.get("lead@demo.clingrade.org")!;
      const study = await tx.study.create({
        data: {
          name,
          slug,
          description,
          rubrics: templateRubrics(["SCORE", "SAFE_LLM"]),
          repetitions: 3,
          gradersPerSet: 2,
          thresholds: DEFAULT_THRESHOLDS,
          showReferenceAnswer: true,
          status: "OPEN",
          openedAt: new Date(),
          createdById: leadId,
        },
      });
      await tx.studyMember.createMany({
        data: users.filter((u) => u.role !== "ADMIN").map((u) => ({
          studyId: study.id,
          userId: userIds.get(u.email)!,
          role: u.role === "LEAD" ? ("LEAD" as const) : ("GRADER" as const),
        })),
      });
      await copyAccountSpecialties(tx, study.id, users.filter((u) => u.role === "GRADER").map((u) => userIds.get(u.email)!));
      const modelIds = new Map<string, string>();
      for (const m of DEMO_MODELS) {
        const model = await tx.llmModel.create({
          data: { studyId: study.id, name: m.name, version: m.version, temperature: m.temperature, topP: m.topP },
        });
        modelIds.set(m.key, model.id);
      }
      for (const item of DEMO_ITEMS) {
        const qa = await tx.qaItem.create({
          data: {
            studyId: study.id,
            externalId: item.externalId,
            question: item.question,
            referenceAnswer: item.referenceAnswer,
            specialtyId: specialtyIds.get(item.specialty)!,
          },
        });
        for (const m of DEMO_MODELS) {
          const set = await tx.responseSet.create({ data: { studyId: study.id, itemId: qa.id, modelId: modelIds.get(m.key)! } });
          await tx.response.createMany({
            data: item.responses[m.key].map((text, i) => {
              const metrics = metricsOf(item.referenceAnswer, text);
              return { responseSetId: set.id, repetition: i + 1, text, bleu: metrics?.bleu ?? null, rouge1: metrics?.rouge1 ?? null, rougeL: metrics?.rougeL ?? null, bleuStats: statsArray(metrics) };
            }),
          });
        }
      }
      await recordAudit(tx, {
        actorId: null,
        action: "study.seed_demo",
        entityType: "Study",
        entityId: study.id,
        studyId: study.id,
        after: { slug, items: DEMO_ITEMS.length, models: DEMO_MODELS.length, repetitions: 3 },
      });
      return study.id;
    },
    { timeout: 60_000 },
  );
}

export function printDemoCredentials(say: (line: string) => void) {
  say("Demo accounts (email / password):");
  for (const u of DEMO_USERS) say(`  ${u.role.padEnd(6)} ${u.email.padEnd(28)} ${u.password.padEnd(19)} ${u.name}`);
  say(`  (the closed pilot was graded by ${PILOT_GRADERS.map((g) => g.email).join(", ")}; passwords demo-pilotN-2026)`);
}
