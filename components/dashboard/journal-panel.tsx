"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { journalAgreementCsv, journalComparisonCsv } from "@/lib/analytics/journal-tables";
import { fmt, fmtCi } from "@/lib/analytics/tables";
import type { Block, JournalAgreement, JournalBlock, JournalComparison } from "@/lib/analytics/types";
import { downloadCsv } from "./download";
import { KappaMatricesPanel } from "./kappa-matrices";
import { useRubricName } from "./rubric-names";

/**
 * The statistics journals ask for (GET /stats?journal=1): per dimension and
 * total, pairwise kappa, Kendall's W, the ICC the design supports and alpha;
 * the model comparison. Computed only on request (bootstraps): until then the
 * panel offers the link that asks for them. Every figure, with its convention
 * and n, is in the two CSV downloads.
 */
const MAX_PAIRS_SHOWN = 6;

function KappaCell({ a, names }: { a: JournalAgreement; names: Record<string, string> }) {
  const pairs = a.kappa?.ranks.pairs ?? [];
  if (!pairs.length) return <span title={a.note ?? undefined}>—</span>;
  if (pairs.length > MAX_PAIRS_SHOWN) {
    const values = pairs.map((p) => p.value).filter((v): v is number => v !== null).sort((x, y) => x - y);
    const median = values.length ? values[Math.floor((values.length - 1) / 2)] : null;
    return (
      <span className="tabular-nums">
        median {fmt(median)} over {pairs.length} pairs <span className="text-muted-foreground">(all in the CSV)</span>
      </span>
    );
  }
  return (
    <ul className="flex flex-col gap-0.5">
      {pairs.map((p) => (
        <li key={`${p.a}-${p.b}`} className="tabular-nums">
          {names[p.a] ?? "grader"} – {names[p.b] ?? "grader"}: {fmt(p.value)} <span className="text-muted-foreground">{fmtCi(p.ci)}</span>
        </li>
      ))}
    </ul>
  );
}

function AgreementTable({ rows, names }: { rows: JournalAgreement[]; names: Record<string, string> }) {
  return (
    <Table data-testid="journal-agreement">
      <TableHeader>
        <TableRow>
          <TableHead>Dimension or total</TableHead>
          <TableHead className="text-right">Units</TableHead>
          <TableHead>Kappa, each pair of graders [95% CI]</TableHead>
          <TableHead className="text-right">Kendall&apos;s W (p)</TableHead>
          <TableHead className="text-right">ICC [95% CI]</TableHead>
          <TableHead className="text-right">Krippendorff&apos;s α [95% CI]</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((a) => (
          <TableRow key={`${a.target}-${a.key}`}>
            <TableCell className="font-medium">
              {a.label}
              {a.target === "total" ? <span className="text-muted-foreground"> (total)</span> : null}
            </TableCell>
            <TableCell className="text-right tabular-nums">{a.units}</TableCell>
            <TableCell>
              <KappaCell a={a} names={names} />
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {a.kendallW ? (
                <>
                  {fmt(a.kendallW.uncorrected.value, 3)} <span className="text-muted-foreground">({a.kendallW.uncorrected.p === null ? "—" : a.kendallW.uncorrected.p < 0.001 ? "<0.001" : fmt(a.kendallW.uncorrected.p, 3)})</span>
                </>
              ) : (
                "—"
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums" title={a.icc?.why}>
              {a.icc ? (
                <>
                  {a.icc.label}: {fmt(a.icc.value, 3)} <span className="text-muted-foreground">{fmtCi(a.icc.ci)}</span>
                  <br />
                  {a.icc.single.label}: {fmt(a.icc.single.value, 3)} <span className="text-muted-foreground">{fmtCi(a.icc.single.ci)}</span>
                </>
              ) : (
                "—"
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {fmt(a.krippendorff.value, 3)} <span className="text-muted-foreground">{fmtCi(a.krippendorff.ci)}</span>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ComparisonTable({ c }: { c: JournalComparison }) {
  const f = c.friedman;
  return (
    <div className="flex flex-col gap-2">
      <h5 className="text-sm font-medium">
        {c.label}
        {c.target === "total" ? " (total)" : ""}: Friedman χ² {fmt(f.chiSquare, 2)}, df {f.df}, p {f.p === null ? "—" : f.p < 0.001 ? "<0.001" : fmt(f.p, 3)}, n {f.n}
      </h5>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Model</TableHead>
            <TableHead className="text-right">n</TableHead>
            <TableHead className="text-right">Mean (SD)</TableHead>
            <TableHead className="text-right">Median [IQR]</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {c.descriptives.map((d) => (
            <TableRow key={d.model}>
              <TableCell>{d.model}</TableCell>
              <TableCell className="text-right tabular-nums">{d.n}</TableCell>
              <TableCell className="text-right tabular-nums">
                {fmt(d.mean)} ({fmt(d.sd)})
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {fmt(d.median)} [{fmt(d.q1)}, {fmt(d.q3)}]
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {c.posthoc.pairs.length ? (
        <p className="text-xs text-muted-foreground">
          Wilcoxon signed-rank, Holm-adjusted:{" "}
          {c.posthoc.pairs.map((p) => `${p.a} vs ${p.b} p ${p.pHolm === null ? "—" : p.pHolm < 0.001 ? "<0.001" : fmt(p.pHolm, 3)}`).join("; ")}.
        </p>
      ) : null}
    </div>
  );
}

function RubricSection({ r, names, slug }: { r: JournalBlock["rubrics"][number]; names: Record<string, string>; slug: string }) {
  const rubricName = useRubricName();
  return (
    <section className="flex flex-col gap-3" aria-label={`${rubricName(r.rubric)}: journal statistics`}>
      <h4 className="font-medium">{rubricName(r.rubric)}</h4>
      <AgreementTable rows={r.agreement} names={names} />
      <KappaMatricesPanel rubric={r} names={new Map(Object.entries(names))} slug={slug} />
      {r.models.filter((c) => c.target === "total").map((c) => (
        <ComparisonTable key={c.key} c={c} />
      ))}
    </section>
  );
}

export function JournalPanel({ block, names, computeHref, slug }: { block: Block<JournalBlock>; names: Record<string, string>; computeHref: string; slug: string }) {
  const map = new Map(Object.entries(names));
  return (
    <Card data-testid="journal-panel" id="journal">
      <CardHeader>
        <CardTitle>Reliability and model comparison for a paper</CardTitle>
        <CardDescription>
          Pairwise Cohen&apos;s kappa (quadratic weights on the ranks of the observed values, as scikit-learn; the declared-scale convention is in the CSV), Kendall&apos;s W without tie
          correction, the ICC the design supports, Krippendorff&apos;s alpha with a bootstrap interval; per model descriptives, Friedman and Holm-adjusted Wilcoxon tests.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {block.data === null ? (
          <div className="flex flex-col gap-2 text-sm">
            <p className="text-muted-foreground">{block.reason}</p>
            <p>
              <Link href={computeHref} className="text-primary underline underline-offset-4 hover:decoration-2">
                Compute the journal statistics
              </Link>{" "}
              <span className="text-muted-foreground">(bootstraps: a large study takes some seconds)</span>
            </p>
          </div>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">{block.data.note}</p>
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => downloadCsv(`${slug}-journal-agreement.csv`, journalAgreementCsv(block.data!, map))}>
                Agreement CSV
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => downloadCsv(`${slug}-journal-models.csv`, journalComparisonCsv(block.data!))}>
                Model comparison CSV
              </Button>
            </div>
            {block.data.rubrics.map((r) => (
              <RubricSection key={r.rubric} r={r} names={names} slug={slug} />
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}
