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

export function LoginForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

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

  return (
    // method="post": if a click lands before the script has loaded, the browser posts the form
    // instead of putting the password in the URL of a GET.
    <form onSubmit={onSubmit} method="post" className="flex flex-col gap-4" noValidate>
      <div className="flex flex-col gap-2">
        <Label htmlFor="email">Email</Label>
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="password">Password</Label>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
