import { AppShell } from "@/components/shell/app-shell";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";

export default async function LeadLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser(LEAD_ROLES);
  return <AppShell user={user}>{children}</AppShell>;
}
