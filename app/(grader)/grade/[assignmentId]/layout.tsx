import { notFound } from "next/navigation";
import { assertOwnAssignment } from "@/lib/grading/service";
import { ApiError } from "@/lib/server/errors";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

/**
 * Guards the grading page above its loading boundary, so that someone else's
 * assignment answers with a real 404 status (a notFound() inside the streamed
 * page would arrive with 200).
 */
export default async function GradeLayout({ children, params }: { children: React.ReactNode; params: Promise<{ assignmentId: string }> }) {
  const user = await requireUser(GRADER_ROLES);
  const { assignmentId } = await params;
  try {
    await assertOwnAssignment(user.id, assignmentId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  return children;
}
