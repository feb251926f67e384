/** Open work as people read it; no imports, so client components can use it. */
/** Unsubmitted work a user holds, per study: what deactivating them leaves for the leads to move. */
export interface OpenWork {
  studyId: string;
  studyName: string;
  /** Pending or started, not submitted. */
  openAssignments: number;
  /** Of them, third-grader (adjudication) assignments: these hold up final scores. */
  openAdjudications: number;
}

/** "33 open assignments (1 an adjudication)" */
export function describeOpenWork(open: number, adjudications: number): string {
  const a = `${open} open assignment${open === 1 ? "" : "s"}`;
  if (!adjudications) return a;
  return `${a} (${adjudications} ${adjudications === 1 ? "an adjudication" : "adjudications"})`;
}
