"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { describeOpenWork, type OpenWork } from "@/lib/users/open-work-text";

export interface EditableUser {
  id: string;
  email: string;
  name: string;
  role: "ADMIN" | "LEAD" | "GRADER";
  active: boolean;
}

/** The deactivation's confirmation: what the user leaves unsubmitted, and who is told. */
export function deactivateMessage(email: string, openWork: OpenWork[]): string {
  const head = `Deactivate ${email}? Their sessions end and their API tokens are revoked.`;
  if (openWork.length === 0) return `${head}\nThey hold no open assignments.`;
  const open = openWork.reduce((n, w) => n + w.openAssignments, 0);
  const adj = openWork.reduce((n, w) => n + w.openAdjudications, 0);
  const per = openWork.map((w) => `- ${w.studyName}: ${describeOpenWork(w.openAssignments, w.openAdjudications)}`).join("\n");
  return `${head}\n\nThey hold ${describeOpenWork(open, adj)}:\n${per}\n\nEach study's leads are told (study audit and Assignments page) so they can move the work with "Assign graders".`;
}

/**
 * An administrator edits an account: name, role, active, a new password
 * (PATCH /api/v1/users/{id}, audited). Only what changed is sent. Their own
 * account cannot be deactivated nor change role (the server refuses it too).
 */
export function EditUserDialog({
  user,
  self,
  minPassword,
  openWork = [],
}: {
  user: EditableUser;
  self: boolean;
  minPassword: number;
  /** Unsubmitted work the user holds, per study: deactivating leaves it for the leads to move. */
  openWork?: OpenWork[];
}) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    const name = String(d.get("name") ?? "").trim();
    const role = String(d.get("role") ?? user.role);
    const active = d.get("active") === "on";
    const password = String(d.get("password") ?? "");
    const body: Record<string, unknown> = {};
    if (name !== user.name) body.name = name;
    if (role !== user.role) body.role = role;
    if (active !== user.active) body.active = active;
    if (password) body.password = password;
    if (Object.keys(body).length === 0) {
      setOpen(false);
      return;
    }
    if (body.active === false && !window.confirm(deactivateMessage(user.email, openWork))) return;
    setBusy(true);
    const r = await apiRequest("PATCH", `/api/v1/users/${user.id}`, body);
    setBusy(false);
    if (!r.ok) {
      setFieldErrors(r.fieldErrors);
      setError(r.error);
      return;
    }
    setError(null);
    setFieldErrors({});
    setOpen(false);
    router.refresh();
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
        setFieldErrors({});
      }}
    >
      <Dialog.Trigger asChild>
        <Button size="sm" variant="outline" aria-label={`Edit ${user.email}`}>
          Edit
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(30rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-border bg-background p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold">Edit {user.email}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-muted-foreground">Every change is recorded in the audit log.</Dialog.Description>
            </div>
            <Dialog.Close className="rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring">
              <X aria-hidden className="size-4" />
              <span className="sr-only">Close</span>
            </Dialog.Close>
          </div>
          <form className="mt-4 flex flex-col gap-3" onSubmit={submit} noValidate>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${id}-name`}>Name</Label>
              <Input id={`${id}-name`} name="name" defaultValue={user.name} required aria-describedby={fieldErrors.name ? `${id}-name-error` : undefined} />
              {fieldErrors.name ? (
                <p id={`${id}-name-error`} className="text-xs text-destructive">
                  {fieldErrors.name}
                </p>
              ) : null}
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${id}-role`}>Role</Label>
              <select
                id={`${id}-role`}
                name="role"
                defaultValue={user.role}
                disabled={self}
                aria-describedby={self ? `${id}-role-hint` : undefined}
                className="h-9 rounded-md border border-border bg-background px-2 text-sm"
              >
                <option value="LEAD">Study lead</option>
                <option value="GRADER">Grader</option>
                <option value="ADMIN">Administrator</option>
              </select>
              {self ? (
                <p id={`${id}-role-hint`} className="text-xs text-muted-foreground">
                  You cannot change your own role.
                </p>
              ) : null}
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="active" defaultChecked={user.active} disabled={self} aria-describedby={`${id}-active-hint`} />
              Active
            </label>
            <p id={`${id}-active-hint`} className="-mt-2 text-xs text-muted-foreground">
              {self ? "You cannot deactivate your own account." : "Deactivating ends the user's sessions and revokes their API tokens at once."}
            </p>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${id}-password`}>New password (leave empty to keep it)</Label>
              <Input
                id={`${id}-password`}
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={minPassword}
                aria-describedby={`${id}-password-rule${fieldErrors.password ? ` ${id}-password-error` : ""}`}
              />
              <p id={`${id}-password-rule`} className="text-xs text-muted-foreground">
                At least {minPassword} characters. The user&apos;s sessions end.
              </p>
              {fieldErrors.password ? (
                <p id={`${id}-password-error`} className="text-xs text-destructive">
                  {fieldErrors.password}
                </p>
              ) : null}
            </div>
            {error ? (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button type="button" variant="ghost">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={busy}>
                {busy ? "Saving…" : "Save changes"}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
