import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { fmt, fmtCi } from "@/lib/analytics/tables";
import type { JudgePreferenceComparison } from "@/lib/pairwise/judge-agreement";
import type { Figure } from "@/lib/judges/types";

/**
 * A pairwise study's judges against the clinician panel (lib/pairwise/judge-agreement.ts): per
 * axis, the judge's own consistency and position bias, its kappa, AC1 and accuracy against the
 * panel's final preference, and the clinicians' agreement among themselves (the ceiling).
 * Leads only: graders never see judges.
 */
function Fig({ f, ci = false }: { f: Figure; ci?: boolean }) {
  if (f.value === null) return <span title={f.reason ?? undefined}>—</span>;
  return (
    <span className="tabular-nums" title={`n = ${f.n}`}>
      {fmt(f.value)}
      {ci && f.ci ? <span className="text-muted-foreground"> {fmtCi(f.ci)}</span> : null}
    </span>
  );
}

export function JudgePreferencesPanel({ data }: { data: { note: string; judges: JudgePreferenceComparison[] } }) {
  return (
    <Card data-testid="judge-preferences-panel">
      <CardHeader>
        <CardTitle>Automated judges: preferences against the panel</CardTitle>
        <CardDescription>{data.note}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {data.judges.length === 0 ? <p className="text-sm text-muted-foreground">No automated judge yet.</p> : null}
        {data.judges.map((j) => (
          <div key={j.judge.id} className="flex flex-col gap-2" data-testid="judge-preferences">
            <h4 className="font-medium">
              {j.judge.name} <span className="text-sm text-muted-foreground">({j.judge.model || "model not given"} · {j.preferences} preferences)</span>
            </h4>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Axis</TableHead>
                  <TableHead className="text-right">Both orders (n)</TableHead>
                  <TableHead className="text-right">Consistency</TableHead>
                  <TableHead className="text-right">Shown first chosen [95% CI]</TableHead>
                  <TableHead className="text-right">vs panel (n)</TableHead>
                  <TableHead className="text-right">Accuracy</TableHead>
                  <TableHead className="text-right">Cohen κ</TableHead>
                  <TableHead className="text-right">AC1</TableHead>
                  <TableHead className="text-right">Clinicians: % / Fleiss κ / AC1</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {j.axes.map((a) => (
                  <TableRow key={`${a.rubric}.${a.axis}`}>
                    <TableCell>{a.label}</TableCell>
                    <TableCell className="text-right tabular-nums">{a.orders.n}</TableCell>
                    <TableCell className="text-right"><Fig f={a.orders.consistency} /></TableCell>
                    <TableCell className="text-right"><Fig f={a.orders.positionBias} ci /></TableCell>
                    <TableCell className="text-right tabular-nums">{a.vsPanel.n}</TableCell>
                    <TableCell className="text-right"><Fig f={a.vsPanel.accuracy} /></TableCell>
                    <TableCell className="text-right"><Fig f={a.vsPanel.kappa} /></TableCell>
                    <TableCell className="text-right"><Fig f={a.vsPanel.ac1} /></TableCell>
                    <TableCell className="text-right">
                      <Fig f={a.ceiling.percent} /> / <Fig f={a.ceiling.fleiss} /> / <Fig f={a.ceiling.ac1} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
