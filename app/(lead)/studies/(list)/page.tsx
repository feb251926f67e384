import type { Metadata } from "next";
import Link from "next/link";
import { Plus } from "lucide-react";
import { parseTableParams } from "@/lib/tables/search-params";
import { StudiesTable } from "@/components/studies/studies-table";
import { Button } from "@/components/ui/button";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";
import { studyListQuerySchema } from "@/lib/studies/list-params";
import { listStudiesPage } from "@/lib/studies/queries";
import { openHarmFlagCounts } from "@/lib/harm/service";

export const metadata: Metadata = { title: "Studies" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function StudiesPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser(LEAD_ROLES);
  // A hand-edited URL with a bad value still shows the table, with that value at its default.
  const { data: query } = parseTableParams(studyListQuerySchema, await searchParams);
  const page = await listStudiesPage(user, query);
  const openFlags = await openHarmFlagCounts(page.rows.map((s) => s.id));
  const rows = page.rows.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), openHarmFlags: openFlags.get(s.id) ?? 0 }));
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Studies</h1>
          <p className="text-sm text-muted-foreground">{user.role === "ADMIN" ? "Every study on this instance." : "The grading studies you lead."}</p>
        </div>
        <div className="flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link href="/api-docs">API documentation</Link>
          </Button>
          <Button asChild>
            <Link href="/studies/new">
              <Plus aria-hidden className="size-4" />
              New study
            </Link>
          </Button>
        </div>
      </div>
      <StudiesTable page={{ ...page, rows }} sort={query.sort} />
    </section>
  );
}
