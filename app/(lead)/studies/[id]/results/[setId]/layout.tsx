import { notFound } from "next/navigation";
import { isSetOfStudy } from "@/lib/results/set-detail";
import { loadStudyForPage } from "@/lib/studies/page-access";

/**
 * Guards the set page above every loading boundary (the study's overview and
 * the results list keep theirs in route groups), so that a set of another study
 * or a made-up id answers with a real 404 status: a notFound() inside the
 * streamed page arrives after the 200 is sent.
 */
export default async function SetDetailLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string; setId: string }> }) {
  const { id, setId } = await params;
  const { study } = await loadStudyForPage(id);
  if (!(await isSetOfStudy(study.id, setId))) notFound();
  return children;
}
