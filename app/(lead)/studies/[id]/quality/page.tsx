import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { QualityTable } from "@/components/grader-quality/quality-table";
import { QualitySettingsForm } from "@/components/grader-quality/quality-settings-form";
import { QualityTasksTable } from "@/components/grader-quality/quality-tasks-table";
import { SensitivityTable } from "@/components/grader-quality/sensitivity-table";
import { TrendChart } from "@/components/grader-quality/trend-chart";
import { graderQuality } from "@/lib/grader-quality/service";
import { graderSensitivityOffThread } from "@/lib/grader-quality/sensitivity-run";
import { markedSetCounts } from "@/lib/quality-tasks/sets";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Graders' quality" };

/**
 * The sensitivity analysis recomputes the dashboard once per grader (bench/README.md: ~1.5 min on
 * a 10,000-set study with 30 graders on a loaded machine), so it runs only when the lead asks
 * (?sensitivity=1), streamed after the table.
 */
async function Sensitivity({ studyId }: { studyId: string }) {
  const data = await graderSensitivityOffThread(studyId);
  return data ? <SensitivityTable data={data} /> : null;
}

/** Graders' quality (leads of the study and admins: loadStudyForPage): the same report as GET /api/v1/studies/{id}/grader-quality. */
export default async function GraderQualityPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const withSensitivity = (await searchParams).sensitivity === "1";
  const { study } = await loadStudyForPage(id);
  const [report, counts] = await Promise.all([graderQuality(study.id), markedSetCounts(study.id)]);
  if (!report) notFound();
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="signals" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="signals" className="text-lg font-semibold">
            Graders&apos; quality
          </h2>
          <a className="text-sm underline" href={`/api/v1/studies/${study.id}/export?dataset=grader-quality&format=csv`}>
            Download CSV
          </a>
        </div>
        <p className="text-sm text-muted-foreground">
          {report.notes.scope} {report.notes.skipped}
        </p>
        {report.graders.length ? <QualityTable report={report} /> : <p className="text-sm text-muted-foreground">No graders yet.</p>}
      </section>
      <section aria-labelledby="gold" className="flex flex-col gap-3">
        <h2 id="gold" className="text-lg font-semibold">
          Gold sets, washout re-grades and calibration
        </h2>
        {report.graders.length ? <QualityTasksTable report={report} /> : null}
        <p className="text-sm">
          <Link className="underline" href={`/studies/${study.id}/quality/sets`}>
            Mark calibration and gold sets
          </Link>{" "}
          <span className="text-muted-foreground">(their expected scores typed, or filled from a pilot).</span>
        </p>
        <QualitySettingsForm
          studyId={study.id}
          open={study.status === "OPEN"}
          calibrationSets={counts.calibration}
          goldSets={counts.gold}
          initial={{
            goldRate: study.goldRate,
            goldSeed: study.goldSeed,
            washoutShare: study.washoutShare,
            washoutDays: study.washoutDays,
            washoutSeed: study.washoutSeed,
            calibrationRequired: study.calibrationRequired,
            calibrationPassShare: study.calibrationPassShare,
            calibrationRoundSize: study.calibrationRoundSize,
          }}
        />
      </section>
      <section aria-labelledby="trend" className="flex flex-col gap-3">
        <h2 id="trend" className="text-lg font-semibold">
          Trend over time
        </h2>
        <TrendChart report={report} />
      </section>
      <section aria-labelledby="sensitivity" className="flex flex-col gap-3">
        <h2 id="sensitivity" className="text-lg font-semibold">
          Sensitivity of the results to each grader
        </h2>
        {withSensitivity ? (
          <Suspense fallback={<p className="text-sm text-muted-foreground">Recomputing the headline figures without each grader…</p>}>
            <Sensitivity studyId={study.id} />
          </Suspense>
        ) : (
          <p className="text-sm text-muted-foreground">
            The dashboard&apos;s headline figures recomputed without each grader in turn, and without the excluded ones.{" "}
            <Link className="text-foreground underline" href={`/studies/${study.id}/quality?sensitivity=1#sensitivity`}>
              Run the sensitivity analysis
            </Link>{" "}
            (it recomputes the dashboard once per grader: it can take a minute on a large study).
          </p>
        )}
      </section>
    </div>
  );
}
