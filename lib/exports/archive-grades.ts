import { ordinalRange } from "@/lib/rubrics/document";
import { archiveRubrics } from "./archive-rubrics";
import type { ArchiveGrade, ArchiveStudy } from "./contract";
import type { z } from "zod";

/**
 * A grade list's checks in a study archive (lib/exports/archive-check.ts), shared by assignments
 * and quality tasks: each grade within the study's rubrics and N, one value each, none twice.
 */
export function checkGrades(add: (path: string, message: string) => void, at: string, grades: z.output<typeof ArchiveGrade>[], study: z.output<typeof ArchiveStudy> | null): void {
    const docs = study ? archiveRubrics(study.rubrics) : [];
    const n = study?.repetitions;
    const cells = new Set<string>();
    grades.forEach((g, j) => {
      const gp = `${at}.grades[${j}]`;
      const doc = docs.find((r) => r.key === g.rubric);
      if (study && !doc) return add(gp, `the study does not use the rubric ${g.rubric}`);
      const def = doc?.dimensions.find((d) => d.key === g.dimension);
      if (!def) return add(gp, `${g.dimension} is not a dimension of ${g.rubric}`);
      const values = Number(g.score !== null) + Number(g.category !== null) + Number(g.na);
      if (values > 1 || (values === 0 && !g.comment?.trim())) add(gp, "a grade is one of a score, a category or na (or, in a draft, a comment alone)");
      if (g.na && !def.scale.allowNA) add(`${gp}.na`, `${g.rubric} ${g.dimension} has no "not applicable"`);
      if (g.score !== null && def.scale.kind === "ordinal") {
        const { min, max } = ordinalRange(def);
        if (g.score < min || g.score > max) add(`${gp}.score`, `${g.rubric} ${g.dimension} scores are ${min}..${max}`);
      }
      if (g.score !== null && def.scale.kind === "criteria" && g.score !== 0 && g.score !== 1) add(`${gp}.score`, "a criterion is met (1) or not (0)");
      if (g.score !== null && def.scale.kind === "nominal") add(`${gp}.score`, `${g.rubric} ${g.dimension} is nominal: its value is a category`);
      if (g.category !== null && !(def.scale.levels ?? []).some((l) => l.value === g.category)) add(`${gp}.category`, `not a level of ${g.rubric} ${g.dimension}`);
      if ((def.scale.kind === "criteria") !== (g.criterion !== "")) add(`${gp}.criterion`, def.scale.kind === "criteria" ? "a criteria grade names its criterion" : "only criteria grades name a criterion");
      if (def.scope === "set" && g.repetition !== 0) add(`${gp}.repetition`, "must be 0 (graded once for the set)");
      if (def.scope !== "set" && (g.repetition === 0 || (n !== undefined && g.repetition > n))) add(`${gp}.repetition`, `must be 1..${n ?? "N"} (the study's N)`);
      const c = `${g.rubric}/${g.dimension}/${g.repetition}/${g.criterion}`;
      if (cells.has(c)) add(gp, "this score appears twice");
      cells.add(c);
    });
}
