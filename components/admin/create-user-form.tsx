"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiRequest } from "@/components/studies/api-client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-rule";

/** Creates an account with the same rules as the admin CLI; the password is shown only to the admin typing it. */
export function CreateUserForm({ mail = false }: { mail?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      noValidate
      className="grid gap-3 rounded-lg border border-border p-4 md:grid-cols-5 md:items-start"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const d = new FormData(form);
        setBusy(true);
        const r = await apiRequest<{ id: string; invitationId?: string }>("POST", "/api/v1/users", {
          email: String(d.get("email") ?? ""),
          name: String(d.get("name") ?? ""),
          role: String(d.get("role") ?? "LEAD"),
          // Empty: the server e-mails an invitation to choose one (when e-mail is on; else it says the password is required).
          ...(String(d.get("password") ?? "") ? { password: String(d.get("password")) } : {}),
        });
        setBusy(false);
        if (!r.ok) {
          setDone(null);
          setFieldErrors(r.fieldErrors);
          setError(r.error === "Some fields need attention; see the messages below them." ? Object.values(r.fieldErrors).join("; ") || r.error : r.error);
          return;
        }
        setFieldErrors({});
        setError(null);
        setDone(`Created ${String(d.get("email"))}.${r.data.invitationId ? " An invitation to choose a password is on its way." : ""}`);
        form.reset();
        router.refresh();
      }}
    >
      <h2 className="font-semibold md:col-span-5">Create a user</h2>
      <div className="flex flex-col gap-1">
        <Label htmlFor="new-name">Name</Label>
        <Input id="new-name" name="name" required />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="new-email">Email</Label>
        <Input id="new-email" name="email" type="email" required />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="new-role">Role</Label>
        <select id="new-role" name="role" className="h-9 rounded-md border border-border bg-background px-2 text-sm" defaultValue="LEAD">
          <option value="LEAD">Study lead</option>
          <option value="GRADER">Grader</option>
          <option value="ADMIN">Administrator</option>
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="new-password">Initial password{mail ? " (optional)" : ""}</Label>
        <Input
          id="new-password"
          name="password"
          type="password"
          minLength={MIN_PASSWORD_LENGTH}
          required={!mail}
          autoComplete="new-password"
          aria-describedby={`new-password-rule${fieldErrors.password ? " new-password-error" : ""}`}
          aria-invalid={fieldErrors.password ? true : undefined}
        />
        <p id="new-password-rule" className="text-xs text-muted-foreground">
          At least {MIN_PASSWORD_LENGTH} characters.{mail ? " Empty: the person is e-mailed an invitation to choose their own." : ""}
        </p>
        {fieldErrors.password ? (
          <p id="new-password-error" className="text-xs text-destructive">
            {fieldErrors.password}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create user"}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-destructive md:col-span-5">
          {error}
        </p>
      ) : null}
      {done ? (
        <p role="status" className="text-sm text-success md:col-span-5">
          {done}
        </p>
      ) : null}
    </form>
  );
}
