import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { mailEnabled } from "@/lib/mail/config";
import { recentMail } from "@/lib/mail/outbox";
import { ADMIN_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "Mail" };

/** The mail log: what was queued and sent, to whom, with what subject (bodies, and the links in them, are never stored). */
export default async function MailPage() {
  await requireUser(ADMIN_ROLES);
  const rows = await recentMail();
  const on = mailEnabled();
  return (
    <section className="flex flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Mail</h1>
        <p className="text-sm text-muted-foreground">
          {on
            ? "The newest 200 messages: invitations, reminders and digests. Every instance sends from one outbox, so each leaves once."
            : "E-mail is off on this server: set SMTP_URL (or SMTP_HOST and the rest) and MAIL_FROM to turn it on."}
        </p>
      </div>
      <Table aria-label="Messages">
        <TableHeader>
          <TableRow>
            <TableHead>Queued</TableHead>
            <TableHead>Kind</TableHead>
            <TableHead>To</TableHead>
            <TableHead>Subject</TableHead>
            <TableHead>State</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((m) => (
            <TableRow key={m.id}>
              <TableCell className="whitespace-nowrap tabular-nums">{m.createdAt.toISOString().slice(0, 16).replace("T", " ")}</TableCell>
              <TableCell>{m.kind}</TableCell>
              <TableCell>{m.toEmail}</TableCell>
              <TableCell>{m.subject ?? "—"}</TableCell>
              <TableCell>
                <Badge variant={m.status === "SENT" ? "success" : m.status === "PENDING" || m.status === "SENDING" ? "secondary" : "warning"}>{m.status.toLowerCase()}</Badge>
                {m.error ? <span className="ml-2 text-xs text-muted-foreground">{m.error}</span> : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
