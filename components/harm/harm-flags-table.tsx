"use client";

import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { NoteDecisionForm } from "@/components/review/note-decision-form";
import { formatDate } from "@/components/studies/labels";
import { Badge } from "@/components/ui/badge";
import type { HarmFlagRow, HarmReviewStatus } from "@/lib/harm/service";

export const REVIEW_LABEL: Record<HarmReviewStatus, { label: string; variant: "warning" | "secondary" | "success" }> = {
  OPEN: { label: "open", variant: "warning" },
  ACKNOWLEDGED: { label: "acknowledged", variant: "secondary" },
  RESOLVED: { label: "resolved", variant: "success" },
};

const REVIEW_OPTIONS = [
  { value: "ACKNOWLEDGED", label: "Acknowledge" },
  { value: "RESOLVED", label: "Resolve" },
  { value: "OPEN", label: "Reopen" },
] as const;

function ReviewCell({ studyId, row }: { studyId: string; row: HarmFlagRow }) {
  return (
    <NoteDecisionForm<HarmReviewStatus>
      id={`review-${row.assignmentId}`}
      subject={{ choice: `Review of the flag on ${row.externalId}`, note: `Note on the flag on ${row.externalId}` }}
      options={REVIEW_OPTIONS}
      initial={row.review.status === "OPEN" ? "ACKNOWLEDGED" : row.review.status}
      note={row.review.note ?? ""}
      notePlaceholder="What was done (required to acknowledge or resolve)"
      noteMaxLength={5000}
      submitLabel="Save review"
      request={(status, note) => ({ method: "PATCH", url: `/api/v1/studies/${studyId}/harm-flags/${row.assignmentId}`, body: { status, note: note.trim() || undefined } })}
    >
      <div className="flex items-center gap-2">
        <Badge variant={REVIEW_LABEL[row.review.status].variant}>{REVIEW_LABEL[row.review.status].label}</Badge>
        {row.review.reviewer ? (
          <span className="text-xs text-muted-foreground">
            {row.review.reviewer}, {formatDate(row.review.reviewedAt)}
          </span>
        ) : null}
      </div>
    </NoteDecisionForm>
  );
}

export function HarmFlagsTable({ studyId, page, sort }: { studyId: string; page: Page<HarmFlagRow>; sort: string }) {
  const col = dataTableColumns<HarmFlagRow>();
  const columns = col.columns([
    col.accessor("externalId", {
      header: "Set",
      cell: (c) => (
        <span>
          <span className="font-mono text-xs">{c.getValue()}</span> <span className="text-muted-foreground">· {c.row.original.model}</span>
          <span className="block text-xs text-muted-foreground">{c.row.original.specialty}</span>
        </span>
      ),
    }),
    col.accessor("grader", {
      header: "Grader",
      cell: (c) => (
        <span>
          {c.getValue()}
          <span className="block text-xs text-muted-foreground">
            {c.row.original.kind === "ADJUDICATOR" ? "adjudicator" : "primary"}
            {c.row.original.submitted ? "" : ", draft not submitted"}
          </span>
        </span>
      ),
    }),
    col.accessor("comment", { header: "Why the grader flagged it", enableSorting: false, cell: (c) => <p className="max-w-md whitespace-pre-wrap text-sm">{c.getValue()}</p> }),
    col.accessor("scores", {
      header: "The grader's scores",
      enableSorting: false,
      cell: (c) => (
        <ul className="text-xs">
          {c.getValue().map((s) => (
            <li key={`${s.rubric}-${s.dimension}-${s.repetition}`} className={s.acrossHarmLine ? "font-semibold text-destructive" : undefined}>
              {s.name}
              {s.repetition ? ` (answer ${s.repetition})` : ""}: <span className="font-medium">{s.label ?? String(s.value)}</span>
              {s.label && typeof s.value === "number" ? <span className="tabular-nums text-muted-foreground"> ({s.value})</span> : null}
              {s.acrossHarmLine ? <span className="sr-only"> (across the harm line)</span> : null}
            </li>
          ))}
        </ul>
      ),
    }),
    col.accessor("flaggedAt", { id: "flaggedAt", header: "When", cell: (c) => formatDate(c.getValue()) }),
    col.display({ id: "review", header: "Review", cell: (c) => <ReviewCell studyId={studyId} row={c.row.original} /> }),
  ]);
  const filters: FilterDef[] = [
    {
      kind: "select",
      param: "review",
      label: "Review",
      allLabel: "All flags",
      options: Object.entries(REVIEW_LABEL).map(([value, s]) => ({ value, label: s.label })),
    },
  ];
  return (
    <DataTable
      label="Potential-harm flags"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={(r) => r.assignmentId}
      empty="No potential-harm flags match: graders raise one when an answer could harm a patient."
      filters={filters}
    />
  );
}
