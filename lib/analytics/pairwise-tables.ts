/**
 * The tables behind the pairwise dashboard's figures (shown beside each and downloaded as CSV),
 * each row with its n. Pure, for the client components and the unit tests.
 */
import type { PairwiseAxisBlock, PairwiseBlock } from "./pairwise-contract";
import type { TableData } from "./tables";

const r6 = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1e6) / 1e6);

export function strengthsTable(data: PairwiseBlock): TableData {
  return {
    header: ["Axis", "Model", "Log-strength (centred)", "SE", "95% bootstrap CI low", "95% bootstrap CI high", "P(best)", "Fit", "nu (ties)", "Preferences (n)", "Bootstrap replicates", "Note"],
    rows: data.axes.flatMap((a) =>
      a.strengths.rows.map((r) => [a.label, r.model, r6(r.logStrength), r6(r.se), r6(r.ci?.[0]), r6(r.ci?.[1]), r6(r.probabilityBest), a.strengths.model, r6(a.strengths.nu), a.n, a.strengths.replicates, a.strengths.reason ?? a.strengths.bootstrapReason ?? ""]),
    ),
  };
}

export function pairsTable(data: PairwiseBlock): TableData {
  return {
    header: ["Axis", "Model A", "Model B", "A wins", "Ties", "B wins", "n", "A win rate", "Win rate CI low", "Win rate CI high", "A decisive win rate", "Relative preference (A over B)", "Predicted P(A preferred)", "Longer answer won", "Decisive with unequal length (n)"],
    rows: data.axes.flatMap((a) =>
      a.pairs.map((p) => [
        a.label,
        p.a,
        p.b,
        p.wins,
        p.ties,
        p.losses,
        p.n,
        r6(p.winRate.estimate),
        r6(p.winRate.ci?.[0]),
        r6(p.winRate.ci?.[1]),
        r6(p.decisiveWinRate.estimate),
        r6(p.relativePreference),
        r6(predicted(a, data.models, p.a, p.b)),
        r6(p.lengthBias.share),
        p.lengthBias.n,
      ]),
    ),
  };
}

/** Observed win rate of the row model against the column model (ties count against), with n. */
export function winMatrix(axis: PairwiseAxisBlock, models: string[]): { rate: number | null; n: number }[][] {
  return models.map((row) =>
    models.map((col) => {
      if (row === col) return { rate: null, n: 0 };
      const p = axis.pairs.find((x) => (x.a === row && x.b === col) || (x.a === col && x.b === row));
      if (!p || p.n === 0) return { rate: null, n: 0 };
      return { rate: (p.a === row ? p.wins : p.losses) / p.n, n: p.n };
    }),
  );
}

export function winMatrixTable(data: PairwiseBlock): TableData {
  return {
    header: ["Axis", "Row model", "Column model", "Observed win rate of row (ties count against)", "n"],
    rows: data.axes.flatMap((a) => {
      const m = winMatrix(a, data.models);
      return data.models.flatMap((row, i) => data.models.flatMap((col, j) => (i === j ? [] : [[a.label, row, col, r6(m[i][j].rate), m[i][j].n]])));
    }),
  };
}

export function biasTable(data: PairwiseBlock): TableData {
  return {
    header: ["Axis", "Bias", "Share", "95% CI low", "95% CI high", "Binomial p (vs 1/2)", "Decisive preferences (n)"],
    rows: data.axes.flatMap((a) => [
      [a.label, "Left answer preferred", r6(a.positionBias.share), r6(a.positionBias.ci?.[0]), r6(a.positionBias.ci?.[1]), r6(a.positionBias.pValue), a.positionBias.n],
      [a.label, "Longer answer preferred", r6(a.lengthBias.share), r6(a.lengthBias.ci?.[0]), r6(a.lengthBias.ci?.[1]), r6(a.lengthBias.pValue), a.lengthBias.n],
    ]),
  };
}

export function pairwiseAgreementTable(data: PairwiseBlock): TableData {
  return {
    header: ["Axis", "Comparisons with 2+ primary graders (n)", "Percent agreement", "Fleiss kappa", "Gwet AC1", "AC1 CI low", "AC1 CI high", "Note"],
    rows: data.axes.flatMap((a) => (a.agreement ? [[a.label, a.agreement.comparisons, r6(a.agreement.percent), r6(a.agreement.fleiss), r6(a.agreement.ac1), r6(a.agreement.ac1Ci?.[0]), r6(a.agreement.ac1Ci?.[1]), a.agreement.reason ?? ""]] : [])),
  };
}

function predicted(axis: PairwiseAxisBlock, models: string[], a: string, b: string): number | null {
  return axis.strengths.winProbability?.[models.indexOf(a)]?.[models.indexOf(b)] ?? null;
}
