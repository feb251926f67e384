import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DimensionField } from "@/components/grading/dimension-field";
import { gradingFields, type GradingField } from "@/lib/grading/form-state";
import type { RubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

/**
 * The form's rows are its bulk (20 of them on a custom rubric's page), so each
 * level is drawn with as few elements as it can: these pin what that must not
 * cost, i.e. every radio's accessible name, the comment button's, and no
 * reference to an element that is not drawn.
 */

/** A custom rubric as a lead builds it: five levels named by their own numbers, no definition, no examples. */
const NUMBERS: RubricDocument = {
  key: "custom",
  name: "Custom",
  version: 1,
  dimensions: [{ key: "d1", name: "Dimension 1", scope: "first_answer", scale: { kind: "ordinal", levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) } }],
  headline: "total",
  totals: [{ key: "total", name: "Total", method: "sum", dimensions: ["d1"] }],
};

const render = (f: GradingField, comment = "") =>
  renderToStaticMarkup(
    createElement(DimensionField, { field: f, value: undefined, comment, readOnly: false, scopeLabel: "Answer 1", onChange: () => {}, onComment: () => {}, onCommentBlur: () => {} }),
  );

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const text = (html: string) => decode(html.replace(/<[^>]*>/g, "")).trim();
const commentButtonName = (html: string) => decode(html.match(/<button[^>]*aria-label="([^"]*)"/)?.[1] ?? "");

/** Each radio's accessible name: its aria-label, else the text of the label around it. */
function radioNames(html: string): string[] {
  return [...html.matchAll(/<label[^>]*>(.*?)<\/label>/g)].map(([, inner]) => {
    const input = inner.match(/<input[^>]*type="radio"[^>]*>/)?.[0] ?? "";
    const label = input.match(/aria-label="([^"]*)"/)?.[1];
    return label === undefined ? text(inner) : decode(label);
  });
}

const fieldsOf = (rubrics: RubricDocument[]) => gradingFields({ rubrics, repetitions: 3, criteria: null }).filter((f) => f.dimension.scale.kind !== "criteria");

describe("a dimension's row", () => {
  it("names each level of a numbers-only scale once, by its number", () => {
    const [f] = fieldsOf([NUMBERS]);
    const html = render(f);
    expect(radioNames(html)).toEqual(["1", "2", "3", "4", "5"]);
    // A level is its radio and its number, no more; no empty definition or examples box.
    for (const [, inner] of html.matchAll(/<label[^>]*>(.*?)<\/label>/g)) expect(inner).toMatch(/^<input[^>]*\/>\d$/);
    expect(html).not.toContain("<div hidden");
    expect(html).not.toMatch(/<p[^>]*><\/p>/);
  });

  it("names each level of the published rubrics by its number and wording, and its comment button by the dimension and the answer", () => {
    const fields = fieldsOf(templateRubrics(["SCORE", "SAFE_LLM"]));
    expect(fields.length).toBeGreaterThan(10);
    for (const f of fields) {
      const html = render(f);
      const levels = f.dimension.scale.levels ?? [];
      const expected = levels.map((l, i) => `${f.dimension.scale.kind === "ordinal" ? l.value : i + 1} — ${l.label}`);
      if (f.dimension.scale.allowNA) expected.push("n — Not applicable");
      expect(radioNames(html), f.key).toEqual(expected);
      expect(commentButtonName(html)).toBe(`Add comment on ${f.dimension.name} (Answer 1)`);
      expect(text(html)).toContain(f.dimension.definition ?? "");
    }
    expect(commentButtonName(render(fields[0], "kept"))).toBe(`Comment on ${fields[0].dimension.name} (Answer 1)`);
  });

  it("refers only to elements it draws (aria-describedby, aria-controls)", () => {
    for (const f of [...fieldsOf([NUMBERS]), ...fieldsOf(templateRubrics(["SCORE", "SAFE_LLM"]))]) {
      const html = render(f);
      const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
      const refs = [...html.matchAll(/aria-(?:describedby|controls)="([^"]*)"/g)].flatMap((m) => m[1].split(" "));
      for (const ref of refs) expect(ids.has(ref), `${f.key}: ${ref}`).toBe(true);
    }
  });
});

describe("a comment the rubric requires", () => {
  const doc: RubricDocument = {
    key: "survey",
    name: "Survey",
    version: 1,
    dimensions: [{ key: "acceptability", name: "Acceptability", scope: "each_answer", scale: { kind: "ordinal", levels: ["Unacceptable", "Acceptable with edits", "Acceptable"].map((label, i) => ({ value: i + 1, label })) }, requireCommentAtOrBelow: 1 }],
    totals: [],
  };
  const [f] = fieldsOf([doc]);
  const at = (value: number | undefined) =>
    renderToStaticMarkup(createElement(DimensionField, { field: f, value, comment: "", readOnly: false, scopeLabel: "Answer 1", onChange: () => {}, onComment: () => {}, onCommentBlur: () => {} }));

  it("is open and labelled required at or below the rule's value, never optional", () => {
    const html = decode(at(1));
    expect(html).toMatch(/<textarea[^>]*aria-label="Comment on Acceptability \(Answer 1\), required"/);
    expect(html).toMatch(/<textarea[^>]*aria-required="true"/);
    expect(html).not.toMatch(/[Oo]ptional/);
  });

  it("says when it will be required while the score is above it, and stays optional there", () => {
    const html = decode(at(3));
    expect(text(html)).toContain("Required for a score of 1 or below");
    expect(html).not.toContain("<textarea");
    expect(decode(at(undefined))).toContain("Required for a score of 1 or below");
  });
});
