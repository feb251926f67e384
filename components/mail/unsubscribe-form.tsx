"use client";

import { useEffect, useState } from "react";

/** The unsubscribe link's page: its signed token is in the fragment; posting it turns the weekly digest off, nothing else. */
export function UnsubscribeForm() {
  const [state, setState] = useState<"working" | "done" | "bad">("working");
  useEffect(() => {
    const token = window.location.hash.slice(1);
    window.history.replaceState(null, "", window.location.pathname);
    void fetch("/api/v1/unsubscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) })
      .then((res) => setState(res.ok ? "done" : "bad"))
      .catch(() => setState("bad"));
  }, []);
  if (state === "working") return <p role="status">Unsubscribing…</p>;
  if (state === "bad")
    return (
      <p role="alert" className="text-sm text-destructive">
        This unsubscribe link is not valid. Signed in, you can turn the weekly digest off on your queue page.
      </p>
    );
  return <p role="status">You will no longer receive the weekly digest. Reminders of your deadlines still come.</p>;
}
