import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { fmt, fmtCi, fmtSigned } from "@/lib/analytics/tables";
import type { Block } from "@/lib/analytics/types";
import type { Figure, JudgeComparison, JudgesBlock } from "@/lib/judges/types";

/**
 * Automated judges against the clinician panel (lib/judges/compare.ts): per
 * dimension and reading, the judge's agreement next to the clinicians' own
 * (the ceiling), the totals, the model ranking, length bias and deferral.
 * Leads only: graders never see judges.
 */
const READING = { most_probable: "most probable", expected: "expected score" } as const;

function Fig({ f, ci = false }: { f: Figure; ci?: boolean }) {
  if (f.value === null) return <span title={f.reason ?? undefined}>—</span>;
  return (
    <span className="tabular-nums" title={`n = ${f.n}`}>
      {fmt(f.value)}
      {ci && f.ci ? <span className="text-muted-foreground"> {fmtCi(f.ci)}</span> : null}
    </span>
  );
}

function JudgeSection({ j: all }: { j: JudgeComparison }) {
  // A judge may score only some dimensions: rows it never scored would be all dashes.
  const j = { ...all, dimensions: all.dimensions.filter((d) => d.n > 0), totals: all.totals.filter((t) => t.n > 0), deferral: all.deferral.filter((d) => d.points[0] && d.points[0].kept + d.points[0].deferred > 0) };
  return (
    <div className="flex flex-col gap-4" data-testid="judge-section">
      <h4 className="font-medium">
        {j.judge.name} <span className="text-sm text-muted-foreground">({j.judge.model}{j.judge.version ? ` ${j.judge.version}` : ""} · {j.judgments} judgments, {j.withProbabilities} with probabilities{j.hybrid ? ` · hybrid: final on ${j.hybrid.finalSets} sets at cutoff ${j.hybrid.cutoff}` : ""})</span>
      </h4>
      <Table data-testid="judge-dimensions">
        <TableHeader>
          <TableRow>
            <TableHead>Dimension</TableHead>
            <TableHead>Reading</TableHead>
            <TableHead className="text-right">n</TableHead>
            <TableHead className="text-right">AC2 vs panel</TableHead>
            <TableHead className="text-right">Clinicians (ceiling)</TableHead>
            <TableHead className="text-right">Weighted κ</TableHead>
            <TableHead className="text-right">ICC(3,k)</TableHead>
            <TableHead className="text-right">ICC(2,1)</TableHead>
            <TableHead className="text-right">Spearman</TableHead>
            <TableHead className="text-right">Mean diff. [limits]</TableHead>
            <TableHead className="text-right">Macro F1</TableHead>
            <TableHead>Judge − clinician AC2 [95% CI]</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {j.dimensions.map((d) => (
            <TableRow key={`${d.rubric}.${d.dimension}.${d.reading}`}>
              <TableCell>{d.label}</TableCell>
              <TableCell>{READING[d.reading]}</TableCell>
              <TableCell className="text-right tabular-nums">{d.n}</TableCell>
              <TableCell className="text-right"><Fig f={d.ac2} ci /></TableCell>
              <TableCell className="text-right"><Fig f={d.ceiling.ac2} /></TableCell>
              <TableCell className="text-right"><Fig f={d.kappa} /></TableCell>
              <TableCell className="text-right"><Fig f={d.icc3k} /></TableCell>
              <TableCell className="text-right"><Fig f={d.icc21} /></TableCell>
              <TableCell className="text-right"><Fig f={d.spearman} /></TableCell>
              <TableCell className="text-right tabular-nums">{d.blandAltman.bias === null ? "—" : `${fmtSigned(d.blandAltman.bias)} ${fmtCi(d.blandAltman.limits)}`}</TableCell>
              <TableCell className="text-right">{d.macroF1 ? <Fig f={d.macroF1} /> : "—"}</TableCell>
              <TableCell className="whitespace-nowrap text-xs">
                {d.clinicians.map((c) => (
                  <div key={c.grader.id}>
                    {c.grader.name}: {c.difference.value === null ? "—" : `${fmtSigned(c.difference.value)} ${fmtCi(c.difference.ci)}`}
                  </div>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {/* A rubric without a total (or no final set with the judge's totals): no Total table at all. */}
      {j.totals.length > 0 ? (
        <Table data-testid="judge-totals">
          <TableHeader>
            <TableRow>
              <TableHead>Total</TableHead>
              <TableHead>Reading</TableHead>
              <TableHead className="text-right">n</TableHead>
              <TableHead className="text-right">ICC(3,k)</TableHead>
              <TableHead className="text-right">ICC(2,1)</TableHead>
              <TableHead className="text-right">Spearman</TableHead>
              <TableHead className="text-right">Mean diff. [limits]</TableHead>
              <TableHead className="text-right">Model ranking τ</TableHead>
              <TableHead className="text-right">Length ρ judge / panel</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {j.totals.map((t) => {
              const rank = j.ranking.find((r) => r.rubric === t.rubric && r.total === t.total && r.reading === t.reading);
              const len = j.lengthBias.find((r) => r.rubric === t.rubric && r.total === t.total && r.reading === t.reading);
              return (
                <TableRow key={`${t.rubric}.${t.total}.${t.reading}`}>
                  <TableCell>{t.label}</TableCell>
                  <TableCell>{READING[t.reading]}</TableCell>
                  <TableCell className="text-right tabular-nums">{t.n}</TableCell>
                  <TableCell className="text-right"><Fig f={t.icc3k} ci /></TableCell>
                  <TableCell className="text-right"><Fig f={t.icc21} /></TableCell>
                  <TableCell className="text-right"><Fig f={t.spearman} /></TableCell>
                  <TableCell className="text-right tabular-nums">{t.blandAltman.bias === null ? "—" : `${fmtSigned(t.blandAltman.bias)} ${fmtCi(t.blandAltman.limits)}`}</TableCell>
                  <TableCell className="text-right">{rank ? <Fig f={rank.tau} /> : "—"}</TableCell>
                  <TableCell className="text-right">{len ? <><Fig f={len.judge} /> / <Fig f={len.panel} /></> : "—"}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
      {j.dimensions.length === 0 ? <p className="text-sm text-muted-foreground">No final set has this judge&apos;s scores yet.</p> : null}
      {j.deferral.length > 0 ? (
        <Table data-testid="judge-deferral">
          <TableHeader>
            <TableRow>
              <TableHead>Deferral: cutoff</TableHead>
              {j.deferral[0].points.map((p) => (
                <TableHead key={p.cutoff} className="text-right">{p.cutoff.toFixed(1)}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {j.deferral.map((d) => (
              <TableRow key={`${d.rubric}.${d.dimension}`}>
                <TableCell>{d.dimension}: AC2 kept (deferred %)</TableCell>
                {d.points.map((p) => (
                  <TableCell key={p.cutoff} className="text-right tabular-nums">
                    {fmt(p.agreementKept)} ({p.deferredShare === null ? "—" : Math.round(100 * p.deferredShare)}%)
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm text-muted-foreground">No confidence per judgment (no probabilities nor samples): nothing to defer.</p>
      )}
    </div>
  );
}

export function JudgesPanel({ block }: { block: Block<JudgesBlock> | undefined }) {
  return (
    <Card id="judges" data-testid="judges-panel">
      <CardHeader>
        <CardTitle>Automated judges vs the panel</CardTitle>
        <CardDescription>{block?.data?.note ?? block?.reason ?? "No automated judge."}</CardDescription>
      </CardHeader>
      {block?.data ? (
        <CardContent className="flex flex-col gap-8 overflow-x-auto">
          {block.data.judges.map((j) => (
            <JudgeSection key={j.judge.id} j={j} />
          ))}
        </CardContent>
      ) : null}
    </Card>
  );
}
