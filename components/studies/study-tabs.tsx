"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

/**
 * The study's sections, in the order of the work: set up (items, graders,
 * import), run (assignments, escalations), read (results, dashboard,
 * exports, audit), settings last. The current one is marked for screen readers too.
 */
export function StudyTabs({ studyId }: { studyId: string }) {
  const pathname = usePathname();
  const base = `/studies/${studyId}`;
  const tabs = [
    { href: base, label: "Overview" },
    { href: `${base}/items`, label: "Items" },
    { href: `${base}/graders`, label: "Graders" },
    { href: `${base}/import`, label: "Import" },
    { href: `${base}/screening`, label: "Screening" },
    { href: `${base}/assignments`, label: "Assignments" },
    { href: `${base}/escalations`, label: "Escalations" },
    { href: `${base}/harm`, label: "Harm flags" },
    { href: `${base}/results`, label: "Results" },
    { href: `${base}/governance`, label: "Governance" },
    { href: `${base}/dashboard`, label: "Dashboard" },
    { href: `${base}/reference-metrics`, label: "Reference metrics" },
    { href: `${base}/quality`, label: "Grader quality" },
    { href: `${base}/exports`, label: "Exports" },
    { href: `${base}/report`, label: "Report" },
    { href: `${base}/audit`, label: "Audit" },
    { href: `${base}/settings`, label: "Settings" },
  ];
  return (
    <nav aria-label="Study sections" className="border-b border-border print:hidden">
      <ul className="-mb-px flex flex-wrap gap-1">
        {tabs.map((t) => {
          const current = t.href === base ? pathname === base : pathname.startsWith(t.href);
          return (
            <li key={t.href}>
              <Link
                href={t.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-block border-b-2 px-3 py-2 text-sm",
                  current ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
