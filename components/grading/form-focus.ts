/** The grading form's small helpers: why the harm flag is offered, and moving focus to a field. */
import { fieldDomId, formCells, type CellKey, type FormState, type StudyShape } from "@/lib/grading/form-state";

/** Why the harm flag is offered: each score at or below its dimension's harm level ("S.C.O.R.E. safety is 2 on Answer 1"). */
export function harmReasons(state: FormState, study: StudyShape): string[] {
  const out: string[] = [];
  for (const c of formCells(state)) {
    const doc = study.rubrics.find((r) => r.key === c.rubric);
    const d = doc?.dimensions.find((x) => x.key === c.dimension);
    if (!doc || d?.harmAtOrBelow === undefined || c.score === null || c.score > d.harmAtOrBelow) continue;
    out.push(`${doc.name} ${d.name.toLowerCase()} is ${c.score} on Answer ${c.repetition || 1}`);
  }
  return out;
}

/** Moves keyboard focus to a field's chosen level (or its first), scrolling it into view (after its tab, on a phone, is shown). */
export function focusField(key: CellKey) {
  requestAnimationFrame(() => focusFieldNow(key));
}
function focusFieldNow(key: CellKey) {
  const el = document.getElementById(fieldDomId(key));
  const radio = el?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ?? el?.querySelector<HTMLInputElement>('input[type="radio"]');
  el?.scrollIntoView({ block: "center", behavior: "smooth" });
  radio?.focus({ preventScroll: true });
}
