import Link from "next/link";
import { ProgressBar } from "@/components/grading/progress-bar";
import type { QueueStudy } from "@/lib/queue/queries";
import { cn } from "@/lib/utils";

/** The grader's studies, each with its progress; choosing one shows its sets below. */
export function QueueStudies({ studies, current }: { studies: QueueStudy[]; current: string }) {
  return (
    <nav aria-label="My studies">
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {studies.map((s) => {
          const selected = s.id === current;
          return (
            <li key={s.id}>
              <Link
                href={`/queue?study=${s.id}`}
                aria-current={selected ? "page" : undefined}
                className={cn(
                  "flex flex-col gap-2 rounded-xl border bg-background p-4 shadow-sm hover:border-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                  selected ? "border-primary ring-1 ring-primary" : "border-border",
                )}
              >
                <span className="flex items-baseline justify-between gap-2">
                  <span className="font-medium">{s.title}</span>
                  {s.open ? null : <span className="text-xs text-muted-foreground">closed</span>}
                </span>
                <span className="text-sm text-muted-foreground tabular-nums">
                  {s.submitted} / {s.total} submitted · {s.drafts} draft{s.drafts === 1 ? "" : "s"} · {s.total - s.submitted - s.drafts} to do
                </span>
                <ProgressBar value={s.submitted} max={s.total} label={`${s.title}: sets submitted`} />
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
