import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";
import { loadOwnAssignment } from "./assignment";

/**
 * Guards the grading page above its loading boundary, so that someone else's
 * assignment answers with a real 404 status (a notFound() inside the streamed
 * page would arrive with 200). The read is shared with the page.
 */
export default async function GradeLayout({ children, params }: { children: React.ReactNode; params: Promise<{ assignmentId: string }> }) {
  const user = await requireUser(GRADER_ROLES);
  await loadOwnAssignment(user.id, (await params).assignmentId);
  return children;
}
