import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";
import { listStudiesFor } from "@/lib/studies/queries";

export const metadata: Metadata = { title: "Studies" };

const RUBRIC_LABEL = { SCORE: "S.C.O.R.E.", SAFE_LLM: "SAFE-LLM" } as const;
const STATUS_VARIANT = { DRAFT: "secondary", OPEN: "success", CLOSED: "outline" } as const;

export default async function StudiesPage() {
  const user = await requireUser(LEAD_ROLES);
  const studies = await listStudiesFor(user);
  return (
    <section className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Studies</h1>
        <p className="text-sm text-muted-foreground">
          {user.role === "ADMIN" ? "Every study on this instance." : "The grading studies you lead."}
        </p>
      </div>
      {studies.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-8 text-center text-muted-foreground">
          No studies yet.
        </p>
      ) : (
        <Table aria-label="Studies">
          <TableHeader>
            <TableRow>
              <TableHead>Study</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Rubrics</TableHead>
              <TableHead className="text-right">Questions</TableHead>
              <TableHead className="text-right">Answer sets</TableHead>
              <TableHead className="text-right">N × k</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {studies.map((s) => (
              <TableRow key={s.id}>
                <TableCell className="font-medium">{s.name}</TableCell>
                <TableCell>
                  <Badge variant={STATUS_VARIANT[s.status]}>{s.status.toLowerCase()}</Badge>
                </TableCell>
                <TableCell>{s.rubrics.map((r) => RUBRIC_LABEL[r]).join(" + ")}</TableCell>
                <TableCell className="text-right tabular-nums">{s.items}</TableCell>
                <TableCell className="text-right tabular-nums">{s.responseSets}</TableCell>
                <TableCell className="text-right tabular-nums" title="answers per prompt × primary graders per set">
                  {s.repetitions} × {s.gradersPerSet}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
