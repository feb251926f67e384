import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ComparisonEscalationRow } from "@/lib/pairwise/escalation-queries";
import { AssignCell } from "./escalations-table";

const STATUS: Record<ComparisonEscalationRow["status"], { label: string; variant: "warning" | "secondary" | "success" | "outline" }> = {
  NEEDS_GRADER: { label: "needs a grader", variant: "warning" },
  ASSIGNED: { label: "with adjudicator", variant: "secondary" },
  RESOLVED: { label: "adjudicated", variant: "success" },
  CANCELLED: { label: "cancelled", variant: "outline" },
};

/** A pairwise study's escalations: the axes on which primary graders preferred opposite answers, each choice under a pseudonym, the adjudicator. */
export function ComparisonEscalationsTable({ rows, graders }: { rows: ComparisonEscalationRow[]; graders: { id: string; name: string }[] }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No comparison has escalated.</p>;
  return (
    <Table data-testid="comparison-escalations">
      <TableHeader>
        <TableRow>
          <TableHead>Question</TableHead>
          <TableHead>Left / right</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Disagreement</TableHead>
          <TableHead>Adjudicator</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.id}>
            <TableCell>
              {r.externalId} <span className="text-xs text-muted-foreground">{r.specialty}</span>
            </TableCell>
            <TableCell>
              {r.left} / {r.right}
            </TableCell>
            <TableCell>
              <Badge variant={STATUS[r.status].variant}>{STATUS[r.status].label}</Badge>
            </TableCell>
            <TableCell>
              <ul className="text-sm">
                {r.axes.map((a) => (
                  <li key={`${a.rubric}.${a.axis}`}>
                    {a.name}: {a.choices.map((c) => `${c.grader} ${c.choice}${c.model ? ` (${c.model})` : ""}`).join(", ")}
                  </li>
                ))}
              </ul>
            </TableCell>
            <TableCell>
              <AssignCell row={r} graders={graders} route="comparison-escalations" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
