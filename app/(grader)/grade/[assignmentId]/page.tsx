import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GradingForm } from "@/components/grading/grading-form";
import { getAssignmentForGrader, type BlindedAssignment } from "@/lib/grading/service";
import { ApiError } from "@/lib/server/errors";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "Grade an answer set" };

type Params = Promise<{ assignmentId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The grading page: only the grader's own assignment, blinded (answers by
 * repetition, nothing about models or other graders). Anything else, including
 * someone else's assignment, is "not found".
 */
export default async function GradePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const user = await requireUser(GRADER_ROLES);
  const { assignmentId } = await params;
  let assignment: BlindedAssignment;
  try {
    assignment = await getAssignmentForGrader(user.id, assignmentId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  const { submitted } = await searchParams;
  return <GradingForm key={assignment.id} assignment={assignment} justSubmitted={submitted === "1"} />;
}
