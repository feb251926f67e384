import { methodsSection, flowSection } from "./sections-methods";
import { resultsSection } from "./sections-results";
import { appendixSection, limitationsSection } from "./sections-appendix";
import { loadReportData } from "./load";
import type { ReportModel } from "./types";

/**
 * The study report's content (issue #36 item 3), from the study as it stands: methods, flow,
 * results, limitations and the reproducibility appendix. Tables and figures are numbered here,
 * in the order they appear, so every format numbers them the same.
 */
export async function buildReport(studyId: string, options: { now?: Date; checksums?: boolean } = {}): Promise<ReportModel | null> {
  const now = options.now ?? new Date();
  const data = await loadReportData(studyId, { checksums: options.checksums });
  if (!data) return null;
  const sections = [methodsSection(data), flowSection(data), resultsSection(data), limitationsSection(data)];
  let t = 0;
  let f = 0;
  for (const s of sections) {
    for (const table of s.tables) table.caption = `Table ${++t}. ${table.caption}`;
    for (const figure of s.figures) figure.caption = `Figure ${++f}. ${figure.caption}`;
  }
  const appendix = appendixSection(data, sections.flatMap((s) => s.figures.map((fig) => ({ caption: fig.caption.split(".")[0], source: fig.source }))));
  for (const table of appendix.tables) table.caption = `Table ${++t}. ${table.caption}`;
  return {
    title: data.study.name,
    subtitle: `Study report${data.study.status === "CLOSED" && data.study.closedAt ? `, closed ${data.study.closedAt.toISOString().slice(0, 10)}` : ` (${data.study.status.toLowerCase()})`}`,
    generatedAt: now.toISOString(),
    sections: [...sections, appendix],
  };
}
