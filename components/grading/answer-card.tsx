"use client";

import { useEffect, useId, useRef, useState } from "react";
import { cn } from "@/lib/utils";

/**
 * One answer, labelled by its repetition only ("Answer 2"): nothing else about
 * where it came from is known to this page. When the text is taller than its
 * box the box scrolls and becomes a tab stop, so it can be read by keyboard.
 */
export function AnswerCard({
  repetition,
  children,
  className,
  bodyClassName,
  caption,
  headingLevel = "h4",
}: {
  repetition: number;
  /** The answer, its Markdown already rendered (on the server). */
  children: React.ReactNode;
  className?: string;
  bodyClassName?: string;
  caption?: string;
  headingLevel?: "h3" | "h4";
}) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  const headingId = useId();
  const Heading = headingLevel;

  useEffect(() => {
    const el = bodyRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const check = () => setScrollable(el.scrollHeight > el.clientHeight + 1);
    const ro = new ResizeObserver(check);
    ro.observe(el);
    check();
    return () => ro.disconnect();
  }, []);

  return (
    <article aria-labelledby={headingId} className={cn("flex min-h-0 flex-col rounded-lg border border-border bg-background shadow-sm", className)}>
      <header className="flex items-center gap-2 border-b border-border px-4 py-2.5">
        <span aria-hidden className="flex size-6 items-center justify-center rounded-md bg-primary/10 text-xs font-semibold text-primary tabular-nums">
          {repetition}
        </span>
        <Heading id={headingId} className="text-sm font-semibold">
          Answer {repetition}
        </Heading>
        {caption ? <span className="ml-auto text-xs text-muted-foreground">{caption}</span> : null}
      </header>
      <div
        ref={bodyRef}
        tabIndex={scrollable ? 0 : undefined}
        role={scrollable ? "region" : undefined}
        aria-label={scrollable ? `Answer ${repetition} text (scrollable)` : undefined}
        className={cn("min-h-0 flex-1 overflow-y-auto px-4 py-3 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring", bodyClassName)}
      >
        {children}
      </div>
    </article>
  );
}
