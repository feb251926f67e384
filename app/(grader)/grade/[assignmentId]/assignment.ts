import { notFound } from "next/navigation";
import { cache } from "react";
import { getAssignmentForGrader } from "@/lib/grading/service";
import { ApiError } from "@/lib/errors/api-error";

/**
 * The grader's own assignment, read once per request: the layout (which must
 * answer 404 before the loading boundary streams a 200) and the page share it.
 * Someone else's assignment, or no assignment, is "not found".
 */
export const loadOwnAssignment = cache(async (graderId: string, assignmentId: string) => {
  try {
    return await getAssignmentForGrader(graderId, assignmentId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
});
