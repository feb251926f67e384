import type { RubricProblem } from "@/lib/rubrics/document";

/** The problems that name `path` (and, when deep, anything inside it). */
export function problemsAt(problems: RubricProblem[], path: string, deep = false): RubricProblem[] {
  return problems.filter((p) => p.path === path || (deep && p.path.startsWith(`${path}.`)));
}

/** Attributes tying an input to the problems shown beside it. */
export function invalidProps(id: string, problems: RubricProblem[]) {
  return problems.length ? { "aria-invalid": true as const, "aria-describedby": id } : {};
}

/** The problems of one field, right beside it (the input names this id in aria-describedby). */
export function FieldProblems({ id, problems }: { id: string; problems: RubricProblem[] }) {
  if (!problems.length) return null;
  return (
    <p id={id} className="text-xs font-medium text-destructive" data-problem-path={problems.map((p) => p.path).join(" ")}>
      {problems.map((p) => p.message).join("; ")}
    </p>
  );
}
