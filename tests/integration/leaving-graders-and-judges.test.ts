import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/users/[id]/route";
import { GET as listUsersRoute } from "@/app/api/v1/users/route";
import { POST as checkScores } from "@/app/api/v1/studies/[id]/judges/check-scores/route";
import { assignGraders, assignmentProgress } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { judgeComparisons } from "@/lib/exports/judge-summary";
import { writeJudgeScores } from "@/lib/judges/write";
import { studyJudgesWithLatestRun } from "@/lib/judges/runner/runs";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("deactivating a grader who holds open work", () => {
  it("the admin learns the open assignments (adjudications apart) per study, each study's lead sees it in the audit and on progress", async () => {
    const admin = await makeUser("ADMIN");
    const f = await makeGradableStudy({ items: 3, models: 2, graders: 2, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "leave" }, f.lead.id);
    const [g] = f.graders;
    const db = getDb();
    // One of their assignments submitted (it stays theirs), one an adjudication of another set.
    const mine = await db.assignment.findMany({ where: { graderId: g.id }, orderBy: { position: "asc" } });
    await db.assignment.update({ where: { id: mine[0].id }, data: { status: "SUBMITTED", submittedAt: new Date() } });
    await db.assignment.update({ where: { id: mine[1].id }, data: { kind: "ADJUDICATOR" } });

    const listed = await call(listUsersRoute, "/api/v1/users", bearer(admin.token));
    const row = (listed.body.users as { id: string; openWork: unknown[]; external: boolean }[]).find((u) => u.id === g.id)!;
    expect(row.external).toBe(false);
    expect(row.openWork).toEqual([{ studyId: f.study.id, studyName: f.study.name, openAssignments: mine.length - 1, openAdjudications: 1 }]);

    const r = await call(PATCH, `/api/v1/users/${g.id}`, json(admin.token, "PATCH", { active: false }), { id: g.id });
    expect(r.status).toBe(200);
    expect(r.body.openWork).toEqual([{ studyId: f.study.id, studyName: f.study.name, openAssignments: mine.length - 1, openAdjudications: 1 }]);

    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "grader.deactivated_with_open_work", studyId: f.study.id } });
    expect([event.actorId, event.entityId, event.after]).toEqual([admin.id, g.id, { graderId: g.id, openAssignments: mine.length - 1, openAdjudications: 1 }]);

    const progress = await assignmentProgress(f.study.id);
    expect(progress.graders.find((x) => x.graderId === g.id)).toMatchObject({ active: false, open: mine.length - 1, openAdjudications: 1, submitted: 1 });

    // Reactivating says nothing of the kind; a user with no open work leaves no study event.
    const other = await makeUser("GRADER");
    const r2 = await call(PATCH, `/api/v1/users/${other.id}`, json(admin.token, "PATCH", { active: false }), { id: other.id });
    expect(r2.body.openWork).toEqual([]);
    expect(await db.auditEvent.count({ where: { action: "grader.deactivated_with_open_work" } })).toBe(1);
  });

  it("imported external raters are marked in the user list (the page lists them apart, without Edit)", async () => {
    const admin = await makeUser("ADMIN");
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 0, rubrics: ["SCORE"] });
    const ext = await getDb().user.create({ data: { email: `ext-${f.study.id}@external.invalid`, name: "Reviewer1", passwordHash: "", role: "GRADER", active: false, externalStudyId: f.study.id } });
    const listed = await call(listUsersRoute, "/api/v1/users", bearer(admin.token));
    const users = listed.body.users as { id: string; external: boolean }[];
    expect(users.find((u) => u.id === ext.id)!.external).toBe(true);
    expect(users.find((u) => u.id === admin.id)!.external).toBe(false);
  });
});

describe("judges", () => {
  const csv = (rows: string[]) => ["item_id,model,repetition,dimension,score", ...rows].join("\n") + "\n";

  it("checking a file for a judge not registered yet writes nothing: no judge, no scores, no audit", async () => {
    const f = await makeGradableStudy({ items: 2, models: 1, graders: 1, rubrics: ["SCORE"] });
    const db = getDb();
    const before = { judges: await db.automatedJudge.count(), audit: await db.auditEvent.count() };
    const post = (token: string, body: string) =>
      call(checkScores, `/api/v1/studies/${f.study.id}/judges/check-scores`, bearer(token, { method: "POST", body, headers: { "content-type": "text/csv" } }), { id: f.study.id });
    const ok = await post(f.lead.token, csv([`Q1,${MODEL_NAMES[0]},1,safety,4`, `Q2,${MODEL_NAMES[0]},1,safety,5`]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ judgeId: null, rows: 2, created: 0, dryRun: true });
    const bad = await post(f.lead.token, csv([`Q9,${MODEL_NAMES[0]},1,safety,4`]));
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.details)).toMatch(/Q9/);
    expect((await post(f.graders[0].token, csv([`Q1,${MODEL_NAMES[0]},1,safety,4`]))).status).toBe(403);
    expect({ judges: await db.automatedJudge.count(), audit: await db.auditEvent.count() }).toEqual(before);
    expect(await db.judgeScore.count()).toBe(0);
  });

  it("the judge card's data counts imported scores; the expected-score reading only where the judge gave probabilities", async () => {
    const f = await makeGradableStudy({ items: 2, models: 1, graders: 1, rubrics: ["SCORE"] });
    const db = getDb();
    const judge = await db.automatedJudge.create({ data: { studyId: f.study.id, name: "Imported", model: "m" } });
    expect((await studyJudgesWithLatestRun(f.study.id))[0]).toMatchObject({ name: "Imported", scores: 0, latest: null });
    const probs = { "1": 0.1, "2": 0.1, "3": 0.2, "4": 0.5, "5": 0.1 };
    await writeJudgeScores({
      studyId: f.study.id,
      judgeId: judge.id,
      rows: ["Q1", "Q2"].flatMap((itemId) => [
        { itemId, model: MODEL_NAMES[0], repetition: 1, dimension: "safety", probabilities: probs },
        { itemId, model: MODEL_NAMES[0], repetition: 1, dimension: "objectivity", score: 3 },
      ]),
    });
    expect((await studyJudgesWithLatestRun(f.study.id))[0]).toMatchObject({ scores: 4, latest: null });

    const [cmp] = await judgeComparisons(f.study.id);
    const readings = (dimension: string) => cmp.dimensions.filter((d) => d.dimension === dimension).map((d) => d.reading);
    expect(readings("safety")).toEqual(["most_probable", "expected"]);
    // No probabilities on objectivity: its "expected score" row would repeat the most probable one.
    expect(readings("objectivity")).toEqual(["most_probable"]);
    expect(readings("explainability")).toEqual(["most_probable"]);
  });
});
