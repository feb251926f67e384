"use client";

import { createContext, useContext } from "react";
import { rubricName } from "@/lib/analytics/tables";

/** The study's rubric names by key, for panels that only carry a rubric's key. */
const RubricNames = createContext<Record<string, string>>({});

export function RubricNamesProvider({ names, children }: { names: Record<string, string>; children: React.ReactNode }) {
  return <RubricNames.Provider value={names}>{children}</RubricNames.Provider>;
}

/** A rubric's name: the study's document's, else its key. */
export function useRubricName(): (key: string) => string {
  const names = useContext(RubricNames);
  return (key) => names[key] ?? rubricName(key);
}

const PALETTE = ["#0f4c81", "#0f8b8d", "#7a4e9e", "#a0522d", "#3b6e22", "#8c2f39"];
/** A series' colour (a rubric, or a rubric's measure) by its place among those shown. */
export function rubricColor(key: string, keys: readonly string[]): string {
  return PALETTE[Math.max(0, keys.indexOf(key)) % PALETTE.length];
}
