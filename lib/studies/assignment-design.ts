/**
 * The assignment designs a lead chooses from when assigning (stored on the
 * study, stated on its page and in exports). Kept free of imports so client
 * components and contracts can name them.
 */
export const ASSIGNMENT_DESIGNS = ["LOAD_BALANCED", "ONE_MODEL_PER_QUESTION"] as const;
export type AssignmentDesign = (typeof ASSIGNMENT_DESIGNS)[number];

/** How the design reads on the study page and in exports. */
export const DESIGN_LABEL: Record<AssignmentDesign, string> = {
  LOAD_BALANCED: "load balanced: any k graders per set (a grader may see several models' answers to one question)",
  ONE_MODEL_PER_QUESTION: "one model per question: each grader sees at most one model's answers to a question, models balanced per grader",
};

/** Graders the one-model design needs: every model's set of a question gets k graders of its own. */
export function gradersNeeded(gradersPerSet: number, models: number): number {
  return gradersPerSet * models;
}
