/**
 * From the study's submitted primary work to each grader's quality signals (issue #35, item 4).
 * Pure: no database (load.ts reads the rows). The statistics are lib/stats/grader-quality.ts's.
 *
 * What is read: each grader's submitted PRIMARY assignments (adjudications are a different task,
 * chosen for disagreement, so they would bias every comparison); their ordinal scores only
 * (nominal items and "not applicable" have no scale to compare on). Every grader of the study is
 * shown, an excluded one too (their signals are what a lead judges an exclusion on), and the
 * comparisons are against every other primary grader of the same cells.
 */
import type { CellLayout, GraderRow } from "@/lib/analytics/grader-cells";
import { scoreAtSlot } from "@/lib/analytics/grader-cells";
import { blocksOf, leaveOneOutBias, median, peerAgreement, scaleUse, straightLining, type ClusteredMean, type PeerCell } from "@/lib/stats/grader-quality";
import type { GraderQuality, GraderQualityReport, QualityDimension, TrendBlock } from "./contract";
import { NOTES, PENDING_SIGNALS, TREND_BLOCK } from "./notes";
import { qualityTaskFigures, type QualityTaskRows } from "@/lib/quality-tasks/figures";

/** One submitted primary assignment. */
export interface QualityWork {
  grader: string;
  set: string;
  /** Submission time (ms since the epoch): orders the trend. */
  at: number;
  /** Server-bounded time on task (Assignment.timeSpentMs); 0 when none was recorded (imported grades). */
  timeMs: number;
  row: GraderRow;
}

export interface QualityGrader {
  id: string;
  name: string;
  active: boolean;
  excluded: { at: string; by: string | null; byName: string | null; reason: string | null } | null;
}

/** The ordinal dimensions of the layout, with their declared levels. */
export function ordinalDimensions(layout: CellLayout): (QualityDimension & { index: number })[] {
  const several = new Set(layout.dims.map((d) => d.rubric)).size > 1;
  return layout.dims.flatMap((d, index) =>
    d.dimension.scale.kind === "ordinal"
      ? [{ index, key: several ? `${d.rubric}/${d.dimension.key}` : d.dimension.key, label: d.dimension.name, levels: (d.dimension.scale.levels ?? []).map((l) => Number(l.value)) }]
      : [],
  );
}

/** The ordinal scores of a row: [dimension position in `dims`, repetition, score]. */
function scoresOf(row: GraderRow, dims: readonly { index: number }[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  dims.forEach((d, k) => {
    for (let rep = 0; rep < row.stride; rep++) {
      const s = scoreAtSlot(row, d.index, rep);
      if (s !== null) out.push([k, rep, s]);
    }
  });
  return out;
}

const round = (x: number | null, digits = 4) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** digits) / 10 ** digits);
const interval = (m: ClusteredMean) => (m.ci ? ([round(m.ci[0])!, round(m.ci[1])!] as [number, number]) : null);

export function graderQualityReport(
  studyId: string,
  layout: CellLayout,
  graders: readonly QualityGrader[],
  work: readonly QualityWork[],
  taskRows: QualityTaskRows = { gold: [], pairs: [], calibration: [] },
): GraderQualityReport {
  const dims = ordinalDimensions(layout);
  const tasks = qualityTaskFigures(
    taskRows,
    dims.map((d) => ({ id: `${layout.dims[d.index].rubric}/${layout.dims[d.index].dimension.key}`, key: d.key, levels: d.levels })),
  );
  const scores = new Map<QualityWork, [number, number, number][]>();
  const bySet = new Map<string, QualityWork[]>();
  for (const w of work) {
    scores.set(w, scoresOf(w.row, dims));
    const list = bySet.get(w.set);
    if (list) list.push(w);
    else bySet.set(w.set, [w]);
  }

  // Each grader's peer cells: a cell = (set, dimension, repetition), with every other primary grader's score of it.
  const peer = new Map<string, { cell: PeerCell; dim: number }[]>();
  for (const [set, list] of bySet) {
    if (list.length < 2) continue;
    const cellScores = new Map<number, { grader: string; score: number }[]>();
    for (const w of list)
      for (const [k, rep, s] of scores.get(w)!) {
        const key = k * 64 + rep;
        const c = cellScores.get(key);
        if (c) c.push({ grader: w.grader, score: s });
        else cellScores.set(key, [{ grader: w.grader, score: s }]);
      }
    for (const [key, entries] of cellScores) {
      if (entries.length < 2) continue;
      const k = Math.floor(key / 64);
      for (const e of entries) {
        const others = entries.filter((o) => o !== e).map((o) => o.score);
        let mine = peer.get(e.grader);
        if (!mine) peer.set(e.grader, (mine = []));
        mine.push({ cell: { set, dimension: dims[k].key, grader: e.score, others }, dim: k });
      }
    }
  }

  const times = work.filter((w) => w.timeMs > 0).map((w) => w.timeMs);
  const studyMedian = median(times);
  const byGrader = new Map<string, QualityWork[]>();
  for (const w of work) {
    const list = byGrader.get(w.grader);
    if (list) list.push(w);
    else byGrader.set(w.grader, [w]);
  }

  const rows: GraderQuality[] = graders.map((g) => {
    const t = tasks.forGrader(g.id);
    const mine = [...(byGrader.get(g.id) ?? [])].sort((a, b) => a.at - b.at || a.set.localeCompare(b.set));
    const cells = peer.get(g.id) ?? [];
    const myTimes = mine.filter((w) => w.timeMs > 0).map((w) => w.timeMs);
    const myMedian = median(myTimes);
    const sl = straightLining(mine.map((w) => scores.get(w)!.map(([, , s]) => s)));
    const use = scaleUse(dims.map((d, k) => ({ levels: d.levels, scores: mine.flatMap((w) => scores.get(w)!.filter(([kk]) => kk === k).map(([, , s]) => s)) })));
    const bias = leaveOneOutBias(cells.map((c) => c.cell));
    const agreement = peerAgreement(dims.map((d, k) => ({ key: d.key, levels: d.levels, cells: cells.filter((c) => c.dim === k).map((c) => c.cell) })));
    const trend: TrendBlock[] = blocksOf(mine, TREND_BLOCK).map((block, i) => {
      const inBlock = new Set(block.map((w) => w.set));
      const b = leaveOneOutBias(cells.filter((c) => inBlock.has(c.cell.set)).map((c) => c.cell));
      const s = straightLining(block.map((w) => scores.get(w)!.map(([, , v]) => v)));
      return {
        block: i + 1,
        from: new Date(block[0].at).toISOString(),
        to: new Date(block[block.length - 1].at).toISOString(),
        sets: block.length,
        bias: round(b.overall.estimate),
        biasCells: b.overall.n,
        straightLining: round(s.share),
        straightLiningSets: s.n,
      };
    });
    return {
      graderId: g.id,
      name: g.name,
      active: g.active,
      excluded: g.excluded,
      sets: mine.length,
      time: {
        medianMs: myMedian === null ? null : Math.round(myMedian),
        ratio: myMedian === null || !studyMedian ? null : round(myMedian / studyMedian, 3),
        n: myTimes.length,
        note: NOTES.time,
      },
      straightLining: { share: round(sl.share), n: sl.n, note: NOTES.straightLining },
      scaleUse: { share: round(use.share), n: use.n, note: NOTES.scaleUse },
      bias: {
        estimate: round(bias.overall.estimate),
        ci: interval(bias.overall),
        n: bias.overall.n,
        sets: bias.overall.clusters,
        note: NOTES.bias,
        byDimension: dims
          .filter((d) => bias.byDimension[d.key])
          .map((d) => {
            const m = bias.byDimension[d.key];
            return { dimension: d.key, estimate: round(m.estimate), ci: interval(m), n: m.n, sets: m.clusters };
          }),
      },
      agreement: {
        ac2: round(agreement.overall),
        n: agreement.n,
        note: NOTES.agreement,
        byDimension: dims.filter((d) => agreement.byDimension[d.key]).map((d) => ({ dimension: d.key, ac2: round(agreement.byDimension[d.key].ac2), n: agreement.byDimension[d.key].n })),
      },
      trend,
      gold: { ...t.gold, note: NOTES.gold },
      intraRater: { ...t.intraRater, note: NOTES.intraRater },
      calibration: { ...t.calibration, note: NOTES.calibration },
    };
  });

  return {
    studyId,
    studyMedianTimeMs: studyMedian === null ? null : Math.round(studyMedian),
    timedSets: times.length,
    trendBlock: TREND_BLOCK,
    dimensions: dims.map(({ key, label, levels }) => ({ key, label, levels })),
    notes: { scope: NOTES.scope, skipped: NOTES.skipped, trend: NOTES.trend },
    notCollected: PENDING_SIGNALS.filter((p) => !tasks.collected[p.signal === "goldAccuracy" ? "gold" : "intraRater"]).map((p) => ({ ...p })),
    intraRaterPooled: tasks.pooledIntraRater,
    graders: rows,
  };
}
