import { AppShell } from "@/components/shell/app-shell";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export default async function GraderLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser(GRADER_ROLES);
  return <AppShell user={user}>{children}</AppShell>;
}
