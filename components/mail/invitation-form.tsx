"use client";

import { signIn } from "next-auth/react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { describedBy, Field, FormMessage } from "@/components/studies/form-field";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-rule";

type Phase =
  | { kind: "checking" }
  | { kind: "unusable"; message: string }
  | { kind: "ready"; token: string; passwords: boolean; sso: string | null }
  | { kind: "done"; email: string };

/**
 * The invitation link's page. The token is in the URL's fragment, which the
 * browser never sends to a server (so no log or Referer holds it): this
 * script reads it, drops it from the address bar, and posts it.
 */
export function InvitationForm() {
  const [phase, setPhase] = useState<Phase>({ kind: "checking" });
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const token = window.location.hash.slice(1);
    window.history.replaceState(null, "", window.location.pathname);
    void (async () => {
      const res = await fetch("/api/v1/invitations/open", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) }).catch(() => null);
      const body = (await res?.json().catch(() => null)) as { passwords?: boolean; sso?: string | null; error?: string } | null;
      if (res?.ok && body) setPhase({ kind: "ready", token, passwords: Boolean(body.passwords), sso: body.sso ?? null });
      else setPhase({ kind: "unusable", message: body?.error ?? "The server could not be reached. Try the link again." });
    })();
  }, []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase.kind !== "ready") return;
    const data = new FormData(event.currentTarget);
    const password = String(data.get("password") ?? "");
    if (password !== String(data.get("confirm") ?? "")) {
      setFieldError("the two passwords differ");
      return;
    }
    setPending(true);
    setError(null);
    setFieldError(undefined);
    const res = await fetch("/api/v1/invitations/accept", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: phase.token, password }) }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { email?: string; error?: string; details?: { path?: string; message?: string }[] } | null;
    setPending(false);
    if (res?.ok && body?.email) return setPhase({ kind: "done", email: body.email });
    const detail = body?.details?.find((d) => d.path === "password")?.message;
    if (detail) setFieldError(detail);
    else if (res?.status === 404) setPhase({ kind: "unusable", message: body?.error ?? "This link cannot be used." });
    else setError(body?.error ?? "The server could not be reached. Try again.");
  }

  /** The link is checked and held in a cookie for the sign-in, which accepts the invitation when the provider sends the person back. */
  async function onSso() {
    if (phase.kind !== "ready") return;
    setPending(true);
    setError(null);
    const res = await fetch("/api/v1/invitations/sso", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: phase.token }) }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { error?: string } | null;
    if (res?.ok) return void signIn("oidc", { callbackUrl: "/" });
    setPending(false);
    if (res?.status === 404) setPhase({ kind: "unusable", message: body?.error ?? "This link cannot be used." });
    else setError(body?.error ?? "The server could not be reached. Try again.");
  }

  if (phase.kind === "checking") return <p role="status">Checking the link…</p>;
  if (phase.kind === "unusable")
    return (
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-destructive">
        {phase.message}
      </p>
    );
  if (phase.kind === "done")
    return (
      <div role="status" className="flex flex-col gap-3 text-sm">
        <p>
          Your password is set. Sign in with <strong>{phase.email}</strong> and your new password.
        </p>
        <a className="font-medium text-primary underline" href="/login">
          Go to sign in
        </a>
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <FormMessage error={error} />
      {phase.sso ? (
        <Button type="button" variant={phase.passwords ? "outline" : "default"} disabled={pending} onClick={() => void onSso()}>
          Sign in with {phase.sso} instead
        </Button>
      ) : null}
      {phase.passwords ? (
        <form onSubmit={onSubmit} noValidate aria-label="Choose your password" className="flex flex-col gap-4">
          <Field id="invite-password" label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={fieldError}>
            <Input
              id="invite-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              aria-invalid={Boolean(fieldError)}
              aria-describedby={describedBy("invite-password", true, fieldError)}
            />
          </Field>
          <Field id="invite-confirm" label="The same password again">
            <Input id="invite-confirm" name="confirm" type="password" autoComplete="new-password" required />
          </Field>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Set my password"}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
