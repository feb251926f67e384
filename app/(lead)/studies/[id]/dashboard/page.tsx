import { storedRubricKeys } from "@/lib/rubrics/study-rubrics";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { parseTableParams } from "@/lib/tables/search-params";
import { AgreementPanel } from "@/components/dashboard/agreement-panel";
import { AlphaPanel } from "@/components/dashboard/alpha-panel";
import { CliffsPanel } from "@/components/dashboard/cliffs-panel";
import { DashboardFilters } from "@/components/dashboard/dashboard-filters";
import { JournalPanel } from "@/components/dashboard/journal-panel";
import { JudgesPanel } from "@/components/dashboard/judges-panel";
import { PrintDashboardButton } from "@/components/dashboard/print-button";
import { PairwiseForestPanel } from "@/components/dashboard/pairwise-forest";
import { PairwiseBiasPanel, PairwiseMatrixPanel } from "@/components/dashboard/pairwise-matrix";
import { ProgressPanel } from "@/components/dashboard/progress-panel";
import { RadarPanel } from "@/components/dashboard/radar-panel";
import { RubricNamesProvider } from "@/components/dashboard/rubric-names";
import { RankingPanel } from "@/components/dashboard/ranking-panel";
import { statsQuerySchema } from "@/lib/analytics/contract";
import { journalGraderNames } from "@/lib/analytics/journal-graders";
import { computeStudyStats, type StudyStats } from "@/lib/analytics/study-stats";
import { measureChoices } from "@/lib/results/measures";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { loadStudyForPage } from "@/lib/studies/page-access";
import { JudgePreferencesPanel } from "@/components/judges/judge-preferences-panel";
import { judgePreferenceComparisons } from "@/lib/pairwise/judge-agreement";

export const metadata: Metadata = { title: "Dashboard" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The study dashboard (leads and admins; model names unblinded): every number
 * comes from computeStudyStats, the same as GET /api/v1/studies/{id}/stats.
 * Filters live in the URL: ?specialty=&rubric=&models=a,b.
 */
export default async function StudyDashboardPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  // Lenient, as a hand-edited URL should still show the dashboard: a bad value falls back to "all".
  const { data: q } = parseTableParams(statsQuerySchema, await searchParams);
  const choices = measureChoices(storedRubrics(study.rubrics));
  const measure = choices.some((c) => c.value === q.measure) ? q.measure : undefined;
  const stats = await computeStudyStats(study.id, {
    specialty: q.specialty,
    rubrics: (q.rubric ?? []).filter((r) => storedRubricKeys(study.rubrics).includes(r)),
    models: q.models,
    journal: q.journal,
    pairwise: q.pairwise,
    measure,
  });
  if (!stats) notFound();
  // A pairwise study's judges give preferences, not scores: their agreement is read apart.
  const judgePreferences = study.design === "PAIRWISE" ? await judgePreferenceComparisons(study.id) : null;
  const { filters, options, scope } = stats;
  const names = Object.fromEntries(stats.study.rubricDocuments.map((r) => [r.key, r.name]));
  const slug = stats.study.slug;
  const filterTag = [filters.specialty ?? "all-specialties", filters.models.length < options.models.length ? `${filters.models.length}-models` : "", filters.measure !== "total" ? filters.measure : ""].filter(Boolean).join("-");

  return (
    <div className="flex flex-col gap-6" data-testid="dashboard">
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-xl font-semibold">Dashboard</h2>
          <PrintDashboardButton />
        </div>
        <p className="text-sm text-muted-foreground">
          {scope.specialty} · {filters.rubrics.map((r) => names[r] ?? r).join(" + ")} · {filters.models.length} of {options.models.length} models ·{" "}
          {study.design === "PAIRWISE" ? (
            <>
              <span className="tabular-nums">{stats.pairwise?.data?.axes.at(-1)?.n ?? 0}</span> submitted preferences.
            </>
          ) : (
            <>
              <span className="tabular-nums">
                {scope.finalSets} of {scope.sets}
              </span>{" "}
              response sets final.
            </>
          )}{" "}
          Model names are shown unblinded; graders never see this page.
        </p>
      </div>

      {study.design === "PAIRWISE" ? (
        <>
          <PairwisePanels block={stats.pairwise} slug={slug} filterTag={filterTag} />
          {judgePreferences ? <JudgePreferencesPanel data={judgePreferences} /> : null}
        </>
      ) : (
      <RubricNamesProvider names={names}>
      <DashboardFilters specialties={options.specialties} rubrics={options.rubrics} models={options.models} measures={choices} selected={filters} />

      {stats.radar.map((block) => (
        <RadarPanel key={block.rubric} block={block} allModels={options.models} slug={slug} filterTag={filterTag} />
      ))}

      <AlphaPanel block={stats.alpha} rubrics={filters.rubrics} slug={slug} filterTag={filterTag} />

      {stats.cliffs.data && stats.cliffs.data.measures.length > 0
        ? stats.cliffs.data.measures.map((m) => (
            <CliffsPanel key={`${m.rubric}:${m.kind}:${m.key}`} data={stats.cliffs.data} reason={null} rubric={m.rubric} measure={m} slug={slug} filterTag={filterTag} />
          ))
        : filters.rubrics.map((r) => <CliffsPanel key={r} data={null} reason={stats.cliffs.reason ?? "Cliff's delta compares ordered values: this rubric has no total and no ordinal dimension."} rubric={r} measure={null} slug={slug} filterTag={filterTag} />)}

      <AgreementPanel block={stats.agreement} slug={slug} filterTag={filterTag} />

      <RankingPanel block={stats.ranking} scope={scope.specialty} measures={stats.measures} allModels={options.models} slug={slug} filterTag={filterTag} />

      <JournalPanel
        block={stats.journal}
        names={journalGraderNames(study.id, stats.journal.data)}
        computeHref={`?${new URLSearchParams({ ...(q.specialty ? { specialty: q.specialty } : {}), ...(q.rubric?.length ? { rubric: q.rubric.join(",") } : {}), ...(q.models?.length ? { models: q.models.join(",") } : {}), ...(measure ? { measure } : {}), journal: "1" }).toString()}#journal`}
        slug={slug}
      />

      <JudgesPanel block={stats.judges} />

      <ProgressPanel block={stats.progress} slug={slug} filterTag={filterTag} />

      {stats.pairwise?.data ? (
        <PairwisePanels block={stats.pairwise} slug={slug} filterTag={filterTag} />
      ) : options.models.length >= 2 ? (
        <p className="text-sm" data-testid="derived-pairwise-link">
          <a
            className="underline underline-offset-2"
            href={`?${new URLSearchParams({ ...(q.specialty ? { specialty: q.specialty } : {}), ...(q.rubric?.length ? { rubric: q.rubric.join(",") } : {}), ...(q.models?.length ? { models: q.models.join(",") } : {}), ...(measure ? { measure } : {}), pairwise: "1" }).toString()}#pairwise`}
          >
            Compare with a pairwise design: preferences derived from the final scores
          </a>{" "}
          <span className="text-muted-foreground">(Bradley-Terry strengths and win rates; computed on request, it takes a few seconds).</span>
        </p>
      ) : null}
      </RubricNamesProvider>
      )}
    </div>
  );
}

/** A pairwise study's figures, or a scoring study's preferences derived from its final scores. */
function PairwisePanels({ block, slug, filterTag }: { block: StudyStats["pairwise"]; slug: string; filterTag: string }) {
  const b = block ?? { data: null, reason: "no submitted preference yet" };
  return (
    <section id="pairwise" aria-label="Pairwise preferences" className="flex flex-col gap-6" data-testid="pairwise-dashboard">
      <PairwiseForestPanel block={b} slug={slug} filterTag={filterTag} />
      <PairwiseMatrixPanel block={b} slug={slug} filterTag={filterTag} />
      <PairwiseBiasPanel block={b} slug={slug} filterTag={filterTag} />
    </section>
  );
}
