/**
 * The tables behind the dashboard's charts, as plain rows: the same rows are
 * shown beside each chart and downloaded as CSV. Pure, for the client
 * components and the unit tests.
 */
import type { AgreementRow, AlphaBar, CliffsCell, GraderProgress, RadarChart, RankingRow } from "./types";
import { guardFormula } from "@/lib/csv/formula-guard";

export type Cell = string | number | null;
export interface TableData {
  header: string[];
  rows: Cell[][];
}

/** A rubric's name by its key; the panels pass the study's documents' names, the key stands in without them. */
type Names = (rubricKey: string) => string;
const byKey: Names = (r) => r;
export const rubricName = byKey;

/** A number for display: fixed decimals, a real minus sign, "—" for null. */
export function fmt(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const s = Math.abs(v).toFixed(digits);
  return v < 0 && Number(s) !== 0 ? `−${s}` : s;
}
export const fmtSigned = (v: number | null | undefined, digits = 2) => (v !== null && v !== undefined && v > 0 && Number(v.toFixed(digits)) !== 0 ? `+${fmt(v, digits)}` : fmt(v, digits));
export const fmtCi = (ci: [number, number] | null, digits = 2) => (ci ? `[${fmt(ci[0], digits)}, ${fmt(ci[1], digits)}]` : "—");
export const fmtPct = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? "—" : `${(100 * v).toFixed(digits)}%`);

/** Rounds for CSV: full precision is noise, 6 decimals keeps every digit a reader needs. */
const r6 = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1e6) / 1e6);

export function radarTable(chart: RadarChart, names: Names = byKey): TableData {
  const scaled = chart.scale === "fraction";
  return {
    header: ["Rubric", "Specialty", "Model", "n", "Dimension", "Scale min", "Scale max", "Mean", "SD", ...(scaled ? ["(Mean - min) / (max - min)"] : [])],
    rows: chart.series.flatMap((s) =>
      s.points.map((p, i) => [names(chart.rubric), chart.specialty, s.model, s.n, chart.axes[i].label, chart.axes[i].min, chart.axes[i].max, r6(p.mean), r6(p.sd), ...(scaled ? [r6(p.value)] : [])]),
    ),
  };
}

export function alphaTable(bars: AlphaBar[], names: Names = byKey): TableData {
  return {
    header: ["Rubric", "Specialty", "Cronbach's alpha", "95% CI low", "95% CI high", "Sets (n)", "Dimensions (k)", "Note"],
    rows: bars.map((b) => [names(b.rubric), b.specialty, r6(b.alpha), r6(b.ci?.[0]), r6(b.ci?.[1]), b.n, b.k, b.reason ?? ""]),
  };
}

export function cliffsTable(cells: CliffsCell[], names: Names = byKey): TableData {
  return {
    header: ["Rubric", "Measure", "Specialty", "Row model", "Column model", "Cliff's delta (positive = row model better)", "Magnitude", "95% bootstrap CI low", "95% bootstrap CI high", "n (row)", "n (column)"],
    rows: cells.map((c) => [names(c.rubric), c.label, c.specialty, c.rowModel, c.colModel, r6(c.delta), c.magnitude ?? "", r6(c.ci?.[0]), r6(c.ci?.[1]), c.n, c.m]),
  };
}

export function agreementTable(rows: AgreementRow[], names: Names = byKey): TableData {
  return {
    header: [
      "Rubric",
      "Dimension",
      "Scale",
      "Unit",
      "Units",
      "Gwet AC2",
      "AC2 CI low",
      "AC2 CI high",
      "Krippendorff alpha (ordinal)",
      "ICC type",
      "ICC (k raters)",
      "ICC CI low",
      "ICC CI high",
      "ICC (single rater)",
      "Exact agreement",
      "Within one point",
      "Rating pairs",
      "Escalation trigger rate",
      "Threshold",
      "Ratings per value",
      "Why AC2 and alpha differ",
      "Scale kind",
      "Fleiss kappa (nominal)",
    ],
    rows: rows.map((r) => [
      names(r.rubric),
      r.label,
      `${r.scale[0]}-${r.scale[1]}`,
      r.unit,
      r.units,
      r6(r.gwetAC2.value),
      r6(r.gwetAC2.ci?.[0]),
      r6(r.gwetAC2.ci?.[1]),
      r6(r.krippendorff.value),
      r.iccType,
      r6(r.icc.value),
      r6(r.icc.ci?.[0]),
      r6(r.icc.ci?.[1]),
      r6(r.iccSingle.value),
      r6(r.exact.value),
      r6(r.withinOne.value),
      r.pairs,
      r6(r.triggered.value),
      r.threshold,
      r.distribution.map((d) => `${r.categories?.[d.value] ?? d.value}:${d.count}`).join(" "),
      r.paradox ?? "",
      r.kind,
      r6(r.fleiss?.value),
    ]),
  };
}

export function rankingTable(rows: RankingRow[], names: Names = byKey): TableData {
  return {
    header: ["Rubric", "Measure", "Specialty", "Rank", "Model", "n", "Mean", "SD", "Minimum", "Maximum"],
    rows: rows.map((r) => [names(r.rubric), r.label, r.specialty, r.rank, r.model, r.n, r6(r.mean), r6(r.sd), r.min, r.max]),
  };
}

export function progressTable(graders: GraderProgress[]): TableData {
  return {
    header: ["Grader", "Active", "Submitted", "Assigned", "Adjudications", "Done"],
    rows: graders.map((g) => [g.name, g.active ? "yes" : "no", g.done, g.assigned, g.adjudications, g.assigned ? r6(g.done / g.assigned) : null]),
  };
}

/**
 * RFC 4180 CSV (CRLF, quotes doubled). Text that a spreadsheet would run as a
 * formula gets a leading apostrophe (guardFormula, the exports' rule): model
 * and grader names come from users.
 */
export function toCsv(table: TableData): string {
  const cell = (v: Cell): string => {
    if (v === null) return "";
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
    const safe = guardFormula(v);
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return [table.header, ...table.rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}
