import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RubricNamesProvider } from "@/components/dashboard/rubric-names";
import { CorrelationPanel } from "@/components/metric-comparison/correlation-panel";
import { DisagreementLists } from "@/components/metric-comparison/disagreement-lists";
import { MetricHeatmapPanel } from "@/components/metric-comparison/heatmap-panel";
import { metricComparison } from "@/lib/metric-comparison/service";
import { ALL_MODELS, ALL_SPECIALTIES } from "@/lib/metric-comparison/tables";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Reference metrics" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/**
 * Reference-based metrics beside the experts' final scores (leads and admins; models unblinded):
 * the numbers of GET /api/v1/studies/{id}/reference-metrics/comparison, from the same function.
 * ?model=&specialty= choose the correlation table's group, ?measure= the disagreements' measure.
 */
export default async function ReferenceMetricsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const q = await searchParams;
  const data = await metricComparison(study.id, { measure: one(q.measure) });
  if (!data) notFound();
  const rubrics = storedRubrics(study.rubrics);
  const names = Object.fromEntries(rubrics.map((r) => [r.key, r.name]));
  const model = data.models.includes(one(q.model) ?? "") ? one(q.model)! : null;
  const specialty = data.specialties.includes(one(q.specialty) ?? "") ? one(q.specialty)! : null;
  const scope = `${model ?? ALL_MODELS}, ${specialty ?? ALL_SPECIALTIES}`;
  const href = (next: Record<string, string | null>) => {
    const p = new URLSearchParams();
    const merged = { model, specialty, measure: data.disagreements.measure, ...next };
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    return `?${p.toString()}`;
  };
  const noTotal = rubrics.filter((r) => r.totals.length === 0);
  const several = rubrics.length > 1;
  return (
    <div className="flex flex-col gap-6" data-testid="reference-metrics-page">
      <div className="flex max-w-3xl flex-col gap-2 text-sm text-muted-foreground">
        <h2 className="text-xl font-semibold text-foreground">Reference metrics</h2>
        <p>
          How close each answer is to its question&apos;s reference answer by word overlap (BLEU, ROUGE-1, ROUGE-L), per model and specialty, and whether that agrees
          with the clinicians&apos; final scores. <span className="tabular-nums">{data.answers}</span> answers have a reference answer;{" "}
          <span className="tabular-nums">{data.finalSets}</span> of their response sets have final scores. Model names are shown unblinded; graders never see this page.
        </p>
        {data.skipped.length > 0 ? (
          <p data-testid="skipped-dimensions">
            Not correlated (no order to rank): {data.skipped.map((s) => `${several ? `${names[s.rubric] ?? s.rubric} · ` : ""}${s.label} (${s.kind})`).join(", ")}.
          </p>
        ) : null}
        {noTotal.length > 0 ? <p>{noTotal.map((r) => r.name).join(", ")} has no total: each dimension is correlated on its own.</p> : null}
        {data.judgedSets > 0 ? <p>{data.judgedSets} sets whose final scores an automated judge gave are left out of the correlations: they are not the experts&apos; scores.</p> : null}
      </div>

      <RubricNamesProvider names={names}>
        <MetricHeatmapPanel data={data} slug={study.slug} />

        <nav aria-label="Group of the correlations" className="flex flex-col gap-1 text-sm">
          <GroupLinks label="Model" options={data.models} all={ALL_MODELS} current={model} href={(v) => href({ model: v })} />
          <GroupLinks label="Specialty" options={data.specialties} all={ALL_SPECIALTIES} current={specialty} href={(v) => href({ specialty: v })} />
        </nav>
        <CorrelationPanel data={data} model={model} specialty={specialty} scope={scope} slug={study.slug} />
      </RubricNamesProvider>

      <DisagreementLists studyId={study.id} data={data} names={names} href={(measure) => href({ measure })} />
    </div>
  );
}

function GroupLinks({ label, options, all, current, href }: { label: string; options: string[]; all: string; current: string | null; href: (v: string | null) => string }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span className="font-medium">{label}:</span>
      {[null, ...options].map((o) => (
        <Link key={o ?? ""} href={href(o)} aria-current={o === current ? "page" : undefined} className={o === current ? "font-medium underline" : "text-muted-foreground underline-offset-2 hover:text-foreground hover:underline"}>
          {o ?? all}
        </Link>
      ))}
    </p>
  );
}
