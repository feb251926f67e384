"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { fmtPct, progressTable } from "@/lib/analytics/tables";
import type { Block, ProgressBlock, SetStatusKey } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { STATUS_COLOR } from "./colors";
import { fileName } from "./download";
import { Legend } from "./legend";

export const STATUS_NAME: Record<SetStatusKey, string> = {
  AGREED: "Agreed",
  ADJUDICATED: "Adjudicated",
  AWAITING_ADJUDICATION: "Awaiting adjudication",
  AWAITING_GRADES: "Awaiting grades",
};
const ORDER: SetStatusKey[] = ["AGREED", "ADJUDICATED", "AWAITING_ADJUDICATION", "AWAITING_GRADES"];

function StatusBar({ p }: { p: ProgressBlock }) {
  const total = p.sets.total;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex h-4 w-full overflow-hidden rounded-full bg-muted" role="img" aria-label={ORDER.map((s) => `${STATUS_NAME[s]} ${p.sets.byStatus[s]}`).join(", ")}>
        {ORDER.map((s) =>
          p.sets.byStatus[s] > 0 ? <div key={s} style={{ width: `${(100 * p.sets.byStatus[s]) / total}%`, background: STATUS_COLOR[s] }} title={`${STATUS_NAME[s]}: ${p.sets.byStatus[s]}`} /> : null,
        )}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {ORDER.map((s) => (
          <div key={s} className="flex flex-col">
            <dt className="inline-flex items-center gap-1.5 text-xs text-muted-foreground">
              <span aria-hidden className="size-2.5 rounded-sm" style={{ background: STATUS_COLOR[s] }} />
              {STATUS_NAME[s]}
            </dt>
            <dd className="text-lg font-semibold tabular-nums">
              {p.sets.byStatus[s]} <span className="text-xs font-normal text-muted-foreground">{fmtPct(p.sets.byStatus[s] / total)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Sets by status, and each grader's submitted / assigned work. */
export function ProgressPanel({ block, slug, filterTag }: { block: Block<ProgressBlock>; slug: string; filterTag: string }) {
  const p = block.data;
  const graders = p?.graders ?? [];
  const data = graders.map((g) => ({ name: g.name, done: g.done, open: g.assigned - g.done }));
  const legend = [
    { label: "Submitted", color: "#0f4c81" },
    { label: "Still open", color: "#cbd5e1" },
  ];
  const final = p ? p.sets.byStatus.AGREED + p.sets.byStatus.ADJUDICATED : 0;
  return (
    <ChartPanel
      id="progress"
      title="Progress"
      description={
        p
          ? `${final} of ${p.sets.total} response sets have final scores (${fmtPct(final / p.sets.total)}); ${p.assignments.done} of ${p.assignments.assigned} grading assignments submitted.`
          : "Sets by status and each grader's work."
      }
      empty={block.reason}
      csv={p ? { name: fileName(slug, "progress", filterTag), table: progressTable(graders) } : undefined}
      image={p && graders.length ? { name: fileName(slug, "progress", filterTag), title: "Assignments per grader", legend } : undefined}
      chart={
        p ? (
          <figure className="flex flex-col gap-4">
            <StatusBar p={p} />
            {graders.length ? (
              <>
                <BarChart layout="vertical" responsive style={{ width: "100%", height: Math.max(120, 30 * graders.length + 40) }} data={data} margin={{ top: 4, right: 16, bottom: 4, left: 8 }} barCategoryGap="25%">
                  <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
                  <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11, fill: "#64748b" }} />
                  <YAxis type="category" dataKey="name" width={140} tick={{ fontSize: 12, fill: "#334155" }} tickLine={false} />
                  <Tooltip formatter={(value, name) => [String(value), name === "done" ? "Submitted" : "Still open"]} />
                  <Bar dataKey="done" name="done" stackId="a" fill="#0f4c81" isAnimationActive={false} />
                  <Bar dataKey="open" name="open" stackId="a" fill="#cbd5e1" radius={[0, 3, 3, 0]} isAnimationActive={false} />
                </BarChart>
                <Legend entries={legend} />
              </>
            ) : (
              <p className="text-sm text-muted-foreground">No grader has been assigned work yet.</p>
            )}
          </figure>
        ) : null
      }
      table={
        p ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label="Progress per grader">
              <thead className="bg-muted/60 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Grader</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Submitted</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Adjudications</th>
                  <th scope="col" className="px-3 py-2 font-medium">Done</th>
                </tr>
              </thead>
              <tbody>
                {graders.map((g) => (
                  <tr key={g.id} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">
                      {g.name}
                      {g.external ? <span className="ml-1 text-xs font-normal text-muted-foreground">(imported)</span> : g.active ? null : <span className="ml-1 text-xs font-normal text-muted-foreground">(removed)</span>}
                    </th>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {g.done} / {g.assigned}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{g.adjudications}</td>
                    <td className="px-3 py-1.5">
                      <div className="flex items-center gap-2">
                        <div className="h-2 w-20 rounded-full bg-muted" aria-hidden>
                          <div className="h-2 rounded-full bg-primary" style={{ width: `${g.assigned ? (100 * g.done) / g.assigned : 0}%` }} />
                        </div>
                        <span className="text-xs tabular-nums text-muted-foreground">{g.assigned ? fmtPct(g.done / g.assigned) : "—"}</span>
                      </div>
                    </td>
                  </tr>
                ))}
                {graders.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="px-3 py-4 text-center text-muted-foreground">
                      No graders on this study yet.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        ) : null
      }
    />
  );
}

