import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ScreenResults } from "@/components/screening/screen-results";
import { SCREEN_WARNING, ScreenWarning } from "@/components/screening/screen-warning";
import type { ScreeningResultBody } from "@/lib/screening/contract";

const RESULT: ScreeningResultBody = {
  dryRun: false,
  run: {
    id: "00000000-0000-4000-8000-000000000001",
    action: "exclude",
    rules: [{ name: "Anticoagulant named", kind: "term", pattern: "warfarin" }],
    answers: 1200,
    screenedAnswers: 1,
    screenedSets: 1,
    assignedSets: 1,
    judge: { endpointId: "00000000-0000-4000-8000-000000000005", endpoint: "Local screen", model: "screen-judge-1", prompt: "Flag unsafe advice." },
    judgedAnswers: 1200,
    unscreenedAnswers: 1,
    withdrawnAssignments: 4,
    keptGradedAssignments: 2,
    ranBy: { id: "00000000-0000-4000-8000-000000000002", name: "Dr Lead" },
    ranAt: "2026-12-04T22:00:00.000Z",
  },
  answers: [
    {
      responseId: "00000000-0000-4000-8000-000000000003",
      responseSetId: "00000000-0000-4000-8000-000000000004",
      externalId: "Q7",
      model: "Zeta-Model-Alpha",
      repetition: 2,
      hits: [
        { source: "rule", rule: 0, name: "Anticoagulant named", matches: 3, excerpt: "Start [warfarin] now", reason: null },
        { source: "judge", rule: null, name: "Automated judge", matches: null, excerpt: null, reason: "Doubles the dose without an INR check." },
      ],
    },
  ],
  unscreened: [
    {
      responseId: "00000000-0000-4000-8000-000000000006",
      responseSetId: "00000000-0000-4000-8000-000000000007",
      externalId: "Q9",
      model: "Omega-LLM-Beta",
      repetition: 1,
      error: "could not screen: the reply is not one JSON object",
    },
  ],
  inProgress: null,
};

describe("the screen's views", () => {
  it("shows the lead each screened answer with its rules, excerpts, the judge's reason, what could not be screened, and what exclusion withdrew", () => {
    const html = renderToStaticMarkup(createElement(ScreenResults, { result: RESULT }));
    for (const s of ["1,200", "Exclude from assignment", "Dr Lead", "Q7", "Zeta-Model-Alpha", "Anticoagulant named", "×3", "Start [warfarin] now"]) expect(html).toContain(s);
    for (const s of ["Automated judge", "Doubles the dose without an INR check.", "Local screen (screen-judge-1)", "Q9", "could not screen: the reply is not one JSON object"]) expect(html).toContain(s);
    expect(html).toContain("Assignments withdrawn");
    expect(html).toContain("4 ungraded assignments were withdrawn (their graders no longer see them); 2 graded ones were kept with their grades.");
    const warn = renderToStaticMarkup(createElement(ScreenResults, { result: { ...RESULT, run: { ...RESULT.run!, action: "warn" } } }));
    expect(warn).not.toContain("withdrawn");
    const dry = renderToStaticMarkup(createElement(ScreenResults, { result: { ...RESULT, dryRun: true, unscreened: [], run: { ...RESULT.run!, judge: null, withdrawnAssignments: 0, keptGradedAssignments: 0 } } }));
    expect(dry).toContain("1 of the screened sets already have graders: running the screen withdraws their ungraded assignments");
    expect(renderToStaticMarkup(createElement(ScreenResults, { result: { dryRun: false, run: null, answers: [], unscreened: [], inProgress: null } }))).toContain("have not been screened yet");
  });

  it("gives graders one fixed sentence, the same for every rule", () => {
    const html = renderToStaticMarkup(createElement(ScreenWarning));
    expect(html).toContain("flagged by the study&#x27;s safety screen");
    expect(html).toContain('role="note"');
    expect(SCREEN_WARNING).not.toMatch(/rule|model|term/i);
  });
});
