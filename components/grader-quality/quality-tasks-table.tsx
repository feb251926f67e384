import type { GraderQualityReport } from "@/lib/grader-quality/contract";

const num = (x: number | null, d = 2) => (x === null ? "–" : x.toFixed(d));
const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const range = (ci: [number, number] | null, f: (x: number) => string) => (ci ? ` (${f(ci[0])} to ${f(ci[1])})` : "");
const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;

/**
 * Gold accuracy and bias, intra-rater reliability per dimension and calibration, per grader
 * (issue #35, items 1-3): the same figures as the API's `gold`, `intraRater` and `calibration`.
 */
export function QualityTasksTable({ report }: { report: GraderQualityReport }) {
  const dims = report.dimensions.map((d) => d.key);
  const first = report.graders[0];
  return (
    <div className="flex flex-col gap-3">
      {first ? (
        <p className="text-sm text-muted-foreground">
          {first.gold.note} {first.intraRater.note} {first.calibration.note}
        </p>
      ) : null}
      <div tabIndex={0} role="region" aria-label="Gold, re-grade and calibration table" className="overflow-auto rounded-md border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <table className="w-full text-sm">
          <caption className="sr-only">Gold accuracy, intra-rater reliability and calibration per grader</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="py-2 pr-3 font-medium">
                Grader
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Gold accuracy
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Gold bias (points)
              </th>
              {dims.map((d) => (
                <th key={d} scope="col" className="py-2 pr-3 text-right font-medium">
                  Intra-rater {d} (κ / ICC)
                </th>
              ))}
              <th scope="col" className="py-2 pr-3 font-medium">
                Calibration
              </th>
            </tr>
          </thead>
          <tbody>
            {report.graders.map((g) => (
              <tr key={g.graderId} className="border-b last:border-0">
                <th scope="row" className="py-2 pr-3 text-left font-normal whitespace-nowrap">
                  {g.name}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                  {pct(g.gold.accuracy)}
                  {range(g.gold.accuracyCi, pct)} <span className="text-xs text-muted-foreground">n={g.gold.n}</span>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                  {g.gold.bias === null ? "–" : signed(g.gold.bias)}
                  {range(g.gold.biasCi, signed)}
                </td>
                {dims.map((d) => {
                  const x = g.intraRater.byDimension.find((b) => b.dimension === d);
                  return (
                    <td key={d} className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                      {x ? (
                        <>
                          {num(x.kappa)} / {num(x.icc)} <span className="text-xs text-muted-foreground">n={x.n}</span>
                        </>
                      ) : (
                        "–"
                      )}
                    </td>
                  );
                })}
                <td className="py-2 pr-3 whitespace-nowrap">
                  {g.calibration.passedAt ? `passed ${g.calibration.passedAt.slice(0, 10)}` : g.calibration.rounds ? "not passed yet" : "–"}
                  {g.calibration.failedRounds ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">{g.calibration.failedRounds} failed</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.intraRaterPooled.length ? (
        <p className="text-sm">
          Study intra-rater reliability (every grader&apos;s re-grades pooled):{" "}
          {report.intraRaterPooled.map((p) => `${p.dimension}: κ ${num(p.kappa)}${range(p.kappaCi, (x) => num(x))}, ICC(3,1) ${num(p.icc)}${range(p.iccCi, (x) => num(x))}, n=${p.n}`).join("; ")}.
        </p>
      ) : null}
      <a className="text-sm underline" href={`/api/v1/studies/${report.studyId}/export?dataset=quality-grades&format=csv`}>
        Download the calibration, gold and re-grade grades (CSV)
      </a>
    </div>
  );
}
