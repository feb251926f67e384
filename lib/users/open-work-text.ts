/** Open work as people read it (the sentence itself is lib/mail/open-work-text.ts); no runtime imports of the server, so client components can use it. */
/** Unsubmitted work a user holds, per study: what deactivating them leaves for the leads to move. */
export interface OpenWork {
  studyId: string;
  studyName: string;
  /** Pending or started, not submitted. */
  openAssignments: number;
  /** Of them, third-grader (adjudication) assignments: these hold up final scores. */
  openAdjudications: number;
}

export { describeOpenWork } from "@/lib/mail/open-work-text";
