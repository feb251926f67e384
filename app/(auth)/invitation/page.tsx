import type { Metadata } from "next";
import { InvitationForm } from "@/components/mail/invitation-form";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Accept your invitation", referrer: "no-referrer" };

/** Public: the invitation link's page (the token stays in the fragment, read by the form). */
export default function InvitationPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-lg font-semibold leading-none tracking-tight">
            <span className="text-primary">Clingrade</span> · Your invitation
          </h1>
          <CardDescription>Choose the password you will sign in with.</CardDescription>
        </CardHeader>
        <CardContent>
          <InvitationForm />
        </CardContent>
      </Card>
    </main>
  );
}
