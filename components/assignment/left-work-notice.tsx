import Link from "next/link";
import type { GraderProgress } from "@/lib/assignment/service";
import { describeOpenWork } from "@/lib/users/open-work-text";

/**
 * Tells the lead which graders left (account deactivated or removed from the
 * study) while holding unsubmitted work, so they move it: "Assign graders"
 * hands it to others. Nothing when no one did.
 */
export function LeftWorkNotice({ graders, studyId }: { graders: GraderProgress[]; studyId: string }) {
  const left = graders.filter((g) => !g.active && g.open > 0);
  if (left.length === 0) return null;
  return (
    <div role="status" data-testid="left-work-notice" className="rounded-lg border border-warning bg-warning/10 p-4 text-sm">
      <p className="font-semibold">Open work held by graders who left</p>
      <ul className="mt-1 list-disc pl-5">
        {left.map((g) => (
          <li key={g.graderId}>
            {g.name} is no longer active and holds {describeOpenWork(g.open, g.openAdjudications)}.
          </li>
        ))}
      </ul>
      <p className="mt-1">
        Run{" "}
        <Link href={`/studies/${studyId}/assignments`} className="underline underline-offset-4">
          Assign graders
        </Link>{" "}
        to move it to the other graders (submitted work stays).
      </p>
    </div>
  );
}
