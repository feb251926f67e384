import { ordinalRange, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { ruleInWords, studyRule } from "@/lib/rubrics/escalation-rule";
import { storedEscalationRules, storedThresholds } from "@/lib/studies/thresholds";
import { appVersion } from "@/lib/build/version";
import { flowDiagram } from "./figures";
import { count } from "./format";
import type { ReportData } from "./load";
import type { ReportSection } from "./types";

function scaleInWords(d: RubricDimension): string {
  const levels = d.scale.levels ?? [];
  if (d.scale.kind === "nominal") return `categories: ${levels.map((l) => l.label).join(", ")}${d.scale.allowNA ? ", or not applicable" : ""}`;
  if (d.scale.kind === "criteria") return "criteria met or not (per question)";
  const { min, max } = ordinalRange(d);
  return `${min}-${max}${d.scale.allowNA ? ", or not applicable" : ""}`;
}

function instrumentSentence(doc: RubricDocument): string {
  const items = doc.dimensions.map((d) => `${d.name} (${scaleInWords(d)})`).join("; ");
  const totals = doc.totals.length ? ` Totals: ${doc.totals.map((t) => t.name).join(", ")}.` : " The instrument has no total: results are reported per item.";
  return `Answers were graded with "${doc.name}", version ${doc.version}${doc.source ? ` (${doc.source})` : ""}, on ${doc.dimensions.length} item${doc.dimensions.length === 1 ? "" : "s"}: ${items}.${totals}`;
}

/** Methods in words, from the study's settings, that a lead can paste into a manuscript. */
export function methodsSection(data: ReportData): ReportSection {
  const { study, stats, graders, protocol } = data;
  const docs = stats.study.rubricDocuments;
  const models = stats.options.models;
  const paragraphs = [
    ...docs.map(instrumentSentence),
    `Each of ${count(data.flow.questions)} questions was answered ${study.repetitions === 1 ? "once" : `${study.repetitions} times`} by each of ${models.length} model${models.length === 1 ? "" : "s"} (${models.join(", ")}). ` +
      `The answers of one question and one model form a response set; each set was graded independently by k = ${study.gradersPerSet} primary grader${study.gradersPerSet === 1 ? "" : "s"}.`,
    `Grading was blinded: graders saw neither the model that wrote an answer nor the study's name (they saw a neutral title), nor other graders' grades; answers that named a model were found at import and redacted; each grader met the sets in an order of their own, randomised with the seed "${study.assignmentSeed ?? "not yet assigned"}" (${study.assignmentDesign.toLowerCase().replace(/_/g, " ")} assignment${study.matchSpecialty ? ", graders matched to the question's specialty" : ""}).${study.showReferenceAnswer ? " Graders saw the clinicians' reference answer where there was one." : ""}`,
    `${count(graders.total)} grader${graders.total === 1 ? "" : "s"} submitted grades${graders.bySpecialty.length ? ` (by specialty: ${graders.bySpecialty.map((s) => `${s.specialty} ${s.graders}`).join(", ")})` : ""}.`,
    `Disagreement between primary graders sent a set to one further grader (adjudication) by each item's rule: ${escalationInWords(docs, study)}. The final score of a set is the mean of all its graders' scores.`,
    protocol.frozen
      ? `The protocol (instrument, design, assignment seed and planned analyses) was frozen on ${protocol.frozenAt!.slice(0, 10)} before the first assignment (SHA-256 ${protocol.sha256}). Primary outcome: ${String((protocol.protocol?.plannedAnalyses as { primaryOutcome?: string } | undefined)?.primaryOutcome ?? "not stated")}.` +
        (protocol.amendments.length ? ` It was amended ${protocol.amendments.length} time${protocol.amendments.length === 1 ? "" : "s"} (see Limitations).` : " It was not amended.")
      : "No protocol was frozen before grading: the analyses below were not registered in advance.",
    "Statistics: Cronbach's alpha per specialty with Feldt's interval; inter-rater agreement as Gwet's AC2 (quadratic weights; AC1 on nominal items), Krippendorff's alpha and the ICC; model comparisons by Cliff's delta with bootstrap intervals (1,000 resamples, seed 1) and Wilcoxon signed-rank tests with Holm's adjustment. Each table states its n.",
    `Software: ${appVersion().name} ${appVersion().version}.`,
  ];
  return { heading: "Methods", paragraphs, tables: [], figures: [] };
}

function escalationInWords(docs: readonly RubricDocument[], study: ReportData["study"]): string {
  const thresholds = storedThresholds(study.thresholds, docs);
  const overrides = storedEscalationRules(study.escalationRules, docs);
  const parts: string[] = [];
  for (const doc of docs) {
    for (const d of doc.dimensions) {
      if (d.scale.kind === "criteria") continue;
      const rule = studyRule(d, thresholds[doc.key]?.[d.key], overrides[doc.key]?.[d.key]);
      parts.push(`${d.name}: ${ruleInWords(rule)}`);
    }
  }
  return parts.join("; ") || "none";
}

/** Questions to final sets, with what left the flow and why. */
export function flowSection(data: ReportData): ReportSection {
  const f = data.flow;
  const stages = [
    { label: "Questions", n: f.questions },
    { label: "Answers", n: f.answers },
    { label: "Response sets", n: f.sets },
    { label: "Assigned to graders", n: f.assignedSets },
    { label: "Graded by all primary graders", n: f.gradedSets },
    { label: "Escalated", n: f.escalated },
    { label: "Adjudicated", n: f.adjudicated },
    { label: "Final", n: f.finalSets },
  ];
  const exclusions = [
    ...(f.screenedOut ? [{ after: 1, label: "Answers excluded by the safety screen", n: f.screenedOut }] : []),
    ...(f.missingAssignments ? [{ after: 3, label: "Primary assignments not submitted", n: f.missingAssignments }] : []),
    ...(f.rejected ? [{ after: 7, label: "Final sets rejected at governance", n: f.rejected }] : []),
  ];
  const figure = flowDiagram(stages, exclusions, "Study flow");
  return {
    heading: "Study flow",
    paragraphs: [],
    tables: [
      {
        id: "flow",
        caption: "Study flow",
        columns: ["Stage", "n"],
        rows: [...stages.map((s) => [s.label, count(s.n)]), ...exclusions.map((e) => [`Excluded: ${e.label}`, count(e.n)])],
      },
    ],
    figures: [{ id: "flow", caption: "Study flow, with exclusions", ...figure, source: "stats (progress)" }],
  };
}
