import { AppShell } from "@/components/shell/app-shell";
import { ADMIN_ROLES, requireUser } from "@/lib/server/page-guard";

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser(ADMIN_ROLES);
  return <AppShell user={user}>{children}</AppShell>;
}
