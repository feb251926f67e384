import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import type { CurrentUser } from "@/lib/server/current-user";

const NAV: Record<CurrentUser["role"], { href: string; label: string }[]> = {
  ADMIN: [
    { href: "/studies", label: "Studies" },
    { href: "/admin/users", label: "Users" },
    { href: "/admin/mail", label: "Mail" },
  ],
  LEAD: [{ href: "/studies", label: "Studies" }],
  GRADER: [{ href: "/queue", label: "My grading queue" }],
};

const ROLE_LABEL: Record<CurrentUser["role"], string> = { ADMIN: "Administrator", LEAD: "Study lead", GRADER: "Grader" };

/** The frame of every signed-in page: navigation for the user's role only. */
export function AppShell({ user, children }: { user: CurrentUser; children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-border bg-background print:hidden">
        {/* On a phone the user's name gives way (truncated) rather than widen the page. */}
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:gap-6">
          <Link href="/" className="shrink-0 font-semibold text-primary">
            Clingrade
          </Link>
          <nav aria-label="Main" className="flex shrink-0 gap-4 text-sm whitespace-nowrap">
            {NAV[user.role].map((item) => (
              <Link key={item.href} href={item.href} className="text-muted-foreground hover:text-foreground">
                {item.label}
              </Link>
            ))}
          </nav>
          <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
            <span data-testid="current-user" className="min-w-0 truncate" title={`${user.name} · ${ROLE_LABEL[user.role]}`}>
              {user.name} <span className="text-muted-foreground">· {ROLE_LABEL[user.role]}</span>
            </span>
            <span className="shrink-0 whitespace-nowrap">
              <SignOutButton />
            </span>
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 p-4 md:p-8">{children}</main>
    </div>
  );
}
