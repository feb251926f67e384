import Link from "next/link";
import { StudyTabs } from "@/components/studies/study-tabs";
import { STATUS_LABEL, STATUS_VARIANT } from "@/components/studies/labels";
import { Badge } from "@/components/ui/badge";
import { loadStudyForPage } from "@/lib/studies/page-access";

export default async function StudyLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-sm">
          <Link href="/studies" className="text-muted-foreground hover:text-foreground">
            Studies
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{study.name}</h1>
          <Badge variant={STATUS_VARIANT[study.status]} data-testid="study-status">
            {STATUS_LABEL[study.status]}
          </Badge>
        </div>
        <p className="font-mono text-xs text-muted-foreground">{study.slug}</p>
      </header>
      <StudyTabs studyId={study.id} />
      {children}
    </section>
  );
}
