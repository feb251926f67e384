import type { Metadata } from "next";
import Link from "next/link";
import { parseTableParams } from "@/lib/tables/search-params";
import { ItemsTable } from "@/components/studies/items-table";
import { itemSpecialties, listItems } from "@/lib/studies/items";
import { itemListQuerySchema } from "@/lib/studies/list-params";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Study items" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function StudyItemsPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: query } = parseTableParams(itemListQuerySchema, await searchParams);
  const [page, specialties] = await Promise.all([listItems(study, query), itemSpecialties(study.id)]);
  const rows = page.rows.map((r) => ({ ...r, n: study.repetitions }));
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        Each question with the answers of every model. A question is complete when every model has all {study.repetitions} answers.{" "}
        <Link className="underline" href={`/studies/${study.id}/quality/sets`}>
          Mark sets for calibration or as gold sets
        </Link>
        .
      </p>
      <ItemsTable page={{ ...page, rows }} sort={query.sort} specialties={specialties} />
    </div>
  );
}
