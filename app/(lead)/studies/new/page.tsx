import type { Metadata } from "next";
import Link from "next/link";
import { StudySettingsForm } from "@/components/studies/study-settings-form";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";
import { DEFAULT_SETTINGS } from "@/lib/studies/settings";

export const metadata: Metadata = { title: "New study" };

export default async function NewStudyPage() {
  await requireUser(LEAD_ROLES);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <p className="text-sm">
          <Link href="/studies" className="text-muted-foreground hover:text-foreground">
            Studies
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">New study</h1>
        <p className="text-sm text-muted-foreground">
          The study starts as a draft. Import questions and answers and add graders, then open it. Rubrics, N and k lock once grading starts.
        </p>
        <p className="text-sm">
          <Link href="/planner" className="underline underline-offset-2">
            How many sets and graders do you need? Plan the study
          </Link>
        </p>
      </div>
      <StudySettingsForm mode="create" initial={DEFAULT_SETTINGS} />
    </section>
  );
}
