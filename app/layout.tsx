import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Clingrade", template: "%s · Clingrade" },
  description: "Blinded expert grading of LLM answers to clinical questions (S.C.O.R.E. and SAFE-LLM).",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
