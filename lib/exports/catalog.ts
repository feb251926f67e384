import { CLIFFS_BOOTSTRAP } from "@/lib/results/cliffs-bootstrap";
import type { Dataset, Format } from "./contract";

/** What each dataset is, for the exports page (and anyone reading the code). No server imports: the page's client part uses it. */
export interface DatasetInfo {
  dataset: Dataset;
  title: string;
  formats: readonly Format[];
  description: string;
}

export const DATASET_CATALOG: readonly DatasetInfo[] = [
  {
    dataset: "grades",
    title: "Grades",
    formats: ["csv", "json"],
    description:
      "Every stored score, one row each: item, model (unblinded) and version, repetition (empty for set-level dimensions), set status, grader, primary or adjudicator, rubric, dimension, criterion (criteria rows), score (the numeric part, as before), value (what the grader gave: a number, a nominal level's value, or a criterion's 1 met / 0 not met), na (true: not applicable, value empty; an empty value with na false is a comment stored without a value), label (the level's label from the study's rubric, Not applicable, or Met / Not met), comment, harm flag, contradiction (the grader flagged the set's answers as contradicting each other) and its note, times. Drafts included: filter on assignment_status = submitted for submitted work.",
  },
  {
    dataset: "score-long",
    title: "Long analysis format",
    formats: ["csv", "json"],
    description:
      "The long analysis format: one row per agreed or adjudicated response set, domain,model,response_id, then one column per dimension with its final value: a number (means to 4 decimals), a nominal level's value, NA for not applicable. domain is the specialty; response_id is <item_id>-<model>. A rubric may name the columns its published analysis code reads: the CSV then has that header, to feed that code unchanged; a study whose questions have reference answers adds bleu, rouge1 and rougeL (each the mean over the set's answers, 0-1) after them, and embedding_similarity (the mean cosine, -1 to 1; not BERTScore) once an embedding run computed some; a study where a grader flagged a set's answers as contradicting each other adds contradiction last (how many graders flagged the set).",
  },
  {
    dataset: "sets",
    title: "Response sets",
    formats: ["csv", "json"],
    description:
      "One row per response set: status, each rubric's final dimension values (a number, means to 4 decimals; a nominal level's value; NA for not applicable) and totals (each of the rubric's totals, under the names its document gives them), and its escalation with the dimensions that disagreed.",
  },
  {
    dataset: "summary",
    title: "Summary",
    formats: ["csv", "json"],
    description:
      "Every figure to 4 decimals. Per model and specialty: n, mean and SD of the totals and of each dimension; Cronbach's alpha with its CI; pairwise Cliff's delta with the dashboard's bootstrap interval " +
      `(the same cells and bounds; ${CLIFFS_BOOTSTRAP.resamples} resamples stratified by specialty, seed ${CLIFFS_BOOTSTRAP.seed}). ` +
      "The CSV is one table whose section column says which block a row belongs to (model_summary, cronbach_alpha, cliffs_delta, and harm_flags: each model's potential-harm flags, flagged sets and flags not yet reviewed; judge_vs_panel: each automated judge's agreement with the panel, per dimension, total and reading, each figure with its n, as on the dashboard); the JSON nests them.",
  },
  {
    dataset: "triage",
    title: "Stability triage and decisions",
    formats: ["csv", "json"],
    description:
      "One row per final set of a study with N >= 2 answers: its drift across the answers (a share of the scale, to 4 decimals), how many of its graders flagged the answers as contradicting each other (of how many), the verdict the study's rule proposes (accept, review, reject), the dimension it was read from, and the lead's decision with its note and time; the rule's bands and flag counts on every row.",
  },
  {
    dataset: "judge-scores",
    title: "Automated judges' scores",
    formats: ["csv", "json"],
    description:
      "Every judgment of every automated judge, one row each: item, model, repetition, rubric, dimension; score, category and na as stored, and value and label as in the grades export; both readings (the level given or most probable, ties to the lower; the expected score, sum of level x probability, to 4 decimals, and its half-up rounding); the probabilities and samples (JSON), the confidence, the rationale, and whether the judge's scores are the set's final ones (hybrid mode).",
  },
  {
    dataset: "screening",
    title: "Safety screen",
    formats: ["csv", "json"],
    description:
      "The study's latest safety screen, one row per answer and rule that matched: the run (id, time, action: warn or exclude), item, model and version, repetition, the rule as run (name, which is the reason; term or regex; pattern), the matches in the answer (counted up to 1000) and the text around the first match, in [brackets]; then one row per answer its automated judge flagged (judge_verdict flagged, rule_kind judge, the judge's reason in judge_reason) or could not screen (judge_verdict could_not_screen, the error in judge_reason). Empty when the study has not been screened.",
  },
  {
    dataset: "grader-quality",
    title: "Graders' quality",
    formats: ["csv", "json"],
    description:
      "The Graders' quality table, one row per grader: whether and why the lead excluded them from the analysis; time per set (median, ms) and its ratio to the study's median; straight-lining share; share of the scale used; leave-one-out bias in scale points with its 95% interval (cluster-robust over sets); Gwet's AC2 against peers; each with its n. Shares 0-1. Gold accuracy and intra-rater reliability are in the API and on the page (per dimension); their grades are the calibration, gold and re-grade dataset. Exclusions and their reversal are also in the audit trail.",
  },
  {
    dataset: "quality-grades",
    title: "Calibration, gold and re-grade grades",
    formats: ["csv", "json"],
    description:
      "Every grade of a calibration, gold or washout re-grade task, one row per cell, apart from the grades export (these grades never count in results): purpose (CALIBRATION, GOLD, REGRADE), task id, calibration round, grader (pseudonym), item, model, status, submission time, time on task, rubric, dimension, repetition (the answer's own, empty for set-level dimensions), criterion, score, category, na; the set's expected score and tolerance (calibration, gold) or the grader's first score of the same cell (re-grade), and the answers' order on the re-grade's page. Filter on purpose for each dataset.",
  },
  {
    dataset: "comparisons",
    title: "Pairwise preferences",
    formats: ["csv", "json"],
    description:
      "A pairwise study's preferences, long, one row per grader and axis: comparison id, item and question, the model and the repetition shown on each side (unblinded), the comparison's status, grader (pseudonym), primary or adjudicator, assignment status (drafts included: filter on submitted), rubric, axis, the choice relative to the sides (left, right, tie) and as the model preferred (its name, or tie), strength (slightly, clearly), comment, each side's harm flag and comment, times. Empty for a scoring study.",
  },
  {
    dataset: "audit",
    title: "Audit trail",
    formats: ["csv", "json"],
    description: "Every audited change to this study: who (pseudonym, or name and email), when, what, and the values before and after (JSON).",
  },
  {
    dataset: "study",
    title: "Whole study (archive)",
    formats: ["json"],
    description:
      "Settings, questions, models, answers, graders, assignments, grades and escalations in one JSON document that another Clingrade instance imports to reproduce the study (below, or POST /api/v1/study-archives).",
  },
];

export interface ExportLinkOptions {
  bom: boolean;
  identities: boolean;
  audit: boolean;
}

export function exportHref(studyId: string, dataset: Dataset, format: Format, o: ExportLinkOptions): string {
  const q = new URLSearchParams({ dataset, format });
  if (o.bom && format === "csv") q.set("bom", "1");
  if (o.identities) q.set("identities", "1");
  if (o.audit && dataset === "study") q.set("audit", "1");
  return `/api/v1/studies/${studyId}/export?${q.toString()}`;
}
