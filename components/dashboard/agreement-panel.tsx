"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { agreementTable, fmt, fmtCi, fmtPct } from "@/lib/analytics/tables";
import type { AgreementBlock, Block, Estimate } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { useRubricName } from "./rubric-names";
import { fileName } from "./download";
import { Legend } from "./legend";

const AC2 = "#0f4c81";
const KRIPP = "#0f8b8d";
const ICC_LABEL = { ICC1k: { k: "ICC(1,k)", one: "ICC(1,1)" }, ICC2k: { k: "ICC(2,k)", one: "ICC(2,1)" } } as const;

function Value({ e, digits = 2, ci = false }: { e: Estimate; digits?: number; ci?: boolean }) {
  if (e.value === null) {
    return (
      <span className="text-muted-foreground" title={e.reason ?? undefined}>
        n/a
      </span>
    );
  }
  return (
    <>
      <span className="font-medium">{fmt(e.value, digits)}</span>
      {ci && e.ci ? <span className="block text-xs text-muted-foreground">{fmtCi(e.ci, digits)}</span> : null}
    </>
  );
}

/** Agreement between the primary graders per dimension: Gwet's AC2, Krippendorff's alpha, ICC, percent agreement, escalation triggers. */
export function AgreementPanel({ block, slug, filterTag }: { block: Block<AgreementBlock>; slug: string; filterTag: string }) {
  const rubricName = useRubricName();
  const a = block.data;
  const rows = a?.rows ?? [];
  const icc = ICC_LABEL[rows[0]?.iccType ?? "ICC1k"];
  const twoRubrics = new Set(rows.map((r) => r.rubric)).size > 1;
  const data = rows.map((r) => ({
    label: r.label,
    ac2: r.gwetAC2.value,
    ac2Err: r.gwetAC2.value !== null && r.gwetAC2.ci ? [r.gwetAC2.value - r.gwetAC2.ci[0], r.gwetAC2.ci[1] - r.gwetAC2.value] : null,
    kripp: r.krippendorff.value,
  }));
  const lows = rows.flatMap((r) => [r.gwetAC2.ci?.[0] ?? r.gwetAC2.value ?? 0, r.krippendorff.value ?? 0]);
  const xMin = Math.min(0, Math.floor(Math.min(...lows, 0) * 5) / 5);
  const legend = [
    { label: "Gwet's AC2 (95% CI)", color: AC2 },
    { label: "Krippendorff's α (ordinal)", color: KRIPP },
  ];
  return (
    <ChartPanel
      id="agreement"
      title="Inter-rater agreement of the primary graders"
      description={
        a ? (
          <>
            Escalation rate:{" "}
            <strong className="font-medium text-foreground">
              {fmtPct(a.escalation.rate, 1)} ({a.escalation.escalated} of {a.escalation.completed} completed sets went to a third grader)
            </strong>
            . {a.design === "crossed" ? "The same graders graded every set." : "Sets were graded by different graders from the study's pool."}
          </>
        ) : (
          "How closely the primary graders agree, dimension by dimension."
        )
      }
      empty={block.reason}
      layout="stacked"
      csv={a ? { name: fileName(slug, "agreement", filterTag), table: agreementTable(rows, rubricName) } : undefined}
      image={a ? { name: fileName(slug, "agreement", filterTag), title: "Agreement between primary graders by dimension", legend } : undefined}
      chart={
        a ? (
          <figure className="flex flex-col gap-2">
            <BarChart
              layout="vertical"
              responsive
              style={{ width: "100%", height: Math.max(180, 34 * rows.length + 50) }}
              data={data}
              margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
              barCategoryGap="22%"
            >
              <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
              <XAxis type="number" domain={[xMin, 1]} tickCount={Math.round((1 - xMin) * 5) + 1} tick={{ fontSize: 11, fill: "#64748b" }} tickFormatter={(v: number) => fmt(v, 1)} />
              <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 12, fill: "#334155" }} tickLine={false} />
              <ReferenceLine x={0} stroke="#64748b" />
              <Tooltip formatter={(value, name) => [value === null || value === undefined ? "n/a" : fmt(Number(value), 3), name === "ac2" ? "Gwet's AC2" : "Krippendorff's α"]} />
              <Bar dataKey="ac2" name="ac2" fill={AC2} radius={[0, 3, 3, 0]} isAnimationActive={false}>
                <ErrorBar dataKey="ac2Err" width={6} strokeWidth={1.5} stroke="#0f172a" direction="x" />
              </Bar>
              <Bar dataKey="kripp" name="kripp" fill={KRIPP} radius={[0, 3, 3, 0]} isAnimationActive={false} />
            </BarChart>
            <Legend entries={legend} />
          </figure>
        ) : null
      }
      table={
        a ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label="Inter-rater agreement per dimension">
              <thead className="bg-muted/60 text-left align-bottom text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Dimension</th>
                  <th scope="col" className="px-3 py-2 font-medium">Rated per</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Units</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Gwet&apos;s AC2</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Krippendorff&apos;s α</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">{icc.k}</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">{icc.one}</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Exact</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Within 1</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium" title="Share of sets where this dimension's spread reached the escalation threshold">
                    Escalation trigger
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">Scores given</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={`${r.rubric}-${r.dimension}`} className={i > 0 && rows[i - 1].rubric !== r.rubric ? "border-t-2 border-border" : "border-t border-border"}>
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">
                      {r.label}
                      <span className="block text-xs font-normal text-muted-foreground">
                        {twoRubrics ? `${rubricName(r.rubric)}, ` : ""}
                        {r.kind === "nominal" ? `${r.categories?.length ?? 0} categories` : `${r.scale[0]}-${r.scale[1]}`}
                      </span>
                    </th>
                    <td className="px-3 py-1.5">{r.unit === "answer" ? "answer" : "set"}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{r.units}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      <Value e={r.gwetAC2} ci />
                      {r.kind === "nominal" ? (
                        <span className="block text-xs text-muted-foreground">
                          AC1; Fleiss κ {r.fleiss?.value === null || r.fleiss?.value === undefined ? "n/a" : fmt(r.fleiss.value, 2)}
                        </span>
                      ) : null}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      <Value e={r.krippendorff} />
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      <Value e={r.icc} ci />
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      <Value e={r.iccSingle} />
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmtPct(r.exact.value)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmtPct(r.withinOne.value)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums" title={r.threshold !== null ? `spread ≥ ${r.threshold}` : undefined}>
                      {fmtPct(r.triggered.value)}
                    </td>
                    <td className="px-3 py-1.5">
                      <Distribution d={r.distribution.map((x) => ({ ...x, value: r.categories ? x.value + 1 : x.value }))} label={r.label} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null
      }
      footer={
        a ? (
          <>
            <p>{a.note}</p>
            {rows
              .filter((r) => r.paradox)
              .map((r) => (
                <p key={`${r.rubric}-${r.dimension}-paradox`} className="mt-2" data-testid="agreement-paradox">
                  <strong className="font-semibold text-foreground">
                    {r.label}: AC2 {fmt(r.gwetAC2.value ?? 0, 2)} beside α {fmt(r.krippendorff.value ?? 0, 2)}.
                  </strong>{" "}
                  {r.paradox}
                </p>
              ))}
          </>
        ) : null
      }
    />
  );
}

/** The count of ratings per scale value, as a small bar strip with the numbers beside (so a skewed scale is seen at a glance). */
function Distribution({ d, label }: { d: { value: number; count: number }[]; label: string }) {
  const max = Math.max(1, ...d.map((x) => x.count));
  const total = d.reduce((n, x) => n + x.count, 0);
  return (
    <span className="inline-flex items-end gap-0.5" role="img" aria-label={`${label}: ${d.map((x) => `${x.count} rated ${x.value}`).join(", ")} (of ${total})`}>
      {d.map((x) => (
        <span key={x.value} className="flex flex-col items-center text-[0.625rem] leading-none text-muted-foreground tabular-nums" aria-hidden>
          <span className="w-3 rounded-sm bg-primary/70" style={{ height: `${Math.max(1, Math.round((20 * x.count) / max))}px` }} />
          <span className="mt-0.5">{x.value}</span>
        </span>
      ))}
    </span>
  );
}
