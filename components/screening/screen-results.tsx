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
            ...(run.judge ? ([["Could not screen", n(run.unscreenedAnswers)]] as const) : []),
            ...(run.action === "exclude" && !result.dryRun
              ? ([
                  ["Assignments withdrawn", n(run.withdrawnAssignments)],
                  ["Graded assignments kept", n(run.keptGradedAssignments)],
                ] as const)
              : []),
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
        {run.judge ? `Automated judge: ${run.judge.endpoint} (${run.judge.model}), ${n(run.judgedAnswers)} answers read. ` : null}
        {run.action === "exclude" && !result.dryRun && run.withdrawnAssignments + run.keptGradedAssignments > 0
          ? `Some excluded sets already had graders: ${n(run.withdrawnAssignments)} ungraded assignments were withdrawn (their graders no longer see them); ${n(run.keptGradedAssignments)} graded ones were kept with their grades.`
          : null}
        {run.action === "exclude" && result.dryRun && run.assignedSets > 0
          ? `${n(run.assignedSets)} of the screened sets already have graders: running the screen withdraws their ungraded assignments and keeps the graded ones.`
          : null}
      </p>
      {result.answers.length === 0 ? (
        <p className="text-sm">{run.judge ? "No answer matched the rules or was flagged by the judge." : "No answer matched the rules."}</p>
      ) : (
        <Table aria-label="Screened answers">
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              <TableHead>Model</TableHead>
              <TableHead>Answer</TableHead>
              <TableHead>Reasons and excerpts</TableHead>
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
                    {a.hits.map((h) =>
                      h.source === "judge" ? (
                        <li key="judge">
                          <Badge variant="warning">{h.name}</Badge>
                          <p className="text-xs break-words">{h.reason}</p>
                        </li>
                      ) : (
                        <li key={h.rule}>
                          <Badge variant="warning">{h.name}</Badge> <span className="text-xs text-muted-foreground">×{h.matches}</span>
                          <p className="font-mono text-xs break-words">{h.excerpt}</p>
                        </li>
                      ),
                    )}
                  </ul>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {result.unscreened.length ? (
        <div className="flex flex-col gap-2" role="region" aria-label="Answers the judge could not screen">
          <p className="text-sm font-medium">
            The judge could not screen {n(result.unscreened.length)} answer{result.unscreened.length === 1 ? "" : "s"}: they were neither passed nor screened out.
            Read them, or run the screen again.
          </p>
          <Table aria-label="Answers not screened">
            <TableHeader>
              <TableRow>
                <TableHead>Item</TableHead>
                <TableHead>Model</TableHead>
                <TableHead>Answer</TableHead>
                <TableHead>Why</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.unscreened.slice(0, SHOWN).map((u) => (
                <TableRow key={u.responseId}>
                  <TableCell className="align-top font-mono text-xs">{u.externalId}</TableCell>
                  <TableCell className="align-top">{u.model}</TableCell>
                  <TableCell className="align-top tabular-nums">{u.repetition}</TableCell>
                  <TableCell className="text-xs break-words">{u.error}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      {result.answers.length > SHOWN ? (
        <p className="text-sm text-muted-foreground">
          The first {SHOWN} of {n(result.answers.length)} screened answers are shown; the JSON dataset holds them all.
        </p>
      ) : null}
    </div>
  );
}
