import { cliffsMagnitude } from "@/lib/stats/cliffs";
import { forestPlot, meansPlot } from "./figures";
import { ci, count, num, pValue } from "./format";
import type { ReportData } from "./load";
import type { ReportFigure, ReportSection, ReportTable } from "./types";

/** The results: the dashboard's own numbers (computeStudyStats with the journal block), as tables and figures. */
export function resultsSection(data: ReportData): ReportSection {
  const { stats } = data;
  const statsCall = "stats?journal=1";
  const tables: ReportTable[] = [];
  const figures: ReportFigure[] = [];
  const journal = stats.journal.data;
  const paragraphs: string[] = [];

  if (journal) {
    const rows = journal.rubrics.flatMap((r) => r.models.flatMap((c) => c.descriptives.map((d) => [c.label, d.model, count(d.n), num(d.mean), num(d.sd), num(d.median), `${num(d.q1)} to ${num(d.q3)}`])));
    tables.push({ id: "descriptives", caption: "Final scores per model (all specialties)", columns: ["Item", "Model", "n", "Mean", "SD", "Median", "IQR (Q1 to Q3)"], rows, note: "n: final response sets with a value (not applicable left out). Quantiles: type 7." });
    // Per specialty: the measures models are compared on (each rubric's total, or its dimensions without one), to keep the table readable.
    const compared = new Set(stats.measures.map((m) => `${m.rubric}/${m.kind}/${m.key}`));
    const specialtyRows = journal.rubrics.flatMap((r) =>
      r.models
        .filter((c) => compared.has(`${r.rubric}/${c.target}/${c.key}`))
        .flatMap((c) => c.bySpecialty.flatMap((g) => g.descriptives.filter((d) => d.n > 0).map((d) => [c.label, g.specialty, d.model, count(d.n), num(d.mean), num(d.sd), num(d.median), `${num(d.q1)} to ${num(d.q3)}`]))),
    );
    if (stats.options.specialties.length > 1 && specialtyRows.length) {
      tables.push({
        id: "descriptives-specialty",
        caption: "Final scores per model and specialty",
        columns: ["Item", "Specialty", "Model", "n", "Mean", "SD", "Median", "IQR (Q1 to Q3)"],
        rows: specialtyRows,
        note: "Specialty: the question's. n: final response sets with a value in the cell; cells without one are left out. Quantiles: type 7.",
      });
    }
    const comparisons = journal.rubrics.flatMap((r) =>
      r.models.flatMap((c) =>
        (c.cliffs?.pairs ?? []).map((p) => {
          const post = c.posthoc.pairs.find((x) => (x.a === p.a && x.b === p.b) || (x.a === p.b && x.b === p.a));
          return [c.label, p.a, p.b, num(p.delta), ci(p.ci), p.delta === null ? "–" : cliffsMagnitude(p.delta), count(p.n + p.m), pValue(post?.pHolm)];
        }),
      ),
    );
    if (comparisons.length) {
      tables.push({
        id: "comparisons",
        caption: "Model comparisons",
        columns: ["Item", "Model A", "Model B", "Cliff's delta", "95% CI", "Magnitude", "n", "p (Wilcoxon, Holm)"],
        rows: comparisons,
        note: "Positive delta: model A's scores tend to be higher. Bootstrap intervals (1,000 resamples, seed 1); Wilcoxon signed-rank tests on items scored for both models, Holm-adjusted.",
      });
    }
    // The headline comparison: the first measure the dashboard compares models on (it has Cliff's delta).
    const candidates = journal.rubrics.flatMap((r) => r.models.map((c) => ({ rubric: r.rubric, c })));
    const lead = candidates.find((x) => x.c.cliffs) ?? candidates[0];
    const first = lead?.c;
    const measure = lead ? stats.measures.find((m) => m.rubric === lead.rubric && m.key === lead.c.key) : undefined;
    if (first && measure) {
      const plot = meansPlot(first.descriptives.map((d) => ({ label: d.model, mean: d.mean, sd: d.sd, n: d.n })), { min: measure.min, max: measure.max }, `${first.label}: mean per model`);
      figures.push({ id: "means", caption: `${first.label}: mean final score per model (dots) with one SD either side (lines), on the item's scale`, ...plot, source: statsCall });
      const pairs = (first.cliffs?.pairs ?? []).map((p) => ({ label: `${p.a} vs ${p.b}`, value: p.delta, ci: p.ci }));
      if (pairs.length) figures.push({ id: "cliffs", caption: `${first.label}: Cliff's delta between models with 95% bootstrap intervals`, ...forestPlot(pairs, `${first.label}: Cliff's delta`), source: statsCall });
    }
  } else {
    paragraphs.push(`Model comparisons are not available: ${stats.journal.reason}.`);
  }

  const reliability: string[][] = [];
  if (stats.alpha.data) {
    for (const b of stats.alpha.data.bars) reliability.push([`Cronbach's alpha (${b.rubric})`, b.specialty, num(b.alpha, 3), ci(b.ci, 3), `${count(b.n)} sets, ${b.k} items`]);
  }
  if (stats.agreement.data) {
    for (const a of stats.agreement.data.rows) {
      reliability.push([`Gwet's ${a.kind === "nominal" ? "AC1" : "AC2"}: ${a.label}`, "All", num(a.gwetAC2.value, 3), ci(a.gwetAC2.ci, 3), `${count(a.units)} ${a.unit === "answer" ? "answers" : "sets"}`]);
      if (a.kind === "ordinal") reliability.push([`${a.iccType === "ICC2k" ? "ICC(2,k)" : "ICC(1,k)"}: ${a.label}`, "All", num(a.icc.value, 3), ci(a.icc.ci, 3), `${count(a.units)} ${a.unit === "answer" ? "answers" : "sets"}`]);
    }
  }
  if (reliability.length) {
    tables.push({ id: "reliability", caption: "Reliability and inter-rater agreement", columns: ["Statistic", "Specialty", "Value", "95% CI", "n"], rows: reliability, note: "Alpha: Feldt's interval. AC2: quadratic weights (AC1 on nominal items). ICC from the k primary ratings." });
  } else {
    paragraphs.push(`Reliability is not available: ${stats.alpha.reason ?? stats.agreement.reason}.`);
  }

  const judges = stats.judges?.data?.judges ?? [];
  if (judges.length) {
    tables.push({
      id: "judges",
      caption: "Automated judges against the clinicians' final scores",
      columns: ["Judge", "Item", "n", "AC2 (AC1 nominal)", "95% CI", "Exact agreement"],
      rows: judges.flatMap((j) => j.dimensions.map((d) => [`${j.judge.name} (${j.judge.model})`, d.label, count(d.n), num(d.ac2.value, 3), ci(d.ac2.ci, 3), num(d.exact.value, 3)])),
    });
  }
  tables.push({
    id: "harm",
    caption: `Potential-harm flags and their review`,
    columns: ["Flags", "Open", "Acknowledged", "Resolved"],
    rows: [[count(data.harm.flags), count(data.harm.open), count(data.harm.acknowledged), count(data.harm.resolved)]],
  });
  const order = ["descriptives", "descriptives-specialty", "reliability", "comparisons", "judges", "harm"];
  tables.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  return { heading: "Results", paragraphs, tables, figures };
}
