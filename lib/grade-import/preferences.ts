import { randomUUID } from "node:crypto";
import type pg from "pg";
import { ApiError } from "@/lib/errors/api-error";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { SPECIALTY_NAMES_LOCK } from "@/lib/specialties/lock";
import { textProblem } from "@/lib/validation/text";
import { MAX_PROBLEMS, type GradeProblem } from "./rows";
import type { GradeImportResult } from "./service";
import type { GradeTable } from "./tables";

/**
 * Preferences collected elsewhere, into a pairwise study (POST /grade-imports on a study of the
 * pairwise design): a long CSV `item_id,model_a,model_b,rater,axis,choice[,strength]`, choice
 * a / b / tie, one row per rater, pair and axis. As for outside grades (./service.ts): each rater
 * becomes a pseudonymous external grader, items, models and answer sets the study lacks are
 * created (without text), each rater x comparison a SUBMITTED PRIMARY comparison assignment; the
 * preferences are final as imported (no escalation). A pair already planned on that question is
 * the same comparison (in either order: a choice is stored relative to its sides); otherwise a
 * comparison is made with model_a on the left. All or nothing: any problem, or a dry run, rolls
 * it all back; a preference already stored with another value is a problem, never overwritten.
 * A rater named as one of the study's automated judges is that judge: its rows become the judge's
 * preferences (JudgePreference, one order only, so no order effects; a strength is not kept).
 */
export const PREFERENCE_COLUMNS = ["item_id", "model_a", "model_b", "rater", "axis", "choice"] as const;

/** A header that names the preference format's columns (strength optional). */
export function isPreferenceHeader(header: readonly string[]): boolean {
  const names = new Set(header.map((h) => h.trim().toLowerCase()));
  return PREFERENCE_COLUMNS.every((c) => names.has(c));
}

interface Row {
  line: number;
  item: string;
  a: string;
  b: string;
  rater: string;
  rubric: string;
  axis: string;
  choice: "a" | "b" | "tie";
  strength: "SLIGHTLY" | "CLEARLY" | null;
}

const rejection = (problems: GradeProblem[], total: number) =>
  new ApiError(422, `${total.toLocaleString("en")} problem${total === 1 ? "" : "s"} in the file; nothing was imported`, { errors: problems.slice(0, MAX_PROBLEMS), total });

/** Reads and checks every row against the study's axes; the rows, or every problem. */
async function readRows(tables: AsyncIterable<GradeTable>, rubrics: ReturnType<typeof storedRubrics>): Promise<{ rows: Row[]; problems: GradeProblem[]; total: number; read: number }> {
  const axes = preferenceAxes(rubrics);
  const byKey = new Map<string, (typeof axes)[number][]>();
  for (const a of axes) {
    byKey.set(a.axis.key, [...(byKey.get(a.axis.key) ?? []), a]);
    byKey.set(`${a.rubric}.${a.axis.key}`, [a]);
  }
  const problems: GradeProblem[] = [];
  let total = 0;
  const problem = (row: number, column: string | null, message: string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push({ sheet: null, row, column, message });
  };
  const rows: Row[] = [];
  const seen = new Map<string, number>();
  let read = 0;
  for await (const t of tables) {
    const col = new Map(t.header.map((h, i) => [h.trim().toLowerCase(), i]));
    for await (const batch of t.rows) {
      for (const r of batch) {
        read++;
        const cell = (name: string) => (col.has(name) ? (r.cells[col.get(name)!] ?? "").trim() : "");
        const [item, a, b, rater, axisText, choiceText, strengthText] = ["item_id", "model_a", "model_b", "rater", "axis", "choice", "strength"].map(cell);
        let ok = true;
        const fail = (column: string | null, message: string) => {
          problem(r.row, column, message);
          ok = false;
        };
        for (const [name, v] of [["item_id", item], ["model_a", a], ["model_b", b], ["rater", rater], ["axis", axisText]] as const) {
          const bad = v ? textProblem(v, "line") : null;
          if (!v) fail(name, `${name} is empty`);
          else if (bad) fail(name, `${name}: ${bad}`);
          else if (v.length > 200) fail(name, `${name} is longer than 200 characters`);
        }
        if (a && a === b) fail("model_b", "model_a and model_b are the same model: a preference compares two");
        const found = byKey.get(axisText) ?? [];
        if (axisText && found.length !== 1) {
          fail("axis", found.length ? `"${axisText}" is an axis of several rubrics: write it as <rubric>.<axis>` : `the study has no preference axis "${axisText}" (its axes: ${axes.map((x) => x.axis.key).join(", ")})`);
        }
        const choice = choiceText.toLowerCase();
        if (choice !== "a" && choice !== "b" && choice !== "tie") fail("choice", `choice is a, b or tie, not "${choiceText.slice(0, 40)}"`);
        const strength = strengthText.toLowerCase();
        if (strength && strength !== "slightly" && strength !== "clearly") fail("strength", `strength is slightly, clearly or empty, not "${strengthText.slice(0, 40)}"`);
        const axis = found[0];
        if (axis && choice === "tie" && axis.axis.scale.allowTie === false) fail("choice", `"${axis.axis.name}" does not allow a tie`);
        if (axis && strength && !axis.axis.scale.strength) fail("strength", `"${axis.axis.name}" asks for no strength`);
        if (strength && choice === "tie") fail("strength", "a tie has no strength");
        if (!ok || !axis) continue;
        const pair = [a, b].sort().join("\u0000");
        const key = `${item}\u0000${pair}\u0000${rater}\u0000${axis.rubric}.${axis.axis.key}`;
        if (seen.has(key)) {
          problem(r.row, null, `${rater}'s ${axis.axis.key} of ${a} against ${b} on item ${item} is already on line ${seen.get(key)}`);
          continue;
        }
        seen.set(key, r.row);
        rows.push({ line: r.row, item, a, b, rater, rubric: axis.rubric, axis: axis.axis.key, choice: choice as Row["choice"], strength: strength ? (strength === "slightly" ? "SLIGHTLY" : "CLEARLY") : null });
      }
    }
  }
  if (read === 0) problem(1, null, "the file has no rows of preferences");
  return { rows, problems, total, read };
}

/** Imports the file's preferences on the caller's connection, inside its transaction, after the study row was locked. */
export async function importPreferencesLocked(
  client: pg.Client,
  study: { id: string; rubrics: unknown; now: Date },
  tables: AsyncIterable<GradeTable>,
): Promise<Omit<GradeImportResult, "dryRun">> {
  const rubrics = storedRubrics(study.rubrics);
  const { rows, problems, total, read } = await readRows(tables, rubrics);
  if (total) throw rejection(problems, total);
  const ts = study.now.toISOString();
  const q = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => client.query<T>(sql, values).then((r) => r.rows);

  // Items and models: those the study has, then the missing ones (as outside grades create them: no text, "Unspecified").
  const itemNames = [...new Set(rows.map((r) => r.item))];
  const modelNames = [...new Set(rows.flatMap((r) => [r.a, r.b]))];
  const items = new Map((await q<{ id: string; ext: string }>(`SELECT id, "externalId" AS ext FROM "QaItem" WHERE "studyId" = $1::uuid AND "externalId" = ANY($2::text[])`, [study.id, itemNames])).map((r) => [r.ext, r.id]));
  const models = new Map((await q<{ id: string; name: string }>(`SELECT id, name FROM "LlmModel" WHERE "studyId" = $1::uuid AND name = ANY($2::text[])`, [study.id, modelNames])).map((r) => [r.name, r.id]));
  const newItems = itemNames.filter((n) => !items.has(n));
  const newModels = modelNames.filter((n) => !models.has(n));
  for (const n of newItems) items.set(n, randomUUID());
  for (const n of newModels) models.set(n, randomUUID());
  if (newItems.length) {
    await q(SPECIALTY_NAMES_LOCK);
    let [sp] = await q<{ id: string }>(`SELECT id FROM "Specialty" WHERE lower(name) = 'unspecified' ORDER BY name LIMIT 1`);
    if (!sp) [sp] = await q<{ id: string }>(`INSERT INTO "Specialty" (id, name) VALUES (gen_random_uuid(), 'Unspecified') RETURNING id`);
    await q(
      `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt") SELECT u.id, $1::uuid, u.ext, '', $4::uuid, $5::timestamptz FROM unnest($2::uuid[], $3::text[]) AS u(id, ext)`,
      [study.id, newItems.map((n) => items.get(n)), newItems, sp.id, ts],
    );
  }
  if (newModels.length) {
    await q(`INSERT INTO "LlmModel" (id, "studyId", name) SELECT u.id, $1::uuid, u.name FROM unnest($2::uuid[], $3::text[]) AS u(id, name)`, [study.id, newModels.map((n) => models.get(n)), newModels]);
  }
  // Answer sets (item x model), made where missing; an imported one is final at once (no grader at work on it).
  const setPairs = [...new Set(rows.flatMap((r) => [`${items.get(r.item)}|${models.get(r.a)}`, `${items.get(r.item)}|${models.get(r.b)}`]))].map((s) => s.split("|"));
  const setsBefore = await q<{ n: number }>(`SELECT count(*)::int AS n FROM "ResponseSet" WHERE "studyId" = $1::uuid`, [study.id]);
  await q(
    `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, u.item, u.model, 'AGREED', $4::timestamptz FROM unnest($2::uuid[], $3::uuid[]) AS u(item, model)
     ON CONFLICT ("itemId", "modelId") DO NOTHING`,
    [study.id, setPairs.map((p) => p[0]), setPairs.map((p) => p[1]), ts],
  );
  const setsAfter = await q<{ n: number }>(`SELECT count(*)::int AS n FROM "ResponseSet" WHERE "studyId" = $1::uuid`, [study.id]);
  const sets = new Map(
    (await q<{ id: string; itemId: string; modelId: string }>(`SELECT id, "itemId", "modelId" FROM "ResponseSet" WHERE "studyId" = $1::uuid AND "itemId" = ANY($2::uuid[])`, [study.id, [...new Set(setPairs.map((p) => p[0]))]])).map((s) => [`${s.itemId}|${s.modelId}`, s.id]),
  );
  const setOf = (item: string, model: string) => sets.get(`${items.get(item)}|${models.get(model)}`)!;

  // Comparisons: a pair already on the question (either side), or a new one with model_a on the left.
  const comparisons = new Map<string, { id: string; left: string }>();
  for (const c of await q<{ id: string; leftSetId: string; rightSetId: string }>(`SELECT id, "leftSetId", "rightSetId" FROM "Comparison" WHERE "studyId" = $1::uuid`, [study.id])) {
    const key = [c.leftSetId, c.rightSetId].sort().join("|");
    if (!comparisons.has(key)) comparisons.set(key, { id: c.id, left: c.leftSetId });
  }
  const created: { id: string; item: string; left: string; right: string }[] = [];
  for (const r of rows) {
    const [sa, sb] = [setOf(r.item, r.a), setOf(r.item, r.b)];
    const key = [sa, sb].sort().join("|");
    if (!comparisons.has(key)) {
      const id = randomUUID();
      comparisons.set(key, { id, left: sa });
      created.push({ id, item: items.get(r.item)!, left: sa, right: sb });
    }
  }
  if (created.length) {
    await q(
      `INSERT INTO "Comparison" (id, "studyId", "itemId", "leftSetId", "leftRepetition", "rightSetId", "rightRepetition", status, "updatedAt")
       SELECT u.id, $1::uuid, u.item, u.l, 1, u.r, 1, 'AGREED', $6::timestamptz FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[]) AS u(id, item, l, r)`,
      [study.id, created.map((c) => c.id), created.map((c) => c.item), created.map((c) => c.left), created.map((c) => c.right), ts],
    );
  }

  // A rater named as one of the study's automated judges is that judge: its rows are the judge's preferences.
  const judgeNames = [...new Set(rows.map((r) => r.rater))];
  const judges = new Map((await q<{ id: string; name: string }>(`SELECT id, name FROM "AutomatedJudge" WHERE "studyId" = $1::uuid AND name = ANY($2::text[])`, [study.id, judgeNames])).map((r) => [r.name, r.id]));
  const sideChoice = (r: Row) => {
    const c = comparisons.get([setOf(r.item, r.a), setOf(r.item, r.b)].sort().join("|"))!;
    const aIsLeft = c.left === setOf(r.item, r.a);
    return { comparison: c.id, choice: r.choice === "tie" ? "TIE" : (r.choice === "a") === aIsLeft ? "LEFT" : "RIGHT" };
  };
  const judgeRows = rows.filter((r) => judges.has(r.rater));
  const judgeCreated = judgeRows.length ? await importJudgePreferences(q, client, judgeRows.map((r) => ({ line: r.line, judge: judges.get(r.rater)!, rubric: r.rubric, axis: r.axis, ...sideChoice(r) })), ts) : 0;
  const graderRows = rows.filter((r) => !judges.has(r.rater));

  // Raters: the study's external graders by name, or new ones (inactive, no credentials), members of the study.
  const raterNames = [...new Set(graderRows.map((r) => r.rater))];
  const raters = new Map((await q<{ id: string; name: string }>(`SELECT id, name FROM "User" WHERE "externalStudyId" = $1::uuid AND name = ANY($2::text[])`, [study.id, raterNames])).map((r) => [r.name, r.id]));
  const newRaters = raterNames.filter((n) => !raters.has(n));
  for (const n of newRaters) raters.set(n, randomUUID());
  if (newRaters.length) {
    await q(
      `INSERT INTO "User" (id, email, name, "passwordHash", role, active, "externalStudyId", "updatedAt")
       SELECT u.id, 'ext-' || u.id::text || '@external.invalid', u.name, '', 'GRADER', false, $1::uuid, $4::timestamptz FROM unnest($2::uuid[], $3::text[]) AS u(id, name)`,
      [study.id, newRaters.map((n) => raters.get(n)), newRaters, ts],
    );
  }
  await q(`INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT $1::uuid, u, 'GRADER' FROM unnest($2::uuid[]) AS u ON CONFLICT DO NOTHING`, [study.id, [...raters.values()]]);

  // Assignments (rater x comparison), then the preferences: compared with those stored, inserted where missing.
  const cells = graderRows.map((r) => ({ line: r.line, ...sideChoice(r), grader: raters.get(r.rater)!, rubric: r.rubric, axis: r.axis, strength: r.strength }));
  await q(
    `INSERT INTO "ComparisonAssignment" (id, "comparisonId", "studyId", "graderId", kind, position, status, "submittedAt", "updatedAt")
     SELECT gen_random_uuid(), u.c, $1::uuid, u.g, 'PRIMARY', 0, 'SUBMITTED', $4::timestamptz, $4::timestamptz FROM (SELECT DISTINCT * FROM unnest($2::uuid[], $3::uuid[]) AS x(c, g)) u
     ON CONFLICT ("graderId", "comparisonId") DO NOTHING`,
    [study.id, cells.map((c) => c.comparison), cells.map((c) => c.grader), ts],
  );
  const staged = `unnest($1::int[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[]) AS s(line, c, g, rubric, axis, choice, strength)`;
  const values = [cells.map((c) => c.line), cells.map((c) => c.comparison), cells.map((c) => c.grader), cells.map((c) => c.rubric), cells.map((c) => c.axis), cells.map((c) => c.choice), cells.map((c) => c.strength)];
  const join = `FROM ${staged} JOIN "ComparisonAssignment" a ON a."comparisonId" = s.c AND a."graderId" = s.g`;
  const conflicts = await q<{ line: number; old: string }>(
    `SELECT s.line, lower(p.choice::text) || coalesce(' ' || lower(p.strength::text), '') AS old ${join}
     JOIN "Preference" p ON p."assignmentId" = a.id AND p.rubric = s.rubric AND p.axis = s.axis
     WHERE p.choice::text <> s.choice OR p.strength::text IS DISTINCT FROM s.strength ORDER BY s.line LIMIT ${MAX_PROBLEMS}`,
    values,
  );
  if (conflicts.length) {
    throw rejection(
      conflicts.map((c) => ({ sheet: null, row: c.line, column: "choice", message: `this preference is already stored as ${c.old} (relative to the comparison's sides): an imported preference is not overwritten` })),
      conflicts.length,
    );
  }
  const inserted = await client.query(
    `INSERT INTO "Preference" (id, "assignmentId", rubric, axis, choice, strength, "updatedAt")
     SELECT gen_random_uuid(), a.id, s.rubric, s.axis, s.choice::"PreferenceChoice", s.strength::"PreferenceStrength", $8::timestamptz ${join}
     ON CONFLICT ("assignmentId", rubric, axis) DO NOTHING`,
    [...values, ts],
  );
  const createdPrefs = (inserted.rowCount ?? 0) + judgeCreated;
  return {
    items: itemNames.length,
    models: modelNames.length,
    raters: raterNames.length + new Set(judgeRows.map((r) => r.rater)).size,
    grades: rows.length,
    created: createdPrefs,
    unchanged: rows.length - createdPrefs,
    new: { items: newItems.length, models: newModels.length, raters: newRaters.length, responseSets: setsAfter[0].n - setsBefore[0].n, comparisons: created.length },
    rows: read,
  };
}

/**
 * A judge's preferences, as imported: the choice given (one order only, so no order effects),
 * compared with those stored (a different value is a problem, never overwritten), inserted where missing.
 */
async function importJudgePreferences(
  q: <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<T[]>,
  client: pg.Client,
  cells: { line: number; judge: string; comparison: string; rubric: string; axis: string; choice: string }[],
  ts: string,
): Promise<number> {
  const staged = `unnest($1::int[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS s(line, j, c, rubric, axis, choice)`;
  const values = [cells.map((c) => c.line), cells.map((c) => c.judge), cells.map((c) => c.comparison), cells.map((c) => c.rubric), cells.map((c) => c.axis), cells.map((c) => c.choice)];
  const conflicts = await q<{ line: number; old: string }>(
    `SELECT s.line, lower(p.choice::text) AS old FROM ${staged}
     JOIN "JudgePreference" p ON p."judgeId" = s.j AND p."comparisonId" = s.c AND p.rubric = s.rubric AND p.axis = s.axis
     WHERE p.choice::text <> s.choice ORDER BY s.line LIMIT ${MAX_PROBLEMS}`,
    values,
  );
  if (conflicts.length) {
    throw rejection(
      conflicts.map((c) => ({ sheet: null, row: c.line, column: "choice", message: `the judge's preference is already stored as ${c.old} (relative to the comparison's sides): an imported preference is not overwritten` })),
      conflicts.length,
    );
  }
  const inserted = await client.query(
    `INSERT INTO "JudgePreference" (id, "judgeId", "comparisonId", rubric, axis, choice, "updatedAt")
     SELECT gen_random_uuid(), s.j, s.c, s.rubric, s.axis, s.choice::"PreferenceChoice", $7::timestamptz FROM ${staged}
     ON CONFLICT ("judgeId", "comparisonId", rubric, axis) DO NOTHING`,
    [...values, ts],
  );
  return inserted.rowCount ?? 0;
}
