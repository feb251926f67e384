import type { TableData } from "./tables";
import type { JournalAgreement, JournalBlock } from "./types";

/**
 * The journal block (GET /stats?journal=1) as flat tables: one row per
 * figure, each with its convention and n, for the dashboard's CSV download and
 * for a reader who wants every pairwise kappa (the page shows a summary when
 * there are many graders). `names` gives graders' display names by id.
 */
export function journalAgreementCsv(block: JournalBlock, names: ReadonlyMap<string, string>): TableData {
  const header = ["rubric", "target", "key", "label", "statistic", "convention", "pair", "value", "ci_low", "ci_high", "n", "p", "reason"];
  const rows: TableData["rows"] = [];
  const name = (id: string) => names.get(id) ?? id;
  for (const r of block.rubrics) {
    for (const a of r.agreement) {
      const base = [r.rubric, a.target, a.key, a.label];
      for (const m of a.kappa ? [a.kappa.ranks, a.kappa.scale] : []) {
        for (const p of m.pairs) rows.push([...base, `kappa (${a.weights})`, m.convention, `${name(p.a)} | ${name(p.b)}`, p.value, p.ci?.[0] ?? null, p.ci?.[1] ?? null, p.n, null, p.reason]);
      }
      if (a.kendallW) {
        for (const w of [a.kendallW.uncorrected, a.kendallW.corrected]) rows.push([...base, "Kendall's W", w.convention, null, w.value, null, null, w.n, w.p, w.reason]);
      }
      if (a.icc) {
        rows.push([...base, a.icc.label, a.icc.why, null, a.icc.value, a.icc.ci?.[0] ?? null, a.icc.ci?.[1] ?? null, a.icc.n, null, a.icc.reason]);
        const s = a.icc.single;
        rows.push([...base, s.label, a.icc.why, null, s.value, s.ci?.[0] ?? null, s.ci?.[1] ?? null, s.n, null, s.reason]);
      }
      const k = a.krippendorff;
      rows.push([...base, `Krippendorff's alpha (${k.level})`, k.convention, null, k.value, k.ci?.[0] ?? null, k.ci?.[1] ?? null, k.units, null, k.reason]);
    }
  }
  return { header, rows };
}

/** Model comparison: descriptives, Friedman, post-hoc pairs and Cliff's delta, one row per figure. */
export function journalComparisonCsv(block: JournalBlock): TableData {
  const header = ["rubric", "target", "key", "label", "statistic", "convention", "model", "other", "value", "ci_low", "ci_high", "n", "p", "p_holm", "reason"];
  const rows: TableData["rows"] = [];
  for (const r of block.rubrics) {
    for (const c of r.models) {
      const base = [r.rubric, c.target, c.key, c.label];
      for (const d of c.descriptives) {
        for (const [stat, v] of [["mean", d.mean], ["sd", d.sd], ["median", d.median], ["q1", d.q1], ["q3", d.q3], ["iqr", d.iqr]] as const) {
          rows.push([...base, stat, "type 7 quantiles; SD with n - 1", d.model, null, v, null, null, d.n, null, null, null]);
        }
      }
      const f = c.friedman;
      rows.push([...base, "Friedman chi-square", f.convention, null, null, f.chiSquare, null, null, f.n, f.p, null, f.reason]);
      for (const p of c.posthoc.pairs) rows.push([...base, `Wilcoxon signed-rank (${p.method ?? "n/a"})`, c.posthoc.convention, p.a, p.b, p.statistic, null, null, p.n, p.p, p.pHolm, p.reason]);
      for (const p of c.cliffs?.pairs ?? []) rows.push([...base, "Cliff's delta", c.cliffs!.convention, p.a, p.b, p.delta, p.ci?.[0] ?? null, p.ci?.[1] ?? null, p.n + p.m, null, null, p.reason]);
    }
  }
  return { header, rows };
}

/** A dimension or total whose kappa matrix can be drawn: an ordinal one with two or more graders. */
export const hasKappaMatrix = (a: JournalAgreement) => a.kappa !== null && a.raters.length >= 2;

/**
 * One rubric's pairwise kappa matrices (the ranks convention the page draws), one row per cell,
 * the diagonal's 1 included: the chart's numbers, for the CSV beside it.
 */
export function journalKappaMatrixCsv(rubric: JournalBlock["rubrics"][number], names: ReadonlyMap<string, string>): TableData {
  const header = ["rubric", "target", "key", "label", "convention", "row_rater", "column_rater", "kappa", "ci_low", "ci_high", "n"];
  const rows: TableData["rows"] = [];
  const name = (id: string) => names.get(id) ?? id;
  for (const a of rubric.agreement.filter(hasKappaMatrix)) {
    const m = a.kappa!.ranks;
    a.raters.forEach((row, i) =>
      a.raters.forEach((col, j) => {
        // The diagonal has no pair: a rater agrees with themself, with no interval or n to report.
        const pair = m.pairs.find((p) => (p.a === row && p.b === col) || (p.a === col && p.b === row));
        rows.push([rubric.rubric, a.target, a.key, a.label, m.convention, name(row), name(col), m.matrix[i]?.[j] ?? null, pair?.ci?.[0] ?? null, pair?.ci?.[1] ?? null, pair?.n ?? null]);
      }),
    );
  }
  return { header, rows };
}
