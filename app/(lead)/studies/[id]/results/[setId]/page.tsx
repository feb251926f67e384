import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SetDetailView } from "@/components/results/set-detail";
import { setDetail } from "@/lib/results/set-detail";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Set detail" };

type Props = { params: Promise<{ id: string; setId: string }> };

/** One set's detail, unblinded for its lead (loadStudyForPage: the study's lead or an admin; others 403/404). */
export default async function SetDetailPage({ params }: Props) {
  const { id, setId } = await params;
  const { study } = await loadStudyForPage(id);
  const detail = await setDetail(study.id, setId);
  if (!detail) notFound();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Link href={`/studies/${study.id}/results`} className="text-muted-foreground underline hover:text-foreground">
          ← Results per set
        </Link>
      </p>
      <SetDetailView detail={detail} rubrics={storedRubrics(study.rubrics)} repetitions={study.repetitions} />
    </div>
  );
}
