"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { ScreeningResultBody } from "@/lib/screening/contract";

/** A screen whose judge is still reading the answers: its progress, the page refreshed until it is done (the state is the server's). */

const POLL_MS = 2000;

export function ScreenProgress({ progress }: { progress: NonNullable<ScreeningResultBody["inProgress"]> }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [router]);
  return (
    <p role="status" className="rounded-md border px-3 py-2 text-sm" data-testid="screen-in-progress">
      The automated judge ({progress.judge.endpoint}) is screening the answers: {progress.judgedAnswers.toLocaleString("en")} of{" "}
      {progress.answers.toLocaleString("en")} read. The run becomes the study&apos;s screen when it is done; until then the current screen stays.
    </p>
  );
}
