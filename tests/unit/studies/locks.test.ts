import { describe, expect, it } from "vitest";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { lockedSettingsChange, lockMessage, settingsLockedFor } from "@/lib/studies/locks";
import { statusTransition, transitionTimestamps } from "@/lib/studies/status";

const current = { rubricDocuments: templateRubrics(["SCORE", "SAFE_LLM"]), repetitions: 3, gradersPerSet: 2 };
const scoreOnly = templateRubrics(["SCORE"]);

describe("lockedSettingsChange", () => {
  it("locks nothing before grading has started", () => {
    expect(lockedSettingsChange(current, { rubricDocuments: scoreOnly, repetitions: 5, gradersPerSet: 1 }, false)).toEqual([]);
  });

  it("once grading has started, locks changing the rubrics, changing N and lowering k", () => {
    expect(lockedSettingsChange(current, { rubricDocuments: scoreOnly, repetitions: 5, gradersPerSet: 1 }, true)).toEqual(["rubrics", "repetitions", "gradersPerSet"]);
    expect(lockedSettingsChange(current, { rubricDocuments: scoreOnly }, true)).toEqual(["rubrics"]);
    expect(lockedSettingsChange(current, { repetitions: 2 }, true)).toEqual(["repetitions"]);
    expect(lockedSettingsChange(current, { gradersPerSet: 1 }, true)).toEqual(["gradersPerSet"]);
  });

  it("allows raising k, unchanged values, and patches without locked settings; a new version or order of a rubric is a change", () => {
    expect(lockedSettingsChange(current, { gradersPerSet: 3 }, true)).toEqual([]);
    expect(lockedSettingsChange(current, { rubricDocuments: templateRubrics(["SCORE", "SAFE_LLM"]), repetitions: 3, gradersPerSet: 2 }, true)).toEqual([]);
    expect(lockedSettingsChange(current, { rubricDocuments: templateRubrics(["SAFE_LLM", "SCORE"]) }, true)).toEqual(["rubrics"]);
    const v2 = templateRubrics(["SCORE", "SAFE_LLM"]);
    v2[0] = { ...v2[0], version: 2, dimensions: v2[0].dimensions.map((d) => (d.key === "safety" ? { ...d, name: "Patient safety" } : d)) };
    expect(lockedSettingsChange(current, { rubricDocuments: v2 }, true)).toEqual(["rubrics"]);
    expect(lockedSettingsChange(current, {}, true)).toEqual([]);
  });

  it("builds one message naming every locked setting with its reason", () => {
    expect(lockMessage(["rubrics", "gradersPerSet"], "Cardiology QA")).toBe(
      'grading has started in "Cardiology QA", so these settings are locked: rubrics (grades already given belong to the current rubrics; clone the study or the rubric to change it), ' +
        "gradersPerSet (k cannot be lowered: sets already graded by k graders would no longer fit (raising it is allowed))",
    );
    expect(settingsLockedFor(false)).toEqual({ rubrics: null, repetitions: null, gradersPerSet: null });
    expect(Object.values(settingsLockedFor(true)).every((r) => typeof r === "string")).toBe(true);
  });
});

describe("statusTransition", () => {
  it("allows DRAFT→OPEN, OPEN→CLOSED and CLOSED→OPEN (reopen)", () => {
    expect(statusTransition("DRAFT", "OPEN")).toEqual({ ok: true, action: "study.open" });
    expect(statusTransition("OPEN", "CLOSED")).toEqual({ ok: true, action: "study.close" });
    expect(statusTransition("CLOSED", "OPEN")).toEqual({ ok: true, action: "study.reopen" });
  });

  it("refuses everything else with a message saying what is possible", () => {
    expect(statusTransition("DRAFT", "CLOSED")).toEqual({ ok: false, message: "a DRAFT study cannot become CLOSED; from DRAFT it can only become OPEN" });
    expect(statusTransition("OPEN", "DRAFT").ok).toBe(false);
    expect(statusTransition("CLOSED", "DRAFT").ok).toBe(false);
    expect(statusTransition("OPEN", "OPEN")).toEqual({ ok: false, message: "the study is already OPEN" });
    expect(statusTransition("CLOSED", "CLOSED")).toEqual({ ok: false, message: "the study is already CLOSED" });
  });

  it("sets openedAt when opening (and clears closedAt), closedAt when closing", () => {
    const now = new Date("2026-11-30T10:00:00Z");
    expect(transitionTimestamps("study.open", now)).toEqual({ openedAt: now, closedAt: null });
    expect(transitionTimestamps("study.reopen", now)).toEqual({ openedAt: now, closedAt: null });
    expect(transitionTimestamps("study.close", now)).toEqual({ closedAt: now });
  });
});
