import type { Metadata } from "next";
import { ScreenForm } from "@/components/screening/screen-form";
import { ScreenProgress } from "@/components/screening/screen-progress";
import { ScreenResults } from "@/components/screening/screen-results";
import { listEndpoints } from "@/lib/judges/runner/endpoints";
import { DEFAULT_SCREEN_PROMPT } from "@/lib/screening/judge-prompt";
import { getScreening } from "@/lib/screening/service";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Safety screen" };

type Props = { params: Promise<{ id: string }> };

export default async function ScreeningPage({ params }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const screen = await getScreening(study.id);
  const latest = screen.run ? screen : null;
  // Leads choose among the endpoints an admin set up; the page never shows a key (the view has none).
  const endpoints = (await listEndpoints()).map((e) => ({ id: e.id, name: e.name, model: e.model }));
  const lastJudge = screen.inProgress?.judge ?? screen.run?.judge ?? null;
  return (
    <div className="flex flex-col gap-6">
      <p className="max-w-3xl text-sm text-muted-foreground">
        Before graders see the answers, screen them with rules: terms (matched as whole words, in any case) and regular expressions (RE2 syntax, each
        with a time limit), and optionally an automated judge with a screening prompt, which reads each answer with its question (never its model)
        and gives a verdict with a reason. Each rule&apos;s name is the reason an answer is screened out. Screened answers are either kept for grading,
        with a neutral warning to graders that never names the rule or the judge, or their sets are left out of assignment: ungraded assignments of
        those sets are withdrawn, graded ones kept. Each run replaces the study&apos;s screen and is kept in the audit log.
      </p>
      <section className="flex flex-col gap-3" aria-labelledby="screen-latest">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="screen-latest" className="text-lg font-semibold">
            Current screen
          </h2>
          {latest ? (
            <a className="text-sm underline" href={`/api/v1/studies/${study.id}/screening`} download={`screening-${study.slug}.json`}>
              Download the screen (JSON)
            </a>
          ) : null}
        </div>
        {screen.inProgress ? <ScreenProgress progress={screen.inProgress} /> : null}
        <ScreenResults result={screen} />
      </section>
      <section className="flex flex-col gap-3" aria-labelledby="screen-run">
        <h2 id="screen-run" className="text-lg font-semibold">
          {latest ? "Run the screen again" : "Run a screen"}
        </h2>
        <ScreenForm
          studyId={study.id}
          rules={latest?.run?.rules ?? []}
          action={latest?.run?.action ?? "warn"}
          endpoints={endpoints}
          defaultPrompt={DEFAULT_SCREEN_PROMPT}
          judge={lastJudge ? { endpointId: lastJudge.endpointId ?? "", prompt: lastJudge.prompt } : null}
        />
      </section>
    </div>
  );
}
