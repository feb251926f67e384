import { hashPassword } from "@/lib/auth/password";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { DEMO_ITEMS, DEMO_MODELS, DEMO_STUDY } from "./content";

/** The demo's people. Passwords are printed at every start: this is a demo, not a deployment. */
export const DEMO_USERS = [
  { email: "admin@demo.clingrade.org", name: "Ada Admin", role: "ADMIN", password: "demo-admin-2026", specialties: [] },
  { email: "lead@demo.clingrade.org", name: "Dr. Lena Ortiz", role: "LEAD", password: "demo-lead-2026", specialties: [] },
  { email: "grader1@demo.clingrade.org", name: "Dr. Amir Haddad", role: "GRADER", password: "demo-grader1-2026", specialties: ["Ophthalmology"] },
  { email: "grader2@demo.clingrade.org", name: "Dr. Sofia Keller", role: "GRADER", password: "demo-grader2-2026", specialties: ["Medication"] },
  { email: "grader3@demo.clingrade.org", name: "Dr. Tomás Rivera", role: "GRADER", password: "demo-grader3-2026", specialties: ["Anesthesia"] },
  { email: "grader4@demo.clingrade.org", name: "Dr. Mei Tanaka", role: "GRADER", password: "demo-grader4-2026", specialties: ["Ophthalmology", "Anesthesia", "Medication"] },
] as const;

export const DEMO_STUDY_SLUG = "demo-clinical-qa";

/**
 * Seeds the demo once: users are created only if missing (their passwords are
 * never reset), and the study only if its slug is absent. All in one
 * transaction, so a crash mid-seed leaves nothing half-written.
 */
export async function seedDemo(): Promise<{ created: boolean; studyId: string }> {
  const db = getDb();
  const existing = await db.study.findUnique({ where: { slug: DEMO_STUDY_SLUG }, select: { id: true } });
  if (existing) return { created: false, studyId: existing.id };

  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  try {
    return { created: true, studyId: await createDemoStudy(hashes) };
  } catch (err) {
    // Another process seeded at the same moment: its study won the unique slug.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const winner = await db.study.findUnique({ where: { slug: DEMO_STUDY_SLUG }, select: { id: true } });
      if (winner) return { created: false, studyId: winner.id };
    }
    throw err;
  }
}

async function createDemoStudy(hashes: string[]): Promise<string> {
  const db = getDb();
  return db.$transaction(
    async (tx) => {
      const specialtyIds = new Map<string, string>();
      for (const name of new Set(DEMO_ITEMS.map((i) => i.specialty))) {
        const s = await tx.specialty.upsert({ where: { name }, create: { name }, update: {} });
        specialtyIds.set(name, s.id);
      }
      const userIds = new Map<string, string>();
      for (const [i, u] of DEMO_USERS.entries()) {
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
          name: DEMO_STUDY.name,
          slug: DEMO_STUDY_SLUG,
          description: DEMO_STUDY.description,
          rubrics: ["SCORE", "SAFE_LLM"],
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
        data: DEMO_USERS.filter((u) => u.role !== "ADMIN").map((u) => ({
          studyId: study.id,
          userId: userIds.get(u.email)!,
          role: u.role === "LEAD" ? ("LEAD" as const) : ("GRADER" as const),
        })),
      });
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
            data: item.responses[m.key].map((text, i) => ({ responseSetId: set.id, repetition: i + 1, text })),
          });
        }
      }
      await recordAudit(tx, {
        actorId: null,
        action: "study.seed_demo",
        entityType: "Study",
        entityId: study.id,
        studyId: study.id,
        after: { items: DEMO_ITEMS.length, models: DEMO_MODELS.length, repetitions: 3 },
      });
      return study.id;
    },
    { timeout: 60_000 },
  );
}

export function printDemoCredentials(say: (line: string) => void) {
  say("Demo accounts (email / password):");
  for (const u of DEMO_USERS) say(`  ${u.role.padEnd(6)} ${u.email.padEnd(28)} ${u.password.padEnd(19)} ${u.name}`);
}
