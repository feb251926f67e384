import { ChevronRight } from "lucide-react";
import { splitQuestion } from "@/lib/grading/question-parts";
import { Markdown } from "./markdown";

/**
 * The question as the grader reads it, rendered on the server like the
 * answers (Markdown, line breaks kept, body-size type). A long context (an
 * EHR extract before the question in its last paragraph) sits in a section
 * the grader can fold away, open at first: the question itself stays in view.
 */
export function QuestionBody({ question }: { question: string }) {
  const parts = splitQuestion(question);
  if (!parts) return <Markdown question>{question}</Markdown>;
  return (
    <div className="flex flex-col gap-3" data-testid="question-with-context">
      <details open className="group rounded-lg border border-border bg-muted/30" data-testid="question-context">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="size-4 text-muted-foreground transition-transform group-open:rotate-90" />
          Context{" "}
          <span className="font-normal text-muted-foreground">({parts.contextWords} words)</span>
        </summary>
        <div className="border-t border-border px-4 py-3">
          <Markdown question>{parts.context}</Markdown>
        </div>
      </details>
      <Markdown question className="font-medium">
        {parts.ask}
      </Markdown>
    </div>
  );
}
