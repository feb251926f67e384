import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importArchiveRoute } from "@/app/api/v1/study-archives/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { decideSet, setTriageRule } from "@/lib/governance/service";
import { saveGrades } from "@/lib/grading/service";
import { bearer, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy } from "./helpers/study-fixture";

/**
 * POST /api/v1/study-archives against hostile documents: forged grader
 * identities, the CSV import's limits, the admin-only binding of graders to
 * accounts, and a document that arrives in small pieces.
 */
const db = useIsolatedDatabase();
afterAll(() => closeExportPools());

/* eslint-disable @typescript-eslint/no-explicit-any */
type Doc = Record<string, any>;

let f: Awaited<ReturnType<typeof makeGradableStudy>>;
let other: Awaited<ReturnType<typeof makeGradableStudy>>;
let admin: Awaited<ReturnType<typeof makeUser>>;

async function exportDoc(identities: boolean): Promise<Doc> {
  const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${f.study.id}/export?dataset=study${identities ? "&identities=1" : ""}`, bearer(f.lead.token)), {
    params: Promise.resolve({ id: f.study.id }),
  });
  expect(res.status).toBe(200);
  return JSON.parse(await res.text());
}

function post(token: string, body: string | ReadableStream<Uint8Array>, query = "") {
  const init = { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit;
  return importArchiveRoute(new Request(`http://localhost/api/v1/study-archives${query}`, bearer(token, init)), { params: Promise.resolve({}) });
}

/** Everything an account owns or is part of, grades included. */
async function footprint(userIds: string[]) {
  return {
    users: await getDb().user.findMany({ where: { id: { in: userIds } }, include: { specialties: true }, orderBy: { id: "asc" } }),
    members: await getDb().studyMember.findMany({ where: { userId: { in: userIds } }, orderBy: [{ studyId: "asc" }, { userId: "asc" }] }),
    assignments: await getDb().assignment.findMany({ where: { graderId: { in: userIds } }, include: { grades: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } }),
  };
}

async function tableCounts() {
  const t = getDb();
  return Promise.all([
    t.study.count(),
    t.user.count(),
    t.studyMember.count(),
    t.specialty.count(),
    t.llmModel.count(),
    t.qaItem.count(),
    t.responseSet.count(),
    t.response.count(),
    t.assignment.count(),
    t.grade.count(),
    t.escalation.count(),
    t.auditEvent.count(),
  ]);
}

async function problemsOf(res: Response): Promise<{ path: string; message: string }[]> {
  expect(res.status, "a 422 listing the problems").toBe(422);
  const body = (await res.json()) as { error: string; details: { problems: { path: string; message: string }[] } };
  expect(body.error).toMatch(/nothing was imported/);
  return body.details.problems;
}

beforeAll(async () => {
  f = await makeGradableStudy({ items: 3, models: 2, graders: 3 });
  await assignGraders(f.study.id, { seed: "archive" }, f.lead.id);
  const assignmentsOf = (setId: string) => getDb().assignment.findMany({ where: { responseSetId: setId }, orderBy: { graderId: "asc" } });
  for (const [i, s] of f.sets.entries()) {
    const [a, b] = await assignmentsOf(s.id);
    await saveGrades(a.graderId, a.id, { scores: form({ score: [5, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
    if (i === f.sets.length - 1) continue; // one set left awaiting its second grade
    await saveGrades(b.graderId, b.id, { scores: form({ score: [i === 0 ? 2 : 5, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
  }
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[0].id, kind: "ADJUDICATOR" } });
  await saveGrades(adj.graderId, adj.id, { scores: form({ score: [3, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
  // Accounts an attacker would like to frame: a grader with a queue of their own, an admin, another lead.
  other = await makeGradableStudy({ items: 7, models: 2, graders: 2 });
  await assignGraders(other.study.id, { seed: "victims" }, other.lead.id);
  admin = await makeUser("ADMIN", "admin");
}, 120_000);

describe("forged identities", () => {
  it("emails rewritten to a grader, an admin and a lead: those accounts' memberships, queues and grades are untouched; the graders are new pseudonymous accounts", async () => {
    const doc = await exportDoc(true);
    expect(doc.graders).toHaveLength(3);
    const targets = [other.graders[0], admin, other.lead];
    doc.graders.forEach((g: Doc, i: number) => {
      g.email = targets[i].email.toUpperCase();
      g.name = targets[i].name;
    });
    const ids = targets.map((t) => t.id);
    const before = await footprint(ids);
    expect(before.assignments.length).toBeGreaterThan(0);

    const res = await post(f.lead.token, JSON.stringify(doc));
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };

    expect(await footprint(ids)).toEqual(before);
    const graders = await getDb().user.findMany({ where: { assignments: { some: { studyId: id } } } });
    expect(graders).toHaveLength(3);
    for (const g of graders) {
      expect(ids).not.toContain(g.id);
      expect(g).toMatchObject({ role: "GRADER", active: false });
      expect(g.email).toMatch(/^archived-[0-9a-f]+-00000[123]@placeholder\.invalid$/);
      expect(g.passwordHash.startsWith("$argon2")).toBe(false);
      expect(targets.map((t) => t.name)).not.toContain(g.name);
    }
    const members = await getDb().studyMember.findMany({ where: { studyId: id } });
    expect(members.filter((m) => ids.includes(m.userId))).toEqual([]);
    // the grades are all there, bound to the pseudonymous graders
    const sourceGrades = await getDb().grade.count({ where: { assignment: { studyId: f.study.id } } });
    expect(await getDb().grade.count({ where: { assignment: { studyId: id } } })).toBe(sourceGrades);
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { studyId: id, action: "study.import_archive" } });
    expect(audit.after).toMatchObject({ identities: true, pseudonymousAccounts: 3, mappedAccounts: [] });
  });
});

describe("the CSV import's limits", () => {
  it("over-long fields and text PostgreSQL cannot store are 422, each named, and nothing is written", async () => {
    const doc = await exportDoc(false);
    doc.items[0].question = "x".repeat(1_000_001);
    doc.items[1].id = "i".repeat(201);
    doc.models[0].version = "v".repeat(201);
    doc.assignments[0].grades[0].comment = "c".repeat(5001);
    doc.assignments[1].harmComment = "nul \u0000 inside";
    doc.models[1].settings = { "\u0000": 1 };
    const counts = await tableCounts();
    const problems = await problemsOf(await post(f.lead.token, JSON.stringify(doc)));
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: "items[0].question", message: "is longer than 1,000,000 characters" },
        { path: "items[1].id", message: "is longer than 200 characters" },
        { path: "models[0].version", message: "is longer than 200 characters" },
        { path: "assignments[0].grades[0].comment", message: "is longer than 5,000 characters" },
        { path: "assignments[1].harmComment", message: expect.stringContaining("NUL") },
        { path: "models[1].settings", message: expect.stringContaining("NUL") },
      ]),
    );
    expect(await tableCounts()).toEqual(counts);
  });

  it("a repetition outside the study's N (an answer, a grade) is 422 and nothing is written", async () => {
    const doc = await exportDoc(false);
    expect(doc.study.repetitions).toBe(3);
    doc.sets[0].answers[0].repetition = 4;
    const a = doc.assignments.findIndex((x: Doc) => x.grades.length > 0);
    const g = doc.assignments[a].grades.findIndex((x: Doc) => x.rubric === "SAFE_LLM" && x.dimension === "accuracy" && x.repetition === 3);
    doc.assignments[a].grades[g].repetition = 7;
    const counts = await tableCounts();
    const problems = await problemsOf(await post(f.lead.token, JSON.stringify(doc)));
    expect(problems).toEqual([
      { path: "sets[0].answers[0].repetition", message: "repetition 4 is outside 1..3 (the study's N)" },
      { path: `assignments[${a}].grades[${g}].repetition`, message: "must be 1..3 (the study's N)" },
    ]);
    expect(await tableCounts()).toEqual(counts);
  });

  it("safety screens: each hit and verdict must name a screen, a set's answer and a rule of the screen (422, nothing written); archives without screens import", async () => {
    const doc = await exportDoc(false);
    const [item, model] = [doc.sets[0].item, doc.sets[0].model];
    doc.screens = [
      { id: "S1", action: "exclude", status: "DONE", rules: [{ name: "Dose", kind: "term", pattern: "mg" }], judge: null, answers: 18, withdrawn: 0, keptGraded: 0, error: null, createdAt: doc.exportedAt, finishedAt: doc.exportedAt },
      { id: "S1", action: "warn", status: "DONE", rules: [{ name: "Any", kind: "regex", pattern: "a(?=b)" }], judge: null, answers: 18, withdrawn: 0, keptGraded: 0, error: null, createdAt: doc.exportedAt, finishedAt: null },
    ];
    doc.screenHits = [
      { screen: "S1", item, model, repetition: 1, rule: 0, matches: 1, excerpt: "[mg]" },
      { screen: "S1", item, model, repetition: 1, rule: 0, matches: 1, excerpt: "[mg]" },
      { screen: "S9", item, model, repetition: 1, rule: 0, matches: 1, excerpt: "x" },
      { screen: "S1", item, model, repetition: 3, rule: 1, matches: 1, excerpt: "x" },
    ];
    doc.screenVerdicts = [{ screen: "S1", item: "nope", model, repetition: 1, flagged: "yes", reason: "x", createdAt: doc.exportedAt }];
    const counts = await tableCounts();
    const problems = await problemsOf(await post(f.lead.token, JSON.stringify(doc)));
    expect(problems).toEqual([
      { path: "screens[1].rules[0].pattern", message: expect.stringMatching(/not a valid regular expression/) },
      { path: "screenHits[1]", message: "this hit appears twice" },
      { path: "screenHits[2].screen", message: "no screen S9 in screens" },
      { path: "screenHits[3].rule", message: "screen S1 has 1 rules" },
      { path: "screenVerdicts[0].flagged", message: expect.any(String) },
    ]);
    expect(await tableCounts()).toEqual(counts);
    // An archive written before the screen: no screen sections.
    const older = await exportDoc(false);
    delete older.screens;
    delete older.screenHits;
    delete older.screenVerdicts;
    const res = await post(f.lead.token, JSON.stringify(older));
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("members out of the export's order, unknown or repeated are 422", async () => {
    const { sets, items, assignments, escalations, screens, screenHits, screenVerdicts, qualitySets, qualityTasks, ...head } = await exportDoc(false);
    const reordered = JSON.stringify({ ...head, sets, items, assignments, escalations, screens, screenHits, screenVerdicts, qualitySets, qualityTasks, extra: 1 }).replace(/}$/, `,"escalations":[]}`);
    const problems = await problemsOf(await post(f.lead.token, reordered));
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: "items", message: "must come before sets, as in the export" },
        { path: "extra", message: expect.stringMatching(/^unknown member/) },
        { path: "escalations", message: "appears twice" },
      ]),
    );
  });

  it("an empty object lists every missing member; what is not one JSON object is 400", async () => {
    const problems = await problemsOf(await post(f.lead.token, "{}"));
    // The screen's and grader quality's sections are optional: archives written before them have none.
    expect(problems.map((p) => p.path)).toEqual(["format", "version", "exportedAt", "source", "identities", "study", "specialties", "graders", "models", "items", "sets", "assignments", "escalations"]);
    for (const body of ["", "[]", '{"format": "clingrade-study-archive",}', '{"items": [1, 2]']) expect((await post(f.lead.token, body)).status, body).toBe(400);
  });
});

describe("binding graders to existing accounts", () => {
  it("an admin may, naming each in the request: the grades go to those grader accounts and the audit event lists each binding", async () => {
    const doc = await exportDoc(false);
    const restored = await makeUser("GRADER", "restored");
    const target = other.graders[1];
    const res = await post(admin.token, JSON.stringify(doc), `?map=G1:${encodeURIComponent(target.email.toUpperCase())}&map=G2:${restored.id}`);
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const byGrader = (g: string) => doc.assignments.filter((a: Doc) => a.grader === g).map((a: Doc) => `${a.item}/${a.model}/${a.kind}`).sort();
    const imported = async (userId: string) =>
      (await getDb().assignment.findMany({ where: { studyId: id, graderId: userId }, include: { responseSet: { include: { item: true, model: true } } } }))
        .map((a) => `${a.responseSet.item.externalId}/${a.responseSet.model.name}/${a.kind}`)
        .sort();
    expect(await imported(target.id)).toEqual(byGrader("G1"));
    expect(await imported(restored.id)).toEqual(byGrader("G2"));
    expect(byGrader("G1").length).toBeGreaterThan(0);
    const members = await getDb().studyMember.findMany({ where: { studyId: id, role: "GRADER" } });
    expect(members.map((m) => m.userId)).toEqual(expect.arrayContaining([target.id, restored.id]));
    const third = await getDb().user.findMany({ where: { assignments: { some: { studyId: id } }, id: { notIn: [target.id, restored.id] } } });
    expect(third).toHaveLength(1);
    expect(third[0]).toMatchObject({ active: false, role: "GRADER" });
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { studyId: id, action: "study.import_archive" } });
    expect(audit.actorId).toBe(admin.id);
    expect(audit.after).toMatchObject({
      pseudonymousAccounts: 1,
      mappedAccounts: [
        { grader: "G1", userId: target.id, email: target.email },
        { grader: "G2", userId: restored.id, email: restored.email },
      ],
    });
  });

  it("only to grader accounts that exist, one grader each: every wrong binding is listed (422) and nothing is written", async () => {
    const doc = await exportDoc(false);
    const counts = await tableCounts();
    const query = `?map=G1:${admin.email}&map=G2:${other.lead.id}&map=G9:${other.graders[0].email}&map=G3:nobody@example.org&map=G1:${other.graders[0].email}`;
    const problems = await problemsOf(await post(admin.token, JSON.stringify(doc), query));
    expect(problems).toEqual([
      { path: "map[0]", message: `${admin.email} is not a grader account` },
      { path: "map[1]", message: `${other.lead.id} is not a grader account` },
      { path: "map[2]", message: "no grader G9 in the document's graders" },
      { path: "map[3]", message: "no account nobody@example.org" },
      { path: "map[4]", message: "grader G1 is mapped twice" },
    ]);
    expect(await tableCounts()).toEqual(counts);
    const malformed = await post(admin.token, JSON.stringify(doc), "?map=G1");
    expect(malformed.status).toBe(422);
  });

  it("a lead cannot: 403, and nothing is written", async () => {
    const doc = await exportDoc(false);
    const counts = await tableCounts();
    const res = await post(f.lead.token, JSON.stringify(doc), `?map=G1:${other.graders[0].email}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/only an admin/);
    expect(await tableCounts()).toEqual(counts);
  });
});

describe("streaming", () => {
  it("a document arriving in small pieces imports as a whole one does", async () => {
    const doc = await exportDoc(false);
    const bytes = new TextEncoder().encode(JSON.stringify(doc, null, 1));
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, at + 997));
        at += 997;
      },
    });
    const res = await post(f.lead.token, body);
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await getDb().grade.count({ where: { assignment: { studyId: id } } })).toBe(await getDb().grade.count({ where: { assignment: { studyId: f.study.id } } }));
    expect(await getDb().response.count({ where: { responseSet: { studyId: id } } })).toBe(await getDb().response.count({ where: { responseSet: { studyId: f.study.id } } }));
  });

  it("a document over ARCHIVE_MAX_BYTES is 413 naming the limit, nothing written", async () => {
    const counts = await tableCounts();
    process.env.ARCHIVE_MAX_BYTES = "4096";
    try {
      const res = await post(f.lead.token, JSON.stringify(await exportDoc(false)));
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: string }).error).toMatch(/ARCHIVE_MAX_BYTES/);
    } finally {
      delete process.env.ARCHIVE_MAX_BYTES;
    }
    expect(await tableCounts()).toEqual(counts);
  });

  it("a study that takes the chosen slug while the import commits: the import takes another and still succeeds", async () => {
    const doc = await exportDoc(false);
    doc.study.slug = `race-${randomBytes(3).toString("hex")}`;
    const client = new pg.Client({ connectionString: db.url() });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query(`INSERT INTO "Study" (id, name, slug, rubrics, thresholds, "createdById", "updatedAt") VALUES (gen_random_uuid(), 'racer', $1, '[]', '{}', $2, now())`, [
        doc.study.slug,
        f.lead.id,
      ]);
      const pending = post(f.lead.token, JSON.stringify(doc));
      // Commit once the import waits on that uncommitted slug.
      let waited = false;
      for (let i = 0; i < 300 && !waited; i++) {
        await client.query("SELECT pg_stat_clear_snapshot()"); // pg_stat_activity is read once per transaction otherwise
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE "Study" SET slug%'`,
        );
        waited = rows[0].n > 0;
        if (!waited) await new Promise((r) => setTimeout(r, 50));
      }
      await client.query("COMMIT");
      expect(waited, "the import's UPDATE waited on the uncommitted slug").toBe(true);
      const res = await pending;
      expect(res.status, await res.clone().text()).toBe(201);
      expect(((await res.json()) as { slug: string }).slug).toMatch(new RegExp(`^${doc.study.slug}-[0-9a-f]{6}$`));
    } finally {
      await client.end();
    }
  });
});

describe("contradiction flags and the lead's triage", () => {
  it("round-trip: each grader's flag and note, the study's question and triage rule, the lead's decisions (authored by the importing lead)", async () => {
    // Set 1 is agreed: its first grader flags a contradiction, the lead decides it; the study has its own rule and no longer asks.
    const [a] = await getDb().assignment.findMany({ where: { responseSetId: f.sets[1].id, kind: "PRIMARY" }, orderBy: { graderId: "asc" } });
    const saved = await saveGrades(a.graderId, a.id, { scores: form({ score: [5, 4, 4, 4, 4], safe: GOOD_SAFE }), contradiction: { flag: true, note: "Answer 3 doubles the dose" }, submit: true });
    expect(saved.changed).toBe(1);
    const rule = { acceptAtMost: 0.3, reviewAtMost: 0.6, reviewAtFlags: null, rejectAtFlags: 1 };
    await setTriageRule(f.study.id, rule, { id: f.lead.id });
    await decideSet(f.study.id, f.sets[1].id, { decision: "REJECTED", note: "Contradicting doses" }, { id: f.lead.id });
    await getDb().study.update({ where: { id: f.study.id }, data: { askContradictions: false } });
    try {
      const doc = await exportDoc(false);
      expect(doc.study).toMatchObject({ askContradictions: false, triageRule: rule });
      const flagged = doc.assignments.filter((x: Doc) => x.contradictionFlag);
      expect(flagged.map((x: Doc) => x.contradictionNote)).toEqual(["Answer 3 doubles the dose"]);
      expect(doc.assignments.every((x: Doc) => "contradictionFlag" in x && "contradictionNote" in x)).toBe(true);
      const decided = doc.sets.filter((s: Doc) => s.decision);
      expect(decided).toHaveLength(1);
      expect(decided[0].decision).toMatchObject({ decision: "REJECTED", note: "Contradicting doses" });

      const importer = await makeUser("LEAD", "importer");
      const res = await post(importer.token, JSON.stringify(doc));
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      const study = await getDb().study.findUniqueOrThrow({ where: { id }, select: { askContradictions: true, triageRule: true } });
      expect(study).toEqual({ askContradictions: false, triageRule: rule });
      const flags = await getDb().assignment.findMany({ where: { studyId: id, contradictionFlag: true }, select: { contradictionNote: true } });
      expect(flags).toEqual([{ contradictionNote: "Answer 3 doubles the dose" }]);
      const decisions = await getDb().setDecision.findMany({ where: { responseSet: { studyId: id } } });
      expect(decisions.map((d) => [d.decision, d.note, d.decidedById, d.decidedAt.toISOString()])).toEqual([["REJECTED", "Contradicting doses", importer.id, decided[0].decision.decidedAt]]);

      // Exported again, the same flags, rule and decisions.
      const res2 = await exportRoute(new Request(`http://localhost/api/v1/studies/${id}/export?dataset=study`, bearer(importer.token)), { params: Promise.resolve({ id }) });
      const again = JSON.parse(await res2.text()) as Doc;
      const strip = (d: Doc) => ({
        study: { askContradictions: d.study.askContradictions, triageRule: d.study.triageRule },
        assignments: d.assignments.map((x: Doc) => [x.item, x.model, x.grader, x.contradictionFlag, x.contradictionNote]),
        decisions: d.sets.map((s: Doc) => s.decision ?? null),
      });
      expect(strip(again)).toEqual(strip(doc));

      // A note without its flag, a flag where one answer has nothing to contradict, a decision on a set not final: each named, nothing written.
      const counts = await tableCounts();
      const bad = structuredClone(doc);
      const unflagged = bad.assignments.findIndex((x: Doc) => !x.contradictionFlag);
      bad.assignments[unflagged].contradictionNote = "stray";
      const open = bad.sets.findIndex((s: Doc) => s.status === "AWAITING_GRADES");
      bad.sets[open].decision = { decision: "ACCEPTED", note: "too early", decidedAt: decided[0].decision.decidedAt };
      const problems = await problemsOf(await post(importer.token, JSON.stringify(bad)));
      expect(problems).toEqual(
        expect.arrayContaining([
          { path: `sets[${open}].decision`, message: expect.stringMatching(/not final/) },
          { path: `assignments[${unflagged}].contradictionNote`, message: expect.stringMatching(/goes with the flag/) },
        ]),
      );
      expect(await tableCounts()).toEqual(counts);
    } finally {
      await getDb().study.update({ where: { id: f.study.id }, data: { askContradictions: true } });
    }
  });
});
