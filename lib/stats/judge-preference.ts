/**
 * An automated judge in a pairwise study (pure):
 * - its own order effects, from the two replies it gave on each comparison and axis (left answer
 *   shown first, then the right one): consistency is the share of (comparison, axis) whose two
 *   replies agree once mapped back to the comparison's sides; position bias is the share of
 *   decisive replies that chose the answer shown first, with its binomial test against one half;
 * - its agreement with the panel's final majority on the three categories (left / tie / right):
 *   Cohen's kappa (unweighted), Gwet's AC1 and accuracy (share of identical choices);
 * - the clinicians' own ceiling: agreement among the primary graders of the same comparisons
 *   (percent agreement, Fleiss' kappa, AC1), as the pairwise statistics measure it.
 */
import { cohenKappa, type CohenResult } from "./cohen";
import { fleissKappa, type FleissResult } from "./fleiss";
import { gwetAC1, type GwetResult } from "./gwet";
import { shareTest, type ShareTest } from "./preference";

export type SideChoice = "LEFT" | "RIGHT" | "TIE";
const CATEGORIES: SideChoice[] = ["LEFT", "TIE", "RIGHT"];

export interface OrderEffects {
  /** (comparison, axis) asked in both orders. */
  n: number;
  /** Share of them whose two replies agree after the swap; null without any. */
  consistency: number | null;
  /** Decisive replies (of 2n) choosing the answer shown first. */
  positionBias: ShareTest;
}

export function judgeOrderEffects(rows: ReadonlyArray<{ leftFirst: SideChoice; rightFirst: SideChoice }>, level = 0.95): OrderEffects {
  let agree = 0;
  let first = 0;
  let decisive = 0;
  for (const r of rows) {
    if (r.leftFirst === r.rightFirst) agree++;
    // Shown first: the left answer in the first order, the right one in the swapped order.
    for (const [reply, shownFirst] of [[r.leftFirst, "LEFT"], [r.rightFirst, "RIGHT"]] as const) {
      if (reply === "TIE") continue;
      decisive++;
      if (reply === shownFirst) first++;
    }
  }
  return { n: rows.length, consistency: rows.length ? agree / rows.length : null, positionBias: shareTest(first, decisive, level) };
}

export interface JudgeVsPanel {
  n: number;
  accuracy: number | null;
  kappa: CohenResult;
  ac1: GwetResult;
}

/** The judge's choice against the panel's final one, per comparison (of one axis). */
export function judgeVsPanel(pairs: ReadonlyArray<{ judge: SideChoice; panel: SideChoice }>): JudgeVsPanel {
  const rows = pairs.map((p) => [p.judge, p.panel]);
  return {
    n: pairs.length,
    accuracy: pairs.length ? pairs.filter((p) => p.judge === p.panel).length / pairs.length : null,
    kappa: cohenKappa(rows, { categories: CATEGORIES }),
    ac1: gwetAC1(rows, { categories: CATEGORIES }),
  };
}

export interface ClinicianCeiling {
  comparisons: number;
  percent: number | null;
  fleiss: FleissResult;
  ac1: GwetResult;
}

/** Agreement among the clinicians: one row per comparison with its primary graders' choices (two or more). */
export function clinicianCeiling(units: ReadonlyArray<ReadonlyArray<SideChoice>>): ClinicianCeiling {
  const matrix = units.filter((u) => u.length >= 2);
  const fleiss = fleissKappa(matrix, { categories: CATEGORIES });
  return { comparisons: matrix.length, percent: fleiss.pa, fleiss, ac1: gwetAC1(matrix, { categories: CATEGORIES }) };
}
