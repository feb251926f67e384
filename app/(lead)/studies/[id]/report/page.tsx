import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReportView } from "@/components/report/report-view";
import { buildReport } from "@/lib/report/build";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Study report" };

export default async function StudyReportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  // The preview leaves out the exports' checksums (a full read of each); the files carry them.
  const model = await buildReport(study.id, { checksums: false });
  if (!model) notFound();
  const href = (format: string) => `/api/v1/studies/${study.id}/report?format=${format}`;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">Report</h2>
          <p className="text-sm text-muted-foreground">{model.subtitle}: methods, flow, tables, figures, limitations and the reproducibility appendix, from the study as it stands.</p>
        </div>
        <div className="flex gap-2 text-sm">
          <a className="rounded-md border border-border px-3 py-1.5 hover:bg-muted" href={href("pdf")} download>
            Download PDF
          </a>
          <a className="rounded-md border border-border px-3 py-1.5 hover:bg-muted" href={href("docx")} download>
            Download Word (.docx)
          </a>
          <a className="rounded-md border border-border px-3 py-1.5 hover:bg-muted" href={href("html")}>
            Open as HTML
          </a>
        </div>
      </div>
      <ReportView model={model} />
    </div>
  );
}
