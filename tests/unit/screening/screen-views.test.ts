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
      hits: [{ rule: 0, name: "Anticoagulant named", matches: 3, excerpt: "Start [warfarin] now" }],
    },
  ],
};

describe("the screen's views", () => {
  it("shows the lead each screened answer with its rules, excerpts and counts, and says when excluded sets already have graders", () => {
    const html = renderToStaticMarkup(createElement(ScreenResults, { result: RESULT }));
    for (const s of ["1,200", "Exclude from assignment", "Dr Lead", "Q7", "Zeta-Model-Alpha", "Anticoagulant named", "×3", "Start [warfarin] now"]) expect(html).toContain(s);
    expect(html).toContain("1 of the screened sets already have graders");
    expect(renderToStaticMarkup(createElement(ScreenResults, { result: { ...RESULT, run: { ...RESULT.run!, action: "warn" } } }))).not.toContain("already have graders");
    expect(renderToStaticMarkup(createElement(ScreenResults, { result: { dryRun: false, run: null, answers: [] } }))).toContain("have not been screened yet");
  });

  it("gives graders one fixed sentence, the same for every rule", () => {
    const html = renderToStaticMarkup(createElement(ScreenWarning));
    expect(html).toContain("flagged by the study&#x27;s safety screen");
    expect(html).toContain('role="note"');
    expect(SCREEN_WARNING).not.toMatch(/rule|model|term/i);
  });
});
