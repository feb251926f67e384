"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Whether the key event comes from somewhere that takes typed text. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * "N" opens the next set from anywhere on the queue (outside text fields):
 * the queue's "Next" is always one keystroke away, whichever page is shown.
 */
export function NextShortcut({ href }: { href: string }) {
  const router = useRouter();
  useEffect(() => {
    router.prefetch(href);
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key !== "n" && e.key !== "N") return;
      e.preventDefault();
      router.push(href);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [href, router]);
  return null;
}
