"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { apiRequest } from "@/components/studies/api-client";
import type { InvitationRow } from "@/lib/mail/invitations";

const VARIANT: Record<InvitationRow["state"], "success" | "warning" | "secondary" | "outline"> = {
  queued: "outline",
  sent: "secondary",
  opened: "secondary",
  accepted: "success",
  expired: "warning",
  revoked: "warning",
  bounced: "warning",
};

const day = (iso: string) => iso.slice(0, 10);

function Actions({ studyId, row, mail }: { studyId: string; row: InvitationRow; mail: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (row.state === "accepted") return null;
  async function act(action: "resend" | "revoke") {
    setPending(true);
    const result = await apiRequest("POST", `/api/v1/studies/${studyId}/invitations/${row.id}/${action}`);
    setPending(false);
    if (!result.ok) setError(result.error);
    else router.refresh();
  }
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {mail ? (
        <Button type="button" size="sm" variant="outline" disabled={pending} aria-label={`Send again to ${row.email}`} onClick={() => act("resend")}>
          Send again
        </Button>
      ) : null}
      {row.state !== "revoked" ? (
        <Button type="button" size="sm" variant="outline" disabled={pending} aria-label={`Revoke the invitation to ${row.email}`} onClick={() => act("revoke")}>
          Revoke
        </Button>
      ) : null}
      {error ? (
        <p role="alert" className="w-full text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The study's invitations and where each stands; sending again makes a new link (the old one stops working). */
export function InvitationsList({ studyId, rows, mail }: { studyId: string; rows: InvitationRow[]; mail: boolean }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No invitations yet.</p>;
  return (
    <table className="w-full text-sm" data-testid="invitations">
      <thead>
        <tr className="border-b text-left">
          <th scope="col" className="py-2 pr-2 font-medium">Grader</th>
          <th scope="col" className="py-2 pr-2 font-medium">State</th>
          <th scope="col" className="py-2 pr-2 font-medium">Link works until</th>
          <th scope="col" className="py-2 text-right font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className="border-b last:border-0" data-email={r.email}>
            <td className="py-2 pr-2">
              <span className="font-medium">{r.name}</span> <span className="text-muted-foreground">{r.email}</span>
            </td>
            <td className="py-2 pr-2">
              <Badge variant={VARIANT[r.state]} data-testid="invitation-state">
                {r.state}
              </Badge>
            </td>
            <td className="py-2 pr-2 tabular-nums">{day(r.expiresAt)}</td>
            <td className="py-2">
              <Actions studyId={studyId} row={r} mail={mail} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
