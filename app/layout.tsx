import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Clingrade", template: "%s · Clingrade" },
  description: "Blinded expert grading of LLM answers to clinical questions, with published rubrics or the study's own.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, the 404 page too: its scripts need the
  // request's CSP nonce (proxy.ts), which a page built ahead of time cannot carry.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
