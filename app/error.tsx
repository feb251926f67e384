"use client";

import { CenteredMessage } from "@/components/shell/centered-message";
import { Button } from "@/components/ui/button";

/** Shown when a page fails on the server; the digest lets an admin find the log line. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <CenteredMessage
      code="Error"
      title="Something went wrong"
      action={
        <Button variant="outline" onClick={() => reset()}>
          Try again
        </Button>
      }
    >
      <p>Nothing you entered has been lost: saved work stays saved.</p>
      {error.digest ? <p className="mt-2 text-xs">Reference: {error.digest}</p> : null}
    </CenteredMessage>
  );
}
