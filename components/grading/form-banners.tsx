import { CircleCheck, Lock } from "lucide-react";

/** The form's action: a submitted set is revised, not submitted again. */
export const submitLabelFor = (wasSubmitted: boolean) => (wasSubmitted ? "Update submitted grades" : "Submit grades");

/** The lines above the question: the previous set went in; this set is read-only, or already submitted. */
export function FormBanners({ justSubmitted, readOnly, conflict, wasSubmitted }: { justSubmitted: boolean; readOnly: boolean; conflict: string | null; wasSubmitted: boolean }) {
  return (
    <>
      {justSubmitted ? (
        <p role="status" className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-2.5 text-sm text-green-900">
          <CircleCheck aria-hidden className="size-4" />
          Your grades for the previous answer set were submitted. This is the next one in your queue.
        </p>
      ) : null}
      {readOnly ? (
        <p className="flex items-center gap-2 rounded-lg border border-border bg-muted px-4 py-2.5 text-sm">
          <Lock aria-hidden className="size-4 text-muted-foreground" />
          {conflict ? `${conflict.charAt(0).toUpperCase()}${conflict.slice(1)}. Reload the page to see what is stored.` : "This study is closed: your grades are shown read-only."}
        </p>
      ) : wasSubmitted ? (
        <p className="flex items-center gap-2 rounded-lg border border-border bg-muted/60 px-4 py-2.5 text-sm">
          <CircleCheck aria-hidden className="size-4 text-success" />
          You submitted this answer set. You can revise your grades while the study is open: changes are stored when you press “{submitLabelFor(true)}”.
        </p>
      ) : null}
    </>
  );
}
