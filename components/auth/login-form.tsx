"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

const THROTTLED_PREFIX = "THROTTLED:";

function explain(error: string): string {
  if (error.startsWith(THROTTLED_PREFIX)) {
    const minutes = Number(error.slice(THROTTLED_PREFIX.length)) || 15;
    return `Too many failed sign-ins. Try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  return "Email or password is wrong, or the account is deactivated.";
}

interface Props {
  /** false with AUTH_PASSWORDS=off: no password form (and the server refuses password sign-in). */
  passwords: boolean;
  /** Single sign-on, when configured: the button's label. */
  sso: { label: string } | null;
  /** Why the last sign-in failed, from the URL next-auth came back to. */
  initialError: string | null;
}

export function LoginForm({ passwords, sso, initialError }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function onSso() {
    setPending(true);
    setError(null);
    // next-auth fetches the provider's address and navigates there; it comes back to /api/auth/callback/oidc.
    await signIn("oidc", { callbackUrl: "/" });
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      setError(explain(result?.error ?? ""));
      return;
    }
    router.replace("/");
    router.refresh();
  }

  const alert = error ? (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-destructive">
      {error}
    </p>
  ) : null;
  const ssoButton = sso ? (
    <Button type="button" variant={passwords ? "outline" : "default"} disabled={pending} onClick={onSso}>
      Sign in with {sso.label}
    </Button>
  ) : null;

  if (!passwords) {
    return (
      <div className="flex flex-col gap-4">
        {alert}
        {ssoButton ?? <p role="alert">No way of signing in is configured. Ask your administrator.</p>}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {/* method="post": if a click lands before the script has loaded, the browser posts the form
          instead of putting the password in the URL of a GET. */}
      <form onSubmit={onSubmit} method="post" className="flex flex-col gap-4" noValidate>
        <div className="flex flex-col gap-2">
          <Label htmlFor="email">Email</Label>
          <Input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="password">Password</Label>
          <Input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        {alert}
        <Button type="submit" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {ssoButton ? (
        <>
          <p className="text-center text-xs text-muted-foreground">or</p>
          {ssoButton}
        </>
      ) : null}
    </div>
  );
}
