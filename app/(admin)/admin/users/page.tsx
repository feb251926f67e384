import type { Metadata } from "next";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { EditUserDialog } from "@/components/admin/edit-user-dialog";
import { UnlockUserButton } from "@/components/admin/unlock-user-button";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-rule";
import { loginFailuresByEmail } from "@/lib/auth/login-throttle";
import { throttleConfigFromEnv } from "@/lib/auth/throttle-policy";
import { ADMIN_ROLES, requireUser } from "@/lib/server/page-guard";
import { listUsers } from "@/lib/users/queries";
import { mailEnabled } from "@/lib/mail/config";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requireUser(ADMIN_ROLES);
  const all = await listUsers();
  // Raters of imported grades are pseudonyms, not accounts: listed apart, never edited.
  const users = all.filter((u) => !u.external);
  const external = all.filter((u) => u.external);
  const failures = await loginFailuresByEmail(users.map((u) => u.email));
  const windowMinutes = Math.round(throttleConfigFromEnv().windowMs / 60_000);
  return (
    <section className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Users</h1>
        <p className="text-sm text-muted-foreground">
          Accounts of this instance: edit one to rename it, change its role, deactivate it or reset its password (each audited). Also from the command line: <code>npm run admin -- create-user</code>.
        </p>
      </div>
      <CreateUserForm mail={mailEnabled()} />
      <Table aria-label="Users">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Specialties</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Failed sign-ins ({windowMinutes} min)</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((u) => (
            <TableRow key={u.id}>
              <TableCell className="font-medium">{u.name}</TableCell>
              <TableCell>{u.email}</TableCell>
              <TableCell>{u.role.toLowerCase()}</TableCell>
              <TableCell>{u.specialties.join(", ") || "—"}</TableCell>
              <TableCell>
                <Badge variant={u.active ? "success" : "secondary"}>{u.active ? "active" : "deactivated"}</Badge>
              </TableCell>
              <TableCell>
                {failures.get(u.email) ? (
                  <span className="inline-flex items-center gap-2">
                    <Badge variant="warning">{failures.get(u.email)}</Badge>
                    <UnlockUserButton userId={u.id} email={u.email} />
                  </span>
                ) : (
                  "—"
                )}
              </TableCell>
              <TableCell className="text-right">
                <EditUserDialog
                  user={{ id: u.id, email: u.email, name: u.name, role: u.role, active: u.active }}
                  self={u.id === me.id}
                  minPassword={MIN_PASSWORD_LENGTH}
                  openWork={u.openWork}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {external.length ? (
        <details className="rounded-lg border border-border p-4" data-testid="external-raters">
          <summary className="cursor-pointer font-semibold">Imported external raters ({external.length})</summary>
          <p className="mt-2 text-sm text-muted-foreground">
            Pseudonyms of raters whose grades were collected elsewhere and imported into a study. They are not accounts: they cannot sign in, and there is nothing to edit.
          </p>
          <Table aria-label="Imported external raters" className="mt-2">
            <TableHeader>
              <TableRow>
                <TableHead>Pseudonym</TableHead>
                <TableHead>Study</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {external.map((u) => (
                <TableRow key={u.id}>
                  <TableCell className="font-medium">{u.name}</TableCell>
                  <TableCell>{u.externalStudyName}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </details>
      ) : null}
    </section>
  );
}
