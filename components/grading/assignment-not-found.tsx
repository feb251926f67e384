import { SearchX } from "lucide-react";
import Link from "next/link";

/** Anything that is not the grader's own assignment, including another grader's: its existence is not revealed. */
export function AssignmentNotFound() {
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-3 text-center">
      <SearchX aria-hidden className="size-8 text-muted-foreground" />
      <p className="text-sm font-semibold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Answer set not found</h1>
      <p className="text-muted-foreground">This answer set does not exist or is not in your queue.</p>
      <Link href="/queue" className="font-medium text-primary underline-offset-4 hover:underline">
        Back to my grading queue
      </Link>
    </section>
  );
}
