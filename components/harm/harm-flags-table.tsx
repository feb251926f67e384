"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { apiRequest } from "@/components/studies/api-client";
import { formatDate } from "@/components/studies/labels";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { HarmFlagRow, HarmReviewStatus } from "@/lib/harm/service";

export const REVIEW_LABEL: Record<HarmReviewStatus, { label: string; variant: "warning" | "secondary" | "success" }> = {
  OPEN: { label: "open", variant: "warning" },
  ACKNOWLEDGED: { label: "acknowledged", variant: "secondary" },
  RESOLVED: { label: "resolved", variant: "success" },
};

function ReviewCell({ studyId, row }: { studyId: string; row: HarmFlagRow }) {
  const router = useRouter();
  const [status, setStatus] = useState<HarmReviewStatus>(row.review.status === "OPEN" ? "ACKNOWLEDGED" : row.review.status);
  const [note, setNote] = useState(row.review.note ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `review-${row.assignmentId}`;
  return (
    <form
      className="flex min-w-64 flex-col gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const r = await apiRequest("PATCH", `/api/v1/studies/${studyId}/harm-flags/${row.assignmentId}`, { status, note: note.trim() || undefined });
        setBusy(false);
        if (!r.ok) return setError(r.fieldErrors.note ?? r.error);
        setError(null);
        router.refresh();
      }}
    >
      <div className="flex items-center gap-2">
        <Badge variant={REVIEW_LABEL[row.review.status].variant}>{REVIEW_LABEL[row.review.status].label}</Badge>
        {row.review.reviewer ? (
          <span className="text-xs text-muted-foreground">
            {row.review.reviewer}, {formatDate(row.review.reviewedAt)}
          </span>
        ) : null}
      </div>
      <label className="sr-only" htmlFor={`${id}-status`}>
        Review of the flag on {row.externalId}
      </label>
      <select id={`${id}-status`} className="h-8 rounded-md border border-border bg-background px-2 text-sm" value={status} onChange={(e) => setStatus(e.target.value as HarmReviewStatus)}>
        <option value="ACKNOWLEDGED">Acknowledge</option>
        <option value="RESOLVED">Resolve</option>
        <option value="OPEN">Reopen</option>
      </select>
      <label className="sr-only" htmlFor={`${id}-note`}>
        Note on the flag on {row.externalId}
      </label>
      <textarea
        id={`${id}-note`}
        className="min-h-14 rounded-md border border-border bg-background px-2 py-1 text-sm"
        placeholder="What was done (required to acknowledge or resolve)"
        maxLength={5000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <Button size="sm" variant="outline" type="submit" disabled={busy} className="self-start">
        Save review
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </form>
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
