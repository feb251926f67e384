"use client";

export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "4rem", textAlign: "center" }}>
        <h1>Clingrade could not load this page</h1>
        <p>Please reload. If it happens again, tell your administrator{error.digest ? ` (reference ${error.digest})` : ""}.</p>
      </body>
    </html>
  );
}
