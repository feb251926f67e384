import { wordRegExp } from "./terms";
import type { RubricDocument } from "@/lib/rubrics/document";

/**
 * Graders read the rubric (names, definitions, instructions, level labels and examples) and the
 * study's grader-facing title: a model's name written there unblinds every set. These are the
 * problems, one per field that names one of `terms` (the study's model names and versions).
 */
export function modelNamesInGraderText(docs: readonly RubricDocument[], graderTitle: string, terms: readonly string[]): { path: string; message: string }[] {
  if (terms.length === 0) return [];
  const patterns = terms.map((t) => [t, wordRegExp(t)] as const);
  const problems: { path: string; message: string }[] = [];
  const check = (path: string, text: string | undefined) => {
    if (!text) return;
    const hit = patterns.find(([, re]) => re.test(text));
    if (hit) problems.push({ path, message: `names the model "${hit[0]}", which graders would read; reword it to keep the study blind` });
  };
  check("graderTitle", graderTitle);
  docs.forEach((doc, i) => {
    const at = `rubrics.${i}`;
    check(`${at}.name`, doc.name);
    check(`${at}.source`, doc.source);
    check(`${at}.instructions`, doc.instructions);
    doc.dimensions.forEach((d, j) => {
      check(`${at}.dimensions.${j}.name`, d.name);
      check(`${at}.dimensions.${j}.definition`, d.definition);
      check(`${at}.dimensions.${j}.instructions`, d.instructions);
      d.scale.levels?.forEach((l, k) => {
        check(`${at}.dimensions.${j}.scale.levels.${k}.label`, l.label);
        check(`${at}.dimensions.${j}.scale.levels.${k}.example`, l.example);
      });
    });
    doc.totals.forEach((t, j) => {
      check(`${at}.totals.${j}.name`, t.name);
      if ("bands" in t) t.bands?.forEach((b, k) => check(`${at}.totals.${j}.bands.${k}.label`, b.label));
    });
  });
  return problems;
}
