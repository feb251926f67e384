import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { signInErrorMessage } from "@/components/auth/sign-in-errors";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { passwordsEnabled, ssoConfigFromEnv } from "@/lib/auth/sso-config";
import { currentUser, homeFor } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  if (user) redirect(homeFor(user.role));
  const { error } = await searchParams;
  // scripts/start.ts refused to start with a wrong setting, so these do not throw here.
  const sso = ssoConfigFromEnv();
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-lg font-semibold leading-none tracking-tight">
            <span className="text-primary">Clingrade</span> · Sign in
          </h1>
          <CardDescription>Blinded expert grading of LLM answers to clinical questions.</CardDescription>
        </CardHeader>
        <CardContent>
          <LoginForm
            passwords={passwordsEnabled()}
            sso={sso ? { label: sso.label } : null}
            initialError={signInErrorMessage(typeof error === "string" ? error : undefined)}
          />
        </CardContent>
      </Card>
    </main>
  );
}
