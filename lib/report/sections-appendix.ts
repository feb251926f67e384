import { appVersion } from "@/lib/build/version";
import { JOURNAL_BOOTSTRAP } from "@/lib/analytics/journal";
import { ci, count, DASH, num } from "./format";
import { CHECKSUM_DATASETS } from "./checksums";
import type { ReportData } from "./load";
import type { ReportSection } from "./types";

/** Limitations read from the data: small cells, wide intervals, missing grades, deviations from the protocol. */
export function limitationsSection(data: ReportData): ReportSection {
  const bullets: string[] = [];
  const ranking = data.stats.ranking.data?.rows ?? [];
  const small = ranking.filter((r) => r.n > 0 && r.n < 10);
  if (small.length) bullets.push(`${small.length} model-by-specialty cell${small.length === 1 ? " has" : "s have"} fewer than 10 final sets (smallest n = ${Math.min(...small.map((r) => r.n))}): their means are imprecise.`);
  const wide = (data.stats.alpha.data?.bars ?? []).filter((b) => b.ci && b.ci[1] - b.ci[0] > 0.5);
  if (wide.length) bullets.push(`Cronbach's alpha has a 95% interval wider than 0.5 in ${wide.map((b) => `${b.specialty} (${ci(b.ci, 2)})`).join(", ")}: reliability there is poorly known.`);
  const wideDelta = (data.stats.journal.data?.rubrics ?? []).flatMap((r) => r.models.flatMap((c) => (c.cliffs?.pairs ?? []).filter((p) => p.ci && p.ci[1] - p.ci[0] > 0.6).map((p) => `${c.label}, ${p.a} vs ${p.b}`)));
  if (wideDelta.length) bullets.push(`Cliff's delta has a 95% interval wider than 0.6 for ${wideDelta.slice(0, 5).join("; ")}${wideDelta.length > 5 ? ` and ${wideDelta.length - 5} more` : ""}.`);
  if (data.flow.missingAssignments) bullets.push(`${count(data.flow.missingAssignments)} primary assignment${data.flow.missingAssignments === 1 ? " was" : "s were"} not submitted; ${count(data.flow.sets - data.flow.finalSets)} of ${count(data.flow.sets)} sets have no final score.`);
  if (data.flow.screenedOut) bullets.push(`${count(data.flow.screenedOut)} answers were excluded by the safety screen before grading.`);
  if (!data.protocol.frozen) bullets.push("The analysis plan was not frozen before grading.");
  for (const a of data.protocol.amendments) bullets.push(`Protocol deviation on ${a.at.slice(0, 10)}: ${a.fields.join(", ")} changed (${a.reason}).`);
  if (data.study.status !== "CLOSED") bullets.push("The study is not closed: its figures can still change.");
  if (bullets.length === 0) bullets.push("None found in the data: every cell has at least 10 sets, intervals are narrow, every assignment was submitted and the protocol was followed.");
  return { heading: "Limitations", paragraphs: [], bullets, tables: [], figures: [] };
}

/** How to check and regenerate every number: versions, hashes, seeds, export checksums, API calls. */
export function appendixSection(data: ReportData, figureSources: { caption: string; source: string }[]): ReportSection {
  const software = appVersion();
  const rows: string[][] = [
    ["Software", `${software.name} ${software.version}${software.commit ? ` (commit ${software.commit})` : ""}`],
    ["Protocol SHA-256", data.protocol.sha256 ?? "not frozen"],
    ["Assignment seed", data.study.assignmentSeed ?? "not assigned"],
    ["Bootstrap", `${JOURNAL_BOOTSTRAP.resamples} resamples, seed ${JOURNAL_BOOTSTRAP.seed}, level ${num(JOURNAL_BOOTSTRAP.level, 2)}`],
  ];
  return {
    heading: "Reproducibility appendix",
    paragraphs: ["Every table and figure comes from the same code as the study's dashboard and exports. The checksums below are of the exports as they stand when this report was made; a closed study gives the same files and the same tables."],
    tables: [
      { id: "versions", caption: "Versions, hashes and seeds", columns: ["What", "Value"], rows },
      {
        id: "checksums",
        caption: "Exports the tables can be recomputed from",
        columns: ["Dataset", "Bytes", "SHA-256"],
        rows: data.checksums ? data.checksums.map((c) => [c.dataset, count(c.bytes), c.sha256]) : CHECKSUM_DATASETS.map((d) => [d, DASH, "in the downloaded report"]),
        note: `Each is GET /api/v1/studies/${data.study.id}/export?dataset=<dataset>&format=csv with a lead's token.`,
      },
      { id: "sources", caption: "Where each figure's numbers come from", columns: ["Figure", "API call"], rows: figureSources.map((f) => [f.caption, f.source]), note: `Calls are relative to GET /api/v1/studies/${data.study.id}/.` },
    ],
    figures: [],
  };
}
