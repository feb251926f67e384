import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";

/**
 * PEMAT-P, the Patient Education Materials Assessment Tool for printable
 * materials (Shoemaker, Wolf & Brach; AHRQ Publication No. 14-0002-EF, 2013,
 * updated 2014; Patient Educ Couns 2014). Items keep the AHRQ numbering: the
 * PEMAT-P has understandability items 1-12 and 15-19 (13 and 14 are for
 * audiovisual materials only) and actionability items 20-26. Each item is
 * Disagree (0) or Agree (1); N/A only where the AHRQ guide offers it.
 */

interface PematItem {
  n: number;
  key: string;
  topic: string;
  text: string;
  /** The AHRQ guide's "Not applicable" option for printable materials, when it has one. */
  na?: string;
}

const VERY_SHORT =
  "Choose N/A if the material is very short: for printable materials, two or fewer paragraphs and no more than 1 page in length.";
const NO_VISUAL_AIDS = "Choose N/A if the material has no visual aids.";

const UNDERSTANDABILITY: PematItem[] = [
  { n: 1, key: "item1_purpose_evident", topic: "Content", text: "The material makes its purpose completely evident." },
  {
    n: 2,
    key: "item2_no_distracting_content",
    topic: "Content",
    text: "The material does not include information or content that distracts from its purpose.",
  },
  { n: 3, key: "item3_everyday_language", topic: "Word choice & style", text: "The material uses common, everyday language." },
  {
    n: 4,
    key: "item4_medical_terms_defined",
    topic: "Word choice & style",
    text: "Medical terms are used only to familiarize audience with the terms. When used, medical terms are defined.",
  },
  { n: 5, key: "item5_active_voice", topic: "Word choice & style", text: "The material uses the active voice." },
  {
    n: 6,
    key: "item6_numbers_clear",
    topic: "Use of numbers",
    text: "Numbers appearing in the material are clear and easy to understand.",
    na: "Choose N/A if the material has no numbers.",
  },
  { n: 7, key: "item7_no_calculations", topic: "Use of numbers", text: "The material does not expect the user to perform calculations." },
  { n: 8, key: "item8_chunked", topic: "Organization", text: 'The material breaks or "chunks" information into short sections.', na: VERY_SHORT },
  { n: 9, key: "item9_informative_headers", topic: "Organization", text: "The material's sections have informative headers.", na: VERY_SHORT },
  { n: 10, key: "item10_logical_sequence", topic: "Organization", text: "The material presents information in a logical sequence." },
  { n: 11, key: "item11_summary", topic: "Organization", text: "The material provides a summary.", na: VERY_SHORT },
  {
    n: 12,
    key: "item12_visual_cues",
    topic: "Layout & design",
    text: "The material uses visual cues (e.g., arrows, boxes, bullets, bold, larger font, highlighting) to draw attention to key points.",
  },
  {
    n: 15,
    key: "item15_visual_aids_used",
    topic: "Use of visual aids",
    text: "The material uses visual aids whenever they could make content more easily understood (e.g., illustration of healthy portion size).",
  },
  {
    n: 16,
    key: "item16_visual_aids_reinforce",
    topic: "Use of visual aids",
    text: "The material's visual aids reinforce rather than distract from the content.",
    na: NO_VISUAL_AIDS,
  },
  { n: 17, key: "item17_visual_aids_captions", topic: "Use of visual aids", text: "The material's visual aids have clear titles or captions.", na: NO_VISUAL_AIDS },
  {
    n: 18,
    key: "item18_illustrations_clear",
    topic: "Use of visual aids",
    text: "The material uses illustrations and photographs that are clear and uncluttered.",
    na: NO_VISUAL_AIDS,
  },
  {
    n: 19,
    key: "item19_simple_tables",
    topic: "Use of visual aids",
    text: "The material uses simple tables with short and clear row and column headings.",
    na: "Choose N/A if the material has no tables.",
  },
];

const ACTIONABILITY: PematItem[] = [
  { n: 20, key: "item20_action_identified", topic: "Actionability", text: "The material clearly identifies at least one action the user can take." },
  { n: 21, key: "item21_addresses_user", topic: "Actionability", text: "The material addresses the user directly when describing actions." },
  { n: 22, key: "item22_explicit_steps", topic: "Actionability", text: "The material breaks down any action into manageable, explicit steps." },
  {
    n: 23,
    key: "item23_tangible_tool",
    topic: "Actionability",
    text: "The material provides a tangible tool (e.g., menu planners, checklists) whenever it could help the user take action.",
  },
  {
    n: 24,
    key: "item24_calculation_instructions",
    topic: "Actionability",
    text: "The material provides simple instructions or examples of how to perform calculations.",
    na: "Choose N/A if the material has no calculations.",
  },
  {
    n: 25,
    key: "item25_explains_charts",
    topic: "Actionability",
    text: "The material explains how to use the charts, graphs, tables, or diagrams to take actions.",
    na: "Choose N/A if the material has no charts, graphs, tables, or diagrams.",
  },
  {
    n: 26,
    key: "item26_visual_aids_for_action",
    topic: "Actionability",
    text: "The material uses visual aids whenever they could make it easier to act on the instructions.",
  },
];

/** The AHRQ item numbers of the PEMAT-P, by domain. */
export const PEMAT_P_ITEMS = {
  understandability: UNDERSTANDABILITY.map((i) => i.n),
  actionability: ACTIONABILITY.map((i) => i.n),
};

/** A short name for the form; the item's full text is its definition. */
function nameOf(item: PematItem): string {
  const full = `${item.n}. ${item.text}`;
  return full.length <= 120 ? full : `${item.n}. ${item.text.replace(/ \(e\.g\.,[^)]*\)/, "")}`;
}

function dimensionOf(item: PematItem, domain: string): RubricDimension {
  return {
    key: item.key,
    name: nameOf(item),
    definition: [`${domain} - ${item.topic}. Item ${item.n}: ${item.text}`, item.na].filter(Boolean).join(" "),
    scope: "first_answer",
    scale: {
      kind: "ordinal",
      levels: [
        { value: 0, label: "Disagree" },
        { value: 1, label: "Agree" },
      ],
      ...(item.na ? { allowNA: true } : {}),
    },
  };
}

export function pematPTemplate(): RubricDocument {
  return {
    key: "pemat_p",
    name: "PEMAT-P",
    version: 1,
    source:
      "Shoemaker SJ, Wolf MS, Brach C. The Patient Education Materials Assessment Tool (PEMAT) and User's Guide. AHRQ Publication No. 14-0002-EF, 2013 (updated 2014); Shoemaker SJ, Wolf MS, Brach C. Development of the PEMAT. Patient Educ Couns 2014;96(3):395-403.",
    instructions: [
      "The material is the first answer, rated as a printable material (PEMAT-P). Read it in full; you may refer back to it at any time.",
      "Rate each item Agree (1) or Disagree (0), from a patient's perspective. Choose N/A only on the items that offer it, and only when the item's condition holds (no numbers, very short material, no visual aids, no tables, no calculations, no charts, graphs, tables or diagrams).",
      "Items keep the AHRQ numbering: understandability items 1-12 and 15-19 (items 13 and 14 are for audiovisual materials only), actionability items 20-26. Items on visual aids, tables and layout apply to written answers too.",
      "Understandability and actionability are each the percentage of Agree among the items rated (N/A excluded).",
    ].join("\n"),
    dimensions: [...UNDERSTANDABILITY.map((i) => dimensionOf(i, "Understandability")), ...ACTIONABILITY.map((i) => dimensionOf(i, "Actionability"))],
    totals: [
      { key: "understandability", name: "PEMAT-P understandability (%)", method: "percent_applicable", dimensions: UNDERSTANDABILITY.map((i) => i.key) },
      { key: "actionability", name: "PEMAT-P actionability (%)", method: "percent_applicable", dimensions: ACTIONABILITY.map((i) => i.key) },
    ],
    headline: "understandability",
  };
}
