import type { Metadata } from "next";
import Link from "next/link";
import { PlannerForm } from "@/components/planner/planner-form";
import { pilotStudies } from "@/lib/planner/service";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "Study planner" };

export default async function PlannerPage() {
  const user = await requireUser(LEAD_ROLES);
  const studies = await pilotStudies(user);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <p className="text-sm">
          <Link href="/studies" className="text-muted-foreground hover:text-foreground">
            Studies
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Study planner</h1>
        <p className="max-w-2xl text-sm text-muted-foreground">
          How many questions and graders a study needs. State what you want to estimate (a reliability coefficient with a confidence interval of a given width) or detect (a difference between
          two models), and the planner answers with the number, its method and what it assumes, in words you can put in a protocol.
        </p>
      </div>
      <PlannerForm studies={studies} />
    </section>
  );
}
