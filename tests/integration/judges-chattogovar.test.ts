import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { GET as statsRoute } from "@/app/api/v1/studies/[id]/stats/route";
import { POST as createJudgeRoute, GET as listJudgesRoute } from "@/app/api/v1/studies/[id]/judges/route";
import { POST as scoresRoute } from "@/app/api/v1/studies/[id]/judges/[judgeId]/scores/route";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { importChattogovarJudge } from "@/lib/judges/chattogovar";
import type { JudgesBlock } from "@/lib/judges/types";
import { gwetAC2, roundHalfUp } from "@/lib/stats";
import { CHATTOGOVAR_RUBRIC, chattogovarItems, chattogovarRatings, judgeCsv, SYSTEMS } from "../fixtures/realdata/chattogovar/study";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

/** Items whose two human ratings the panel enters (all 150 are imported; the judge scored all). */
const GRADED_ITEMS = 40;

describe("chattogovar: GPT-4o's real scores as a judge beside the two human raters", () => {
  const ctx = {} as { studyId: string; lead: Awaited<ReturnType<typeof makeUser>>; raters: Record<string, string> };

  beforeAll(async () => {
    const db = getDb();
    const lead = await makeUser("LEAD", "lead");
    const primary = await makeUser("GRADER", "primary");
    const secondary = await makeUser("GRADER", "secondary");
    const specialty = await db.specialty.upsert({ where: { name: "Genetics" }, create: { name: "Genetics" }, update: {} });
    const study = await db.study.create({
      data: {
        name: "chattogovar",
        slug: `chattogovar-${randomBytes(3).toString("hex")}`,
        rubrics: [CHATTOGOVAR_RUBRIC],
        thresholds: { chattogovar: {} },
        repetitions: 1,
        gradersPerSet: 2,
        status: "OPEN",
        createdById: lead.id,
        members: { create: [{ userId: lead.id, role: "LEAD" }, { userId: primary.id, role: "GRADER" }, { userId: secondary.id, role: "GRADER" }] },
      },
    });
    const models = await Promise.all(SYSTEMS.map((name) => db.llmModel.create({ data: { studyId: study.id, name } })));
    for (const it of chattogovarItems()) {
      const item = await db.qaItem.create({ data: { studyId: study.id, externalId: String(it.item_id), question: it.question, specialtyId: specialty.id } });
      for (const m of models) {
        const set = await db.responseSet.create({ data: { studyId: study.id, itemId: item.id, modelId: m.id } });
        await db.response.create({ data: { responseSetId: set.id, repetition: 1, text: it.answers[m.name].text } });
      }
    }
    await assignGraders(study.id, {}, lead.id);
    const ratings = chattogovarRatings();
    const assignments = await db.assignment.findMany({
      where: { studyId: study.id, responseSet: { item: { externalId: { in: Array.from({ length: GRADED_ITEMS }, (_, i) => String(i + 1)) } } } },
      select: { id: true, graderId: true, responseSet: { select: { item: { select: { externalId: true } }, model: { select: { name: true } } } } },
    });
    const raterOf: Record<string, string> = { [primary.id]: "primary", [secondary.id]: "secondary" };
    for (const a of assignments) {
      const scores = ratings.get(a.responseSet.item.externalId)!.get(a.responseSet.model.name)!.get(raterOf[a.graderId])!;
      const body = Object.entries(scores).map(([dimension, score]) => ({ rubric: "chattogovar", dimension, repetition: 1, score }));
      await saveGrades(a.graderId, a.id, { scores: body, submit: true }).catch((e: { details?: unknown }) => {
        throw new Error(JSON.stringify([scores, e.details]));
      });
    }
    Object.assign(ctx, { studyId: study.id, lead, raters: { primary: primary.id, secondary: secondary.id } });
  }, 300_000);

  it("imports all 2,250 judgments once; importing again changes nothing", async () => {
    const first = await importChattogovarJudge(ctx.studyId, judgeCsv(), ctx.lead.id);
    expect(first).toMatchObject({ rows: 2250, created: 2250, updated: 0, unchanged: 0 });
    const again = await importChattogovarJudge(ctx.studyId, judgeCsv(), ctx.lead.id);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2250 });
    const list = await call(listJudgesRoute, `/api/v1/studies/${ctx.studyId}/judges`, bearer(ctx.lead.token), { id: ctx.studyId });
    expect(list.status).toBe(200);
    expect((list.body.judges as { scores: number }[])[0].scores).toBe(2250);
  });

  it("the stats endpoint puts the judge against the panel, matching AC2 computed from the raw files", async () => {
    const res = await call(statsRoute, `/api/v1/studies/${ctx.studyId}/stats`, bearer(ctx.lead.token), { id: ctx.studyId });
    expect(res.status).toBe(200);
    expect(() => StudyStatsSchema.parse(res.body)).not.toThrow();
    const block = (res.body.judges as { data: JudgesBlock }).data;
    expect(block.judges).toHaveLength(1);
    const j = block.judges[0];
    const accuracy = j.dimensions.find((d) => d.dimension === "accuracy" && d.reading === "most_probable")!;
    expect(accuracy.n).toBe(GRADED_ITEMS * 3);

    // Independently: the panel's final = mean of the two raters, rounded half-up; the judge's score from its CSV.
    const ratings = chattogovarRatings();
    const judge = new Map(judgeCsv().trim().split("\n").slice(1).map((l) => l.split(",")).map(([item, model, , dim, score]) => [`${item}|${model}|${dim}`, Number(score)]));
    const pairs: [number, number][] = [];
    const perRater: Record<string, [number, number][]> = { primary: [], secondary: [] };
    for (let i = 1; i <= GRADED_ITEMS; i++) {
      for (const m of SYSTEMS) {
        const r = ratings.get(String(i))!.get(m)!;
        const p = r.get("primary")!.accuracy;
        const s = r.get("secondary")!.accuracy;
        const jv = judge.get(`${i}|${m}|accuracy`)!;
        pairs.push([jv, roundHalfUp((p + s) / 2)]);
        perRater.primary.push([jv, p]);
        perRater.secondary.push([jv, s]);
      }
    }
    const categories = Array.from({ length: 11 }, (_, i) => i);
    expect(accuracy.ac2.value).toBeCloseTo(gwetAC2(pairs, { categories }).coefficient!, 12);
    expect(accuracy.ac2.n).toBe(GRADED_ITEMS * 3);
    const byName = Object.fromEntries(accuracy.clinicians.map((c) => [c.grader.id, c]));
    expect(byName[ctx.raters.primary].ac2.value).toBeCloseTo(gwetAC2(perRater.primary, { categories }).coefficient!, 12);
    expect(byName[ctx.raters.secondary].ac2.value).toBeCloseTo(gwetAC2(perRater.secondary, { categories }).coefficient!, 12);
    // Ceiling with two raters: each against the other, pooled both ways.
    const ceiling = [...perRater.primary.map((_, k) => [perRater.primary[k][1], perRater.secondary[k][1]] as [number, number]), ...perRater.primary.map((_, k) => [perRater.secondary[k][1], perRater.primary[k][1]] as [number, number])];
    expect(accuracy.ceiling.ac2.value).toBeCloseTo(gwetAC2(ceiling, { categories }).coefficient!, 12);
    expect(byName[ctx.raters.primary].difference.ci).not.toBeNull();

    const total = j.totals.find((t) => t.total === "total")!;
    expect(total.n).toBe(GRADED_ITEMS * 3);
    expect(total.icc3k.value).not.toBeNull();
    const ranking = j.ranking.find((r) => r.total === "total")!;
    expect(ranking.models.map((m) => m.model)).toEqual([...SYSTEMS].sort());
    expect(ranking.tau.n).toBe(3);
    expect(j.lengthBias[0].judge.n).toBe(GRADED_ITEMS * 3);
    // No probabilities in the published run: one reading, no confidence, so nothing to defer.
    expect(j.withProbabilities).toBe(0);
    expect(j.dimensions.every((d) => d.reading === "most_probable")).toBe(true);
    expect(j.deferral[0].points[0].kept).toBe(0);
    // What the lead reads, measured on the real data.
    console.info(
      "chattogovar GPT-4o judge vs panel (AC2):",
      j.dimensions.map((d) => `${d.dimension} ${d.ac2.value?.toFixed(3)} (ceiling ${d.ceiling.ac2.value?.toFixed(3)})`).join("; "),
      `| total ICC(3,k) ${total.icc3k.value?.toFixed(3)}, tau ${ranking.tau.value}`,
    );
  }, 120_000);

  it("exports every judgment with both readings, and the summary's judge-vs-panel figures equal the dashboard's", async () => {
    const csv = await call(exportRoute, `/api/v1/studies/${ctx.studyId}/export?dataset=judge-scores&format=csv`, bearer(ctx.lead.token), { id: ctx.studyId });
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split("\n");
    expect(lines[0]).toBe("judge,judge_model,judge_version,item_id,model,model_version,repetition,rubric,dimension,score,category,na,value,label,expected_score,expected_score_rounded,confidence,probabilities,samples,rationale,final_for_set,updated_at");
    expect(lines.length).toBe(1 + 2250);
    const json = await call(exportRoute, `/api/v1/studies/${ctx.studyId}/export?dataset=judge-scores&format=json`, bearer(ctx.lead.token), { id: ctx.studyId });
    const first = (json.body as unknown as Record<string, unknown>[]).find((r) => r.item_id === "1" && r.model === "ChatTogoVar" && r.dimension === "accuracy")!;
    expect(first).toMatchObject({ score: 10, value: 10, na: false, repetition: 1, rubric: "chattogovar", expected_score: null, probabilities: null, final_for_set: false });
    // The level's label from the study's rubric, as in the grades export.
    expect(first.label).toBe(CHATTOGOVAR_RUBRIC.dimensions.find((d) => d.key === "accuracy")!.scale.levels!.find((l) => l.value === 10)!.label);

    const stats = await call(statsRoute, `/api/v1/studies/${ctx.studyId}/stats`, bearer(ctx.lead.token), { id: ctx.studyId });
    const dash = (stats.body.judges as { data: JudgesBlock }).data.judges[0].dimensions.find((d) => d.dimension === "accuracy")!;
    const summary = await call(exportRoute, `/api/v1/studies/${ctx.studyId}/export?dataset=summary&format=json`, bearer(ctx.lead.token), { id: ctx.studyId });
    const doc = summary.body as unknown as { judgeVsPanel: JudgesBlock["judges"] };
    // Exports write figures to 4 decimals (lib/exports/precision); the dashboard keeps full precision.
    const r4 = (x: number | null) => (x === null ? null : Number(x.toFixed(4)));
    const exported = doc.judgeVsPanel[0].dimensions.find((d) => d.dimension === "accuracy")!.ac2;
    expect(exported).toEqual({ ...dash.ac2, value: r4(dash.ac2.value), ci: dash.ac2.ci?.map(r4) ?? dash.ac2.ci });
    const summaryCsv = await call(exportRoute, `/api/v1/studies/${ctx.studyId}/export?dataset=summary&format=csv`, bearer(ctx.lead.token), { id: ctx.studyId });
    const rows = String(summaryCsv.body).trim().split("\n");
    const header = rows[0].split(",");
    const ac2Row = rows.map((r) => r.split(",")).find((r) => r[header.indexOf("section")] === "judge_vs_panel" && r[header.indexOf("measure")] === "accuracy.ac2")!;
    expect(Number(ac2Row[header.indexOf("value")])).toBe(r4(dash.ac2.value));
    expect(Number(ac2Row[header.indexOf("n")])).toBe(GRADED_ITEMS * 3);
  }, 120_000);

  it("registers a judge and imports a CSV through the API, refusing a bad file whole", async () => {
    const created = await call(createJudgeRoute, `/api/v1/studies/${ctx.studyId}/judges`, bearer(ctx.lead.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Local judge", model: "llama-3.1-8b", prompt: "Grade" }) }), { id: ctx.studyId });
    expect(created.status).toBe(201);
    const judgeId = created.body.id as string;
    const dup = await call(createJudgeRoute, `/api/v1/studies/${ctx.studyId}/judges`, bearer(ctx.lead.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Local judge", model: "x" }) }), { id: ctx.studyId });
    expect(dup.status).toBe(409);
    const p = (ps: number[]) => ps.map(String).join(",");
    const header = `item_id,model,repetition,dimension,score,${Array.from({ length: 11 }, (_, i) => `p_${i}`).join(",")},rationale`;
    const good = `${header}\n1,VarChat,1,accuracy,,${p([0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4])},"Correct, with sources"\n`;
    const post = (body: string, type = "text/csv") =>
      call(scoresRoute, `/api/v1/studies/${ctx.studyId}/judges/${judgeId}/scores`, bearer(ctx.lead.token, { method: "POST", headers: { "content-type": type }, body }), { id: ctx.studyId, judgeId });
    const bad = await post(`${good}999,VarChat,1,accuracy,11,${p(Array(11).fill(0))},\n`);
    expect(bad.status).toBe(422);
    const errors = (bad.body.details as { errors: { row: number; line?: number; column: string; message: string }[] }).errors;
    expect(errors.map((e) => `${e.row}:${e.column}`)).toEqual(expect.arrayContaining(["2:item_id", "2:score", "2:probabilities"]));
    expect(errors.find((e) => e.column === "item_id")?.line).toBe(3);
    expect(await getDb().judgeScore.count({ where: { judgeId } })).toBe(0);
    const ok = await post(good);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ created: 1, renormalised: 0 });
    const row = await getDb().judgeScore.findFirstOrThrow({ where: { judgeId } });
    expect(row).toMatchObject({ score: 10, confidence: 0.4, rationale: "Correct, with sources" });
    expect(row.expectedScore).toBeCloseTo(0.7 + 1.6 + 2.7 + 4, 12);
    const json = await post(JSON.stringify([{ item_id: "1", model: "VarChat", repetition: 1, dimension: "accuracy", probabilities: { "9": 0.5, "10": 0.5, ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [String(i), 0])) } }]), "application/json");
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ updated: 1 });
    expect((await getDb().judgeScore.findFirstOrThrow({ where: { judgeId } })).score).toBe(9);
  });
});
