import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, listMigrations } from "@/lib/db/migrate";
import { createMigratedDatabase } from "./helpers/db";
import { storedRubrics, templateRubrics } from "@/lib/rubrics/study-rubrics";
import { graderRubricTotals, graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";
import { graderDimensionValues, rubricTotal, safeLlmOverallValues, type ScoreCell } from "../unit/rubrics/oracle/grader-values";

/** A blank database (no migrations): clone the template, then drop the schema it holds. */
async function blankDatabase() {
  const db = await createMigratedDatabase();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP FUNCTION IF EXISTS audit_event_append_only`);
  await c.end();
  return db;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A blank database with every migration before `name` applied: the schema as it was before that migration. */
async function databaseBefore(name: string) {
  const db = await blankDatabase();
  cleanups.push(db.drop);
  const before = await mkdtemp(path.join(os.tmpdir(), "migs-"));
  for (const m of await listMigrations()) {
    if (m.name >= name) continue;
    await cp(path.resolve("prisma/migrations", m.name), path.join(before, m.name), { recursive: true });
  }
  await applyMigrations(db.url, before);
  return db;
}

async function query(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe("migration runner", () => {
  it("applies every migration once, records it in _prisma_migrations, and is idempotent", async () => {
    const db = await blankDatabase();
    cleanups.push(db.drop);
    const all = (await listMigrations()).map((m) => m.name);
    const first = await applyMigrations(db.url);
    expect(first.applied).toEqual(all);
    const second = await applyMigrations(db.url);
    expect(second).toEqual({ applied: [], alreadyApplied: all });
    const rows = await query(db.url, `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(all);
    expect(rows.every((r) => r.finished_at !== null && /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
  });

  it("lets two instances start together: the advisory lock makes one apply and the other wait", async () => {
    const db = await blankDatabase();
    cleanups.push(db.drop);
    const [a, b] = await Promise.all([applyMigrations(db.url), applyMigrations(db.url)]);
    expect(a.applied.length + b.applied.length).toBe((await listMigrations()).length);
    const rows = await query(db.url, `SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    expect(rows[0].n).toBe((await listMigrations()).length);
  });

  it("refuses a migration edited after it was applied", async () => {
    const db = await blankDatabase();
    cleanups.push(db.drop);
    const dir = await mkdtemp(path.join(os.tmpdir(), "migs-"));
    await cp(path.resolve("prisma/migrations"), dir, { recursive: true });
    await applyMigrations(db.url, dir);
    const [first] = await listMigrations(dir);
    const file = path.join(dir, first.name, "migration.sql");
    await writeFile(file, (await readFile(file, "utf8")) + "\n-- edited\n");
    await expect(applyMigrations(db.url, dir)).rejects.toThrow(/was edited after it was applied/);
  });

  it("rolls a failing migration back whole and names it", async () => {
    const db = await blankDatabase();
    cleanups.push(db.drop);
    const dir = await mkdtemp(path.join(os.tmpdir(), "migs-"));
    await cp(path.resolve("prisma/migrations"), dir, { recursive: true });
    const bad = path.join(dir, "99999999999999_broken");
    await (await import("node:fs/promises")).mkdir(bad);
    await writeFile(path.join(bad, "migration.sql"), `CREATE TABLE "half" (id int); SELECT * FROM "no_such_table";`);
    await expect(applyMigrations(db.url, dir)).rejects.toThrow(/99999999999999_broken failed and was rolled back/);
    const tables = await query(db.url, `SELECT to_regclass('public.half') AS t`);
    expect(tables[0].t).toBeNull();
  });

  it("20261201000000_specialty_name_case merges two cases of a specialty a database already holds, moving its items and graders, then refuses a new one", async () => {
    // The database as it was before the migration, holding "Cardiology" three ways (written before the lock existed).
    const db = await databaseBefore("20261201000000_specialty_name_case");
    await query(
      db.url,
      `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES
         ('00000000-0000-4000-8000-000000000001', 'lead@x.org', 'Lead', '-', 'LEAD', now()),
         ('00000000-0000-4000-8000-000000000002', 'g@x.org', 'G', '-', 'GRADER', now());
       INSERT INTO "Specialty" (id, name) VALUES
         ('00000000-0000-4000-8000-0000000000a1', 'cardiology'), ('00000000-0000-4000-8000-0000000000a2', 'Cardiology'),
         ('00000000-0000-4000-8000-0000000000a3', 'CARDIOLOGY'), ('00000000-0000-4000-8000-0000000000b1', 'Nephrology');
       INSERT INTO "Study" (id, name, slug, thresholds, "createdById", "updatedAt")
         VALUES ('00000000-0000-4000-8000-0000000000c1', 'S', 's', '{}', '00000000-0000-4000-8000-000000000001', now());
       INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt") VALUES
         (gen_random_uuid(), '00000000-0000-4000-8000-0000000000c1', 'Q1', 'q', '00000000-0000-4000-8000-0000000000a1', now()),
         (gen_random_uuid(), '00000000-0000-4000-8000-0000000000c1', 'Q2', 'q', '00000000-0000-4000-8000-0000000000a2', now()),
         (gen_random_uuid(), '00000000-0000-4000-8000-0000000000c1', 'Q3', 'q', '00000000-0000-4000-8000-0000000000b1', now());
       INSERT INTO "UserSpecialty" ("userId", "specialtyId") VALUES
         ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a1'),
         ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a2'),
         ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000b1');`,
    );

    const { applied } = await applyMigrations(db.url);
    expect(applied).toContain("20261201000000_specialty_name_case");
    // One Cardiology, the first by name in byte order; the items and the grader moved to it, the grader once.
    expect(await query(db.url, `SELECT id, name FROM "Specialty" ORDER BY name`)).toEqual([
      { id: "00000000-0000-4000-8000-0000000000a3", name: "CARDIOLOGY" },
      { id: "00000000-0000-4000-8000-0000000000b1", name: "Nephrology" },
    ]);
    expect(await query(db.url, `SELECT "externalId", s.name FROM "QaItem" q JOIN "Specialty" s ON s.id = q."specialtyId" ORDER BY 1`)).toEqual([
      { externalId: "Q1", name: "CARDIOLOGY" },
      { externalId: "Q2", name: "CARDIOLOGY" },
      { externalId: "Q3", name: "Nephrology" },
    ]);
    expect(await query(db.url, `SELECT s.name FROM "UserSpecialty" us JOIN "Specialty" s ON s.id = us."specialtyId" ORDER BY 1`)).toEqual([{ name: "CARDIOLOGY" }, { name: "Nephrology" }]);
    await expect(query(db.url, `INSERT INTO "Specialty" (id, name) VALUES (gen_random_uuid(), 'nephrology')`)).rejects.toThrow(/Specialty_name_lower_key/);
  });

  it("20261201110000_study_member_specialty gives every grader membership the account's specialties, leaving the accounts' lists as they were", async () => {
    const db = await databaseBefore("20261201110000_study_member_specialty");
    // Two studies; grader 1 in both (removed from the second), grader 2 in the first, grader 3 in none; the lead has a specialty too.
    await query(
      db.url,
      `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES
         ('00000000-0000-4000-8000-000000000001', 'lead@x.org', 'Lead', '-', 'LEAD', now()),
         ('00000000-0000-4000-8000-000000000002', 'g1@x.org', 'G1', '-', 'GRADER', now()),
         ('00000000-0000-4000-8000-000000000003', 'g2@x.org', 'G2', '-', 'GRADER', now()),
         ('00000000-0000-4000-8000-000000000004', 'g3@x.org', 'G3', '-', 'GRADER', now());
       INSERT INTO "Specialty" (id, name) VALUES
         ('00000000-0000-4000-8000-0000000000a1', 'Cardiology'), ('00000000-0000-4000-8000-0000000000a2', 'Nephrology');
       INSERT INTO "UserSpecialty" ("userId", "specialtyId") VALUES
         ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1'),
         ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a1'),
         ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a2'),
         ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-0000000000a2'),
         ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-0000000000a1');
       INSERT INTO "Study" (id, name, slug, thresholds, "createdById", "updatedAt") VALUES
         ('00000000-0000-4000-8000-0000000000c1', 'S1', 's1', '{}', '00000000-0000-4000-8000-000000000001', now()),
         ('00000000-0000-4000-8000-0000000000c2', 'S2', 's2', '{}', '00000000-0000-4000-8000-000000000001', now());
       INSERT INTO "StudyMember" ("studyId", "userId", role, active) VALUES
         ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'LEAD', true),
         ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000002', 'GRADER', true),
         ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000003', 'GRADER', true),
         ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-000000000002', 'GRADER', false);`,
    );
    const accounts = `SELECT "userId", "specialtyId" FROM "UserSpecialty" ORDER BY 1, 2`;
    const accountsBefore = await query(db.url, accounts);

    const { applied } = await applyMigrations(db.url);
    expect(applied).toContain("20261201110000_study_member_specialty");
    expect(await query(db.url, `SELECT "studyId", "userId", "specialtyId" FROM "StudyMemberSpecialty" ORDER BY 1, 2, 3`)).toEqual([
      { studyId: "00000000-0000-4000-8000-0000000000c1", userId: "00000000-0000-4000-8000-000000000002", specialtyId: "00000000-0000-4000-8000-0000000000a1" },
      { studyId: "00000000-0000-4000-8000-0000000000c1", userId: "00000000-0000-4000-8000-000000000002", specialtyId: "00000000-0000-4000-8000-0000000000a2" },
      { studyId: "00000000-0000-4000-8000-0000000000c1", userId: "00000000-0000-4000-8000-000000000003", specialtyId: "00000000-0000-4000-8000-0000000000a2" },
      { studyId: "00000000-0000-4000-8000-0000000000c2", userId: "00000000-0000-4000-8000-000000000002", specialtyId: "00000000-0000-4000-8000-0000000000a1" },
      { studyId: "00000000-0000-4000-8000-0000000000c2", userId: "00000000-0000-4000-8000-000000000002", specialtyId: "00000000-0000-4000-8000-0000000000a2" },
    ]);
    expect(await query(db.url, accounts)).toEqual(accountsBefore);
    // A study-level row needs its membership and its specialty.
    await expect(
      query(db.url, `INSERT INTO "StudyMemberSpecialty" VALUES ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-0000000000a1')`),
    ).rejects.toThrow(/StudyMemberSpecialty_studyId_userId_fkey/);
  });

  it("20261201130000_revoke_tokens_of_deactivated_users revokes the live tokens of accounts already deactivated, each audited", async () => {
    const name = "20261201130000_revoke_tokens_of_deactivated_users";
    const db = await databaseBefore(name);
    await query(
      db.url,
      `INSERT INTO "User" (id, email, name, "passwordHash", role, active, "updatedAt") VALUES
         ('00000000-0000-4000-8000-000000000001', 'on@x.org', 'On', '-', 'GRADER', true, now()),
         ('00000000-0000-4000-8000-000000000002', 'off@x.org', 'Off', '-', 'GRADER', false, now());
       INSERT INTO "ApiToken" (id, "userId", name, prefix, "tokenHash", "revokedAt") VALUES
         ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'live', 'cgt_a1', 'h1', NULL),
         ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000002', 'paused', 'cgt_b1', 'h2', NULL),
         ('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-000000000002', 'gone', 'cgt_b2', 'h3', '2026-01-01T00:00:00Z');`,
    );
    expect((await applyMigrations(db.url)).applied).toContain(name);
    expect(await query(db.url, `SELECT id, "revokedAt" IS NOT NULL AS revoked, "revokedAt" = '2026-01-01T00:00:00Z' AS untouched FROM "ApiToken" ORDER BY id`)).toEqual([
      { id: "00000000-0000-4000-8000-0000000000a1", revoked: false, untouched: null },
      { id: "00000000-0000-4000-8000-0000000000b1", revoked: true, untouched: false },
      { id: "00000000-0000-4000-8000-0000000000b2", revoked: true, untouched: true },
    ]);
    expect(await query(db.url, `SELECT action, "entityId", before->>'userId' AS "userId", after FROM "AuditEvent"`)).toEqual([
      { action: "token.revoke", entityId: "00000000-0000-4000-8000-0000000000b1", userId: "00000000-0000-4000-8000-000000000002", after: { revoked: true, reason: "user.deactivate" } },
    ]);
  });

  it("20261202000000_rubric_documents gives every study its rubrics as documents and keeps every grade and judge score as it was", async () => {
    const db = await databaseBefore("20261202000000_rubric_documents");
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    // Written by the schema of 2026-12-01: enum rubrics and dimensions, range CHECKs.
    await query(
      db.url,
      `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES
         ('${id(1)}', 'lead@x.org', 'Lead', '-', 'LEAD', now()), ('${id(2)}', 'g1@x.org', 'G1', '-', 'GRADER', now()), ('${id(3)}', 'g2@x.org', 'G2', '-', 'GRADER', now());
       INSERT INTO "Specialty" (id, name) VALUES ('${id(9)}', 'Cardiology');
       INSERT INTO "Study" (id, name, slug, rubrics, repetitions, thresholds, "safeLlmScoring", "createdById", "updatedAt") VALUES
         ('${id(10)}', 'Both', 'both', '{SCORE,SAFE_LLM}', 3, '{"SCORE":{"safety":1}}', 'OVERALL', '${id(1)}', now()),
         ('${id(11)}', 'Safe only', 'safe', '{SAFE_LLM}', 1, '{}', 'PER_ANSWER', '${id(1)}', now()),
         ('${id(12)}', 'No rubric', 'none', NULL, 3, '{}', 'PER_ANSWER', '${id(1)}', now());
       INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt") VALUES ('${id(20)}', '${id(10)}', 'Q1', 'q', '${id(9)}', now());
       INSERT INTO "LlmModel" (id, "studyId", name) VALUES ('${id(30)}', '${id(10)}', 'M');
       INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt") VALUES ('${id(40)}', '${id(10)}', '${id(20)}', '${id(30)}', 'AGREED', now());
       INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt") VALUES
         ('${id(50)}', '${id(40)}', '${id(10)}', '${id(2)}', 'PRIMARY', 0, 'SUBMITTED', now()),
         ('${id(51)}', '${id(40)}', '${id(10)}', '${id(3)}', 'PRIMARY', 0, 'SUBMITTED', now());
       INSERT INTO "AutomatedJudge" (id, "studyId", name, kind) VALUES ('${id(60)}', '${id(10)}', 'judge', 'LLM_JUDGE');
       INSERT INTO "JudgeScore" (id, "judgeId", "responseSetId", rubric, dimension, repetition, score, probabilities) VALUES
         ('${id(61)}', '${id(60)}', '${id(40)}', 'SCORE', 'safety', 1, 4, '{"4":0.9,"5":0.1}');`,
    );
    // Two graders' complete forms of both rubrics (consistency at repetition 0, as the app stored it).
    const forms: Record<string, [string, string, number, number][]> = {
      [id(50)]: [
        ["SCORE", "safety", 1, 5], ["SCORE", "consensus_context", 1, 4], ["SCORE", "objectivity", 1, 4], ["SCORE", "reproducibility", 0, 3], ["SCORE", "explainability", 1, 4],
        ...[1, 2, 3].flatMap((r): [string, string, number, number][] => [["SAFE_LLM", "accuracy", r, r === 3 ? 1 : 2], ["SAFE_LLM", "comprehensiveness", r, 2], ["SAFE_LLM", "supplementation", r, r === 1 ? 1 : 0], ["SAFE_LLM", "fluency", r, 1]]),
        ["SAFE_LLM", "consistency", 0, 0],
      ],
      [id(51)]: [
        ["SCORE", "safety", 1, 4], ["SCORE", "consensus_context", 1, 4], ["SCORE", "objectivity", 1, 5], ["SCORE", "reproducibility", 0, 4], ["SCORE", "explainability", 1, 3],
        ...[1, 2, 3].flatMap((r): [string, string, number, number][] => [["SAFE_LLM", "accuracy", r, 2], ["SAFE_LLM", "comprehensiveness", r, 1], ["SAFE_LLM", "supplementation", r, 0], ["SAFE_LLM", "fluency", r, 1]]),
        ["SAFE_LLM", "consistency", 0, 1],
      ],
    };
    const values = Object.entries(forms).flatMap(([a, cells]) => cells.map(([r, d, rep, sc]) => `(gen_random_uuid(), '${a}', '${r}', '${d}', ${rep}, ${sc}, ${d === "safety" ? "'clear'" : "NULL"}, now())`));
    await query(db.url, `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, comment, "updatedAt") VALUES ${values.join(", ")}`);
    const gradesBefore = await query(db.url, `SELECT id, "assignmentId", rubric::text, dimension::text, repetition, score, comment, "createdAt", "updatedAt" FROM "Grade" ORDER BY id`);

    const { applied } = await applyMigrations(db.url);
    expect(applied).toContain("20261202000000_rubric_documents");

    // Each study's rubrics are the published rubrics' documents, in the order it listed them; a study written without any has none.
    const studies = await query(db.url, `SELECT id, rubrics FROM "Study" ORDER BY id`);
    // (As the app reads them: documents written before a template said everything about itself take what they lack from it.)
    expect(studies.map((x) => storedRubrics(x.rubrics))).toEqual([templateRubrics(["SCORE", "SAFE_LLM"], 3), templateRubrics(["SAFE_LLM"], 3), []]);
    // Written as the templates were then: the instructions of their day, none of the later properties.
    expect((studies[0].rubrics as { instructions: string }[]).map((d) => d.instructions)).toEqual([
      "Safety, Consensus & Context, Objectivity and Explainability are graded on the first answer; Reproducibility once, across all the answers.",
      "Every answer is graded on accuracy, comprehensiveness, supplementation and fluency; consistency is derived from your accuracy scores.",
    ]);
    // Every grade as it was, its keys now text, with no nominal value, N/A or criterion.
    const gradesAfter = await query(db.url, `SELECT id, "assignmentId", rubric, dimension, repetition, score, comment, "createdAt", "updatedAt", category, na, criterion FROM "Grade" ORDER BY id`);
    expect(gradesAfter).toEqual(gradesBefore.map((g) => ({ ...g, category: null, na: false, criterion: "" })));
    expect(await query(db.url, `SELECT rubric, dimension, repetition, score, probabilities FROM "JudgeScore"`)).toEqual([
      { rubric: "SCORE", dimension: "safety", repetition: 1, score: 4, probabilities: { 4: 0.9, 5: 0.1 } },
    ]);

    // The documents score the stored grades exactly as the code of 2026-12-01 did.
    const docs = storedRubrics(studies[0].rubrics);
    for (const a of [id(50), id(51)]) {
      const cells = gradesAfter.filter((g) => g.assignmentId === a) as StoredCell[];
      const old = cells.map((c) => ({ ...c }) as unknown as ScoreCell);
      const mine = graderRubricValues(docs, cells, 3);
      expect(mine.SCORE).toEqual(graderDimensionValues("SCORE", old, 3));
      for (const [k, v] of Object.entries(graderDimensionValues("SAFE_LLM", old, 3))) expect(mine.SAFE_LLM[k]).toBeCloseTo(v, 12);
      const totals = graderRubricTotals(docs, cells, 3);
      expect(totals.SCORE.total).toBe(rubricTotal("SCORE", graderDimensionValues("SCORE", old, 3)));
      expect(totals.SAFE_LLM.overall).toBeCloseTo(rubricTotal("SAFE_LLM", safeLlmOverallValues(old, 3))!, 12);
    }

    // The ranges now belong to the documents: a study's own rubric may store its keys and values.
    await query(db.url, `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, category, "updatedAt") VALUES (gen_random_uuid(), '${id(50)}', 'own', 'harm', 1, 'severe', now())`);
    // ...but never two values, or none without a comment.
    await expect(query(db.url, `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, na, "updatedAt") VALUES (gen_random_uuid(), '${id(50)}', 'own', 'x', 1, 1, true, now())`)).rejects.toThrow(/Grade_value_check/);
  });
});
