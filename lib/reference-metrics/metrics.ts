/**
 * The reference-based metrics the comparison pages read, in display order: `key` is the
 * Response column (and the API field), `label` what pages and figures call it. One more stored
 * metric (a nullable 0-1 column on Response) is one more line here.
 */
export const REFERENCE_METRICS = [
  { key: "bleu", label: "BLEU" },
  { key: "rouge1", label: "ROUGE-1" },
  { key: "rougeL", label: "ROUGE-L" },
] as const satisfies readonly { key: string; label: string }[];

export type ReferenceMetricKey = (typeof REFERENCE_METRICS)[number]["key"];

export const REFERENCE_METRIC_KEYS = REFERENCE_METRICS.map((m) => m.key) as [ReferenceMetricKey, ...ReferenceMetricKey[]];
