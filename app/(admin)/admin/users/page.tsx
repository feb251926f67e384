import type { Metadata } from "next";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ADMIN_ROLES, requireUser } from "@/lib/server/page-guard";
import { listUsers } from "@/lib/users/queries";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await requireUser(ADMIN_ROLES);
  const users = await listUsers();
  return (
    <section className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Users</h1>
        <p className="text-sm text-muted-foreground">
          Accounts of this instance. Also from the command line: <code>npm run admin -- create-user</code>.
        </p>
      </div>
      <CreateUserForm />
      <Table aria-label="Users">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Specialties</TableHead>
            <TableHead>Status</TableHead>
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
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
