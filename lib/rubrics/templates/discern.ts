import type { RubricDimension, RubricDocument, RubricLevel } from "@/lib/rubrics/document";

/**
 * DISCERN (Charnock, Shepperd, Needham & Gann, J Epidemiol Community Health
 * 1999): 15 questions on the quality of written consumer information about
 * treatment choices plus an overall rating, each 1-5. Question texts as in the
 * instrument (DISCERN handbook, discern.org.uk; University of Oxford).
 */

const SECTION_1 = "Section 1 - Is the publication reliable? (questions 1-8)";
const SECTION_2 = "Section 2 - How good is the quality of information on treatment choices? (questions 9-15)";
const SECTION_3 = "Section 3 - Overall rating of the publication (question 16)";

/** Questions 1-15: 1 = No, 2-4 = Partially, 5 = Yes. */
const NO_PARTIALLY_YES: RubricLevel[] = [
  { value: 1, label: "No" },
  { value: 2, label: "Partially" },
  { value: 3, label: "Partially" },
  { value: 4, label: "Partially" },
  { value: 5, label: "Yes" },
];

/** Question 16: Low (1), Moderate (3), High (5); the instrument leaves 2 and 4 unlabelled. */
const OVERALL: RubricLevel[] = [
  { value: 1, label: "Low: serious or extensive shortcomings" },
  { value: 2, label: "Between low and moderate" },
  { value: 3, label: "Moderate: potentially important but not serious shortcomings" },
  { value: 4, label: "Between moderate and high" },
  { value: 5, label: "High: minimal shortcomings" },
];

const QUESTIONS: { key: string; text: string; section: string }[] = [
  { key: "q1_aims_clear", text: "Are the aims clear?", section: SECTION_1 },
  { key: "q2_achieves_aims", text: "Does it achieve its aims?", section: SECTION_1 },
  { key: "q3_relevant", text: "Is it relevant?", section: SECTION_1 },
  {
    key: "q4_sources_clear",
    text: "Is it clear what sources of information were used to compile the publication (other than the author or producer)?",
    section: SECTION_1,
  },
  { key: "q5_date_clear", text: "Is it clear when the information used or reported in the publication was produced?", section: SECTION_1 },
  { key: "q6_balanced", text: "Is it balanced and unbiased?", section: SECTION_1 },
  { key: "q7_additional_sources", text: "Does it provide details of additional sources of support and information?", section: SECTION_1 },
  { key: "q8_uncertainty", text: "Does it refer to areas of uncertainty?", section: SECTION_1 },
  { key: "q9_how_treatment_works", text: "Does it describe how each treatment works?", section: SECTION_2 },
  { key: "q10_benefits", text: "Does it describe the benefits of each treatment?", section: SECTION_2 },
  { key: "q11_risks", text: "Does it describe the risks of each treatment?", section: SECTION_2 },
  { key: "q12_no_treatment", text: "Does it describe what would happen if no treatment is used?", section: SECTION_2 },
  { key: "q13_quality_of_life", text: "Does it describe how the treatment choices affect overall quality of life?", section: SECTION_2 },
  { key: "q14_more_than_one_choice", text: "Is it clear that there may be more than one possible treatment choice?", section: SECTION_2 },
  { key: "q15_shared_decision", text: "Does it provide support for shared decision-making?", section: SECTION_2 },
];

const Q16 = {
  key: "q16_overall",
  name: "Q16. Overall quality of the publication as a source of information about treatment choices",
  text: "Based on the answers to all of the above questions, rate the overall quality of the publication as a source of information about treatment choices",
};

/** The published question keys in order (1-16). */
export const DISCERN_KEYS = [...QUESTIONS.map((q) => q.key), Q16.key];

/**
 * The total's five bands over 16-80. Not part of Charnock et al. 1999: the
 * classification widely used in later studies (excellent 63+, good 51-62, fair
 * 39-50, poor 27-38, very poor up to 26), here over all 16 questions.
 */
export const DISCERN_BANDS = [
  { min: 16, max: 26, label: "Very poor" },
  { min: 27, max: 38, label: "Poor" },
  { min: 39, max: 50, label: "Fair" },
  { min: 51, max: 62, label: "Good" },
  { min: 63, max: 80, label: "Excellent" },
];

export function discernTemplate(): RubricDocument {
  const dimensions: RubricDimension[] = [
    ...QUESTIONS.map((q, i) => ({
      key: q.key,
      name: `Q${i + 1}. ${q.text}`,
      definition: `${q.section}. ${q.text}`,
      scope: "first_answer" as const,
      scale: { kind: "ordinal" as const, levels: NO_PARTIALLY_YES.map((l) => ({ ...l })) },
      threshold: 2,
    })),
    {
      key: Q16.key,
      name: Q16.name,
      definition: `${SECTION_3}. ${Q16.text}.`,
      scope: "first_answer",
      scale: { kind: "ordinal", levels: OVERALL.map((l) => ({ ...l })) },
      threshold: 2,
    },
  ];
  const keys = dimensions.map((d) => d.key);
  return {
    key: "discern",
    name: "DISCERN",
    version: 1,
    source:
      "Charnock D, Shepperd S, Needham G, Gann R. DISCERN: an instrument for judging the quality of written consumer health information on treatment choices. J Epidemiol Community Health 1999;53:105-111.",
    instructions: [
      "The publication is the first answer: read it in full before answering the questions.",
      "Questions 1-15 are rated from No (1) to Yes (5): 5 if the quality criterion has been completely fulfilled, 1 if it has not been fulfilled at all, 2-4 (Partially) if it is fulfilled to some extent - how high or low depends on your judgement of the extent of the shortcomings.",
      "Section 1 (questions 1-8): is the publication reliable? Section 2 (questions 9-15): how good is the quality of information on treatment choices? Section 3 (question 16): your overall rating, based on your answers to all the questions above - Low (1), Moderate (3) or High (5).",
      "The DISCERN handbook gives specific instructions for rating questions 2, 4 and 5.",
      "The total is the sum of all 16 questions (16-80), in five bands: very poor 16-26, poor 27-38, fair 39-50, good 51-62, excellent 63-80.",
    ].join("\n"),
    dimensions,
    totals: [
      { key: "total", name: "DISCERN total, questions 1-16 (16-80)", method: "sum", dimensions: keys, bands: DISCERN_BANDS.map((b) => ({ ...b })) },
      { key: "questions_1_15", name: "DISCERN questions 1-15 (15-75)", method: "sum", dimensions: keys.slice(0, 15) },
      { key: "reliability", name: "Section 1: reliability, questions 1-8 (8-40)", method: "sum", dimensions: keys.slice(0, 8) },
      { key: "treatment_choices", name: "Section 2: treatment choices, questions 9-15 (7-35)", method: "sum", dimensions: keys.slice(8, 15) },
    ],
    headline: "total",
  };
}
