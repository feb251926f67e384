import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ScreeningResultBody } from "@/lib/screening/contract";

/** A screen's run and every answer it screened out, for the lead (models named: leads are unblinded). */

const n = (x: number) => x.toLocaleString("en");
const SHOWN = 500;

export function ScreenResults({ result }: { result: ScreeningResultBody }) {
  const run = result.run;
  if (!run) return <p className="text-sm text-muted-foreground">The study&apos;s answers have not been screened yet.</p>;
  const shown = result.answers.slice(0, SHOWN);
  return (
    <div className="flex flex-col gap-4" data-testid={result.dryRun ? "screen-dry-run" : "screen-results"}>
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4" aria-label="Screen counts">
        {(
          [
            ["Answers read", n(run.answers)],
            ["Answers screened out", n(run.screenedAnswers)],
            ["Sets concerned", n(run.screenedSets)],
            ["Mode", run.action === "warn" ? "Warn graders" : "Exclude from assignment"],
          ] as const
        ).map(([label, value]) => (
          <div key={label}>
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted-foreground">
        {result.dryRun ? "Dry run: nothing was stored. " : `Run by ${run.ranBy.name} on ${new Date(run.ranAt).toUTCString()}. `}
        {run.action === "exclude" && run.assignedSets > 0
          ? `${n(run.assignedSets)} of the screened sets already have graders: exclusion keeps sets out of later assignment runs only.`
          : null}
      </p>
      {result.answers.length === 0 ? (
        <p className="text-sm">No answer matched the rules.</p>
      ) : (
        <Table aria-label="Screened answers">
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead>Model</TableHead>
              <TableHead>Answer</TableHead>
              <TableHead>Rules and excerpts</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((a) => (
              <TableRow key={a.responseId}>
                <TableCell className="align-top font-mono text-xs">{a.externalId}</TableCell>
                <TableCell className="align-top">{a.model}</TableCell>
                <TableCell className="align-top tabular-nums">{a.repetition}</TableCell>
                <TableCell>
                  <ul className="flex flex-col gap-1">
                    {a.hits.map((h) => (
                      <li key={h.rule}>
                        <Badge variant="warning">{h.name}</Badge> <span className="text-xs text-muted-foreground">×{h.matches}</span>
                        <p className="font-mono text-xs break-words">{h.excerpt}</p>
                      </li>
                    ))}
                  </ul>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {result.answers.length > SHOWN ? (
        <p className="text-sm text-muted-foreground">
          The first {SHOWN} of {n(result.answers.length)} screened answers are shown; the JSON dataset holds them all.
        </p>
      ) : null}
    </div>
  );
}
