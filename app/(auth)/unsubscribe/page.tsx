import type { Metadata } from "next";
import { UnsubscribeForm } from "@/components/mail/unsubscribe-form";
import { Card, CardContent, CardHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Unsubscribe", referrer: "no-referrer" };

/** Public: the weekly digest's unsubscribe link (no sign-in; it changes that one setting). */
export default function UnsubscribePage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-lg font-semibold leading-none tracking-tight">
            <span className="text-primary">Clingrade</span> · Weekly digest
          </h1>
        </CardHeader>
        <CardContent>
          <UnsubscribeForm />
        </CardContent>
      </Card>
    </main>
  );
}
