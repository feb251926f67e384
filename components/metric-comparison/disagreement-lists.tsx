import Link from "next/link";
import { fmt } from "@/lib/analytics/tables";
import type { DisagreementCase, MetricComparison } from "@/lib/metric-comparison/assemble";
import { measureLabel } from "@/lib/metric-comparison/tables";

const pct = (v: number) => `${Math.round(v * 100)}`;

/**
 * Where a metric and the experts disagree most, by percentile rank over the final sets: high
 * metric with a low expert score, and the reverse; each set links to its detail page.
 */
export function DisagreementLists({ studyId, data, names, href }: { studyId: string; data: MetricComparison; names: Record<string, string>; href: (measure: string) => string }) {
  const several = new Set(data.measures.map((m) => m.rubric)).size > 1;
  const rubricName = (k: string) => names[k] ?? k;
  const current = data.measures.find((m) => m.id === data.disagreements.measure);
  return (
    <section className="flex flex-col gap-3" aria-labelledby="disagreements-title" data-testid="disagreements">
      <h2 id="disagreements-title" className="text-base font-semibold">
        Where metric and experts disagree most
      </h2>
      {!current ? (
        <p className="text-sm text-muted-foreground">The study&apos;s rubrics have no ordinal dimension and no total to compare with.</p>
      ) : (
        <>
          <p className="max-w-3xl text-sm text-muted-foreground">
            Each final set&apos;s percentile rank (0 lowest, 100 highest among the {data.finalSets} final sets) on the metric and on the experts&apos;{" "}
            {measureLabel(current, rubricName, several)}; listed by the largest difference of the two ranks, up to five each way.
          </p>
          <nav aria-label="Expert measure of the disagreements" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
            <span className="font-medium">Expert measure:</span>
            {data.measures.map((m) => (
              <Link
                key={m.id}
                href={href(m.id)}
                aria-current={m.id === current.id ? "page" : undefined}
                className={m.id === current.id ? "font-medium underline" : "text-muted-foreground underline-offset-2 hover:text-foreground hover:underline"}
              >
                {measureLabel(m, rubricName, several)}
              </Link>
            ))}
          </nav>
          <div className="grid gap-4 lg:grid-cols-2">
            {data.metrics.flatMap((m) =>
              (["metric_high", "expert_high"] as const).map((direction) => {
                const cases = data.disagreements.cases.filter((c) => c.metric === m.key && c.direction === direction);
                const title = direction === "metric_high" ? `${m.label} high, experts low` : `${m.label} low, experts high`;
                return <CaseList key={`${m.key}-${direction}`} title={title} metric={m.label} cases={cases} studyId={studyId} />;
              }),
            )}
          </div>
        </>
      )}
    </section>
  );
}

function CaseList({ title, metric, cases, studyId }: { title: string; metric: string; cases: DisagreementCase[]; studyId: string }) {
  return (
    <div className="rounded-md border border-border p-3">
      <h3 className="mb-2 text-sm font-medium">{title}</h3>
      {cases.length === 0 ? (
        <p className="text-sm text-muted-foreground">No set ranks differently this way.</p>
      ) : (
        <table className="w-full text-sm" aria-label={title}>
          <thead className="text-left text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">Set</th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">{metric} (rank)</th>
              <th scope="col" className="py-1 text-right font-medium">Experts (rank)</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={c.setId} className="border-t border-border">
                <td className="py-1 pr-2">
                  <Link className="underline" href={`/studies/${studyId}/results/${c.setId}`}>
                    {c.externalId} · {c.model}
                  </Link>
                  <span className="block text-xs text-muted-foreground">{c.specialty}</span>
                </td>
                <td className="py-1 pr-2 text-right tabular-nums">
                  {fmt(c.metricValue, 3)} ({pct(c.metricRank)})
                </td>
                <td className="py-1 text-right tabular-nums">
                  {fmt(c.expertValue)} ({pct(c.expertRank)})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
