"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A box that may scroll (a wide table on a narrow screen). When, and only
 * when, its content overflows it becomes a named, focusable region
 * (tabIndex=0), so a keyboard user can scroll it (WCAG 2.1.1; axe's
 * scrollable-region-focusable) without a useless tab stop on every table
 * that fits.
 */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrollable(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className={className} {...(scrollable ? { tabIndex: 0, role: "region", "aria-label": `${label} (scrolls)` } : {})}>
      {children}
    </div>
  );
}
