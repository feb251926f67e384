import type { Sensitivity } from "@/lib/grader-quality/contract";

const num = (x: number | null) => (x === null ? "–" : x.toFixed(3));

/** The headline figures as shown, with every grader, and the largest change when one grader is left out (server-rendered). */
export function SensitivityTable({ data }: { data: Sensitivity }) {
  const names = new Map(data.graders.map((g) => [g.graderId, g.name]));
  if (data.figures.length === 0) return <p className="text-sm text-muted-foreground">No headline figure yet: they need final response sets.</p>;
  const biggest = Math.max(0, ...data.figures.map((f) => Math.abs(f.largest?.change ?? 0)));
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted-foreground">{data.note}</p>
      <div tabIndex={0} role="region" aria-label="Sensitivity table" className="max-h-[28rem] overflow-auto rounded-md border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <table className="w-full text-sm" aria-label="Sensitivity of the headline figures to each grader">
          <thead className="sticky top-0 bg-muted text-left text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Figure</th>
              <th scope="col" className="px-3 py-2 text-right font-medium">As shown</th>
              {data.excluded.length ? <th scope="col" className="px-3 py-2 text-right font-medium">With every grader</th> : null}
              <th scope="col" className="px-3 py-2 font-medium">Largest change without one grader</th>
            </tr>
          </thead>
          <tbody>
            {data.figures.map((f) => {
              const top = f.largest && Math.abs(f.largest.change) === biggest && biggest > 0;
              return (
                <tr key={f.key} className={top ? "border-t border-border bg-amber-100 font-medium" : "border-t border-border"} data-largest={top ? "true" : undefined}>
                  <td className="px-3 py-1.5">{f.label}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{num(f.main)}</td>
                  {data.excluded.length ? <td className="px-3 py-1.5 text-right tabular-nums">{num(f.allGraders)}</td> : null}
                  <td className="px-3 py-1.5 tabular-nums">
                    {f.largest ? `${f.largest.change > 0 ? "+" : ""}${f.largest.change.toFixed(3)} without ${names.get(f.largest.graderId) ?? "a grader"}` : "–"}
                    {top ? <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-xs">largest</span> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
