import type { Metadata } from "next";
import { GradingForm } from "@/components/grading/grading-form";
import { Markdown } from "@/components/grading/markdown";
import { QuestionBody } from "@/components/grading/question-body";
import { ScreenWarning } from "@/components/screening/screen-warning";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";
import { loadOwnAssignment } from "./assignment";

export const metadata: Metadata = { title: "Grade an answer set" };

type Params = Promise<{ assignmentId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The grading page: only the grader's own assignment, blinded (answers by
 * repetition, nothing about models or other graders). Anything else, including
 * someone else's assignment, is "not found".
 *
 * The Markdown of each answer is rendered here, on the server, once, and the
 * form shows each answer once (its fields of every rubric beside it): the
 * browser receives the rendered answer rather than a Markdown parser and the
 * source to run it on.
 */
export default async function GradePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const user = await requireUser(GRADER_ROLES);
  const { answers, item, ...assignment } = await loadOwnAssignment(user.id, (await params).assignmentId);
  const { submitted } = await searchParams;
  return (
    <GradingForm
      key={assignment.id}
      assignment={assignment}
      item={{ ...item, questionBody: <QuestionBody question={item.question} />, referenceAnswer: item.referenceAnswer ? <Markdown>{item.referenceAnswer}</Markdown> : null }}
      answers={answers.map((a) => ({
        repetition: a.repetition,
        body: (
          <>
            {a.screened ? <ScreenWarning /> : null}
            <Markdown>{a.text}</Markdown>
          </>
        ),
      }))}
      justSubmitted={submitted === "1"}
    />
  );
}
