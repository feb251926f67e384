import { describe, expect, it } from "vitest";
import type { ImportKind } from "@/lib/import/columns";
import { cleanText, ImportValidator, rowSchema, splitSetKey, type SourceRow } from "@/lib/import/validate";

const full = (over: Record<string, unknown> = {}) => ({
  item_id: "Q1",
  specialty: "Ophthalmology",
  question: "What is the first-line treatment?",
  reference_answer: "Timolol.",
  model: "gpt-x",
  repetition: "1",
  response: "Timolol drops.",
  ...over,
});

function check(kind: ImportKind, rows: Record<string, unknown>[], n = 3) {
  const v = new ImportValidator(kind, n);
  const staged = rows.map((values, i) => v.accept({ row: i + 1, line: i + 2, values } satisfies SourceRow));
  return { v, staged, errors: v.errors.map((e) => [e.row, e.column, e.message]) };
}

describe("row validation", () => {
  it("accepts a good row and cleans it: CRLF to LF, outer spaces trimmed", () => {
    const { v, staged, errors } = check("full", [full({ response: "  Line one\r\nline two \r\n", specialty: " Ophthalmology  " })]);
    expect(errors).toEqual([]);
    expect(staged[0]).toMatchObject({ row: 1, line: 2, repetition: 1, text: "Line one\nline two" });
    expect(v.summary()).toMatchObject({ rows: 1, items: 1, responses: 1, responseSets: 1 });
    expect(cleanText("a\rb\r\nc")).toBe("a\nb\nc");
  });

  it("names the row, the column and the reason for each bad cell", () => {
    const { errors } = check("full", [
      full({ question: "   " }),
      full({ item_id: "" }),
      full({ repetition: "4" }),
      full({ repetition: "0" }),
      full({ repetition: "1.5" }),
      full({ repetition: "two" }),
      full({ repetition: "" }),
      full({ response: "" }),
      full({ model: " " }),
      full({ specialty: "" }),
      { ...full(), temperature: "hot" },
      { ...full(), top_p: "1.5" },
      { ...full(), temperature: "-1" },
      full({ response: "bad\0byte" }),
      full({ item_id: "x".repeat(201) }),
      full({ specialty: "Cardio\u0085logy" }),
      full({ question: "Why\uD800?" }),
      full({ model: "m\u001B[31m" }),
    ]);
    expect(errors).toEqual([
      [1, "question", "question is empty"],
      [2, "item_id", "item_id is empty"],
      [3, "repetition", "repetition 4 is outside 1..3 (this study's N, answers per question and model)"],
      [4, "repetition", "repetition 0 is outside 1..3 (this study's N, answers per question and model)"],
      [5, "repetition", 'repetition must be a whole number from 1 to 3, not "1.5"'],
      [6, "repetition", 'repetition must be a whole number from 1 to 3, not "two"'],
      [7, "repetition", "repetition is empty"],
      [8, "response", "response is empty"],
      [9, "model", "model is empty"],
      [10, "specialty", "specialty is empty"],
      [11, "temperature", 'temperature must be a number, not "hot"'],
      [12, "top_p", "top_p 1.5 is outside 0..1"],
      [13, "temperature", "temperature -1 is outside 0..10"],
      [14, "response", "response contains the control character U+0000 at character 4 (only tab and line breaks are allowed)"],
      [15, "item_id", "item_id is longer than 200 characters"],
      [16, "specialty", "specialty contains the control character U+0085 at character 7 (only tab and line breaks are allowed)"],
      [17, "question", "question contains an unpaired surrogate U+D800 at character 4, which is not valid Unicode"],
      [18, "model", "model contains the control character U+001B at character 2 (only tab and line breaks are allowed)"],
    ]);
  });

  it("takes the study's N as the upper bound of repetition", () => {
    expect(check("answers", [{ item_id: "Q1", model: "m", repetition: "5", response: "x" }], 5).errors).toEqual([]);
    expect(check("answers", [{ item_id: "Q1", model: "m", repetition: "2", response: "x" }], 1).errors[0][2]).toMatch(/outside 1..1/);
  });

  it("reads numbers the way spreadsheets write them: decimal comma, JSON numbers", () => {
    const { errors, v } = check("full", [{ ...full(), temperature: "0,7", top_p: 0.95, repetition: 2, item_id: 17 }]);
    expect(errors).toEqual([]);
    expect(v.modelSettings()[0]).toMatchObject({ temperature: 0.7, topP: 0.95 });
    expect(v.itemAt(0).externalId).toBe("17");
  });

  it("refuses values of the wrong JSON type", () => {
    const { errors } = check("full", [full({ question: { text: "x" } }), full({ repetition: true }), full({ response: ["a"] })]);
    expect(errors).toEqual([
      [1, "question", "question must be text, not object"],
      [2, "repetition", "repetition must be text, not boolean"],
      [3, "response", "response must be text, not a list"],
    ]);
  });

  it("refuses an item whose question, specialty or reference changes between rows", () => {
    const { errors } = check("full", [
      full(),
      full({ repetition: "2", question: "A different question?" }),
      full({ repetition: "2", specialty: "Anesthesia" }),
      full({ repetition: "2", reference_answer: "Other." }),
      full({ repetition: "3", specialty: "OPHTHALMOLOGY" }),
    ]);
    expect(errors).toEqual([
      [2, "question", "item Q1 has a different question than in row 1"],
      [3, "specialty", 'item Q1 has specialty "Anesthesia" here but "Ophthalmology" in row 1'],
      [4, "reference_answer", "item Q1 has a different reference_answer than in row 1"],
    ]);
  });

  it("treats specialty names case-insensitively and keeps the first spelling", () => {
    const { v } = check("questions", [
      { item_id: "A", specialty: "Internal  Medicine", question: "q", reference_answer: "" },
      { item_id: "B", specialty: "internal medicine", question: "q", reference_answer: "" },
    ]);
    expect([...v.specialties]).toEqual([["internal medicine", "Internal Medicine"]]);
  });

  it("refuses one model name with two versions or two temperatures; blanks say nothing", () => {
    const { errors, v } = check("full", [
      { ...full(), model_version: "" },
      { ...full({ repetition: "2" }), model_version: "2024-05" },
      { ...full({ repetition: "3" }), model_version: "2024-08" },
      { ...full({ item_id: "Q2" }), temperature: "0.7" },
      { ...full({ item_id: "Q2", repetition: "2" }), temperature: "1" },
    ]);
    expect(errors).toEqual([
      [3, "model_version", 'model gpt-x has model_version "2024-08" here but "2024-05" in row 2; one model name must have one model_version'],
      [5, "temperature", 'model gpt-x has temperature "1" here but "0.7" in row 4; one model name must have one temperature'],
    ]);
    expect(v.modelSettings()[0]).toMatchObject({ name: "gpt-x", version: "2024-05", temperature: 0.7, rows: { first: 1, version: 2, temperature: 4 } });
  });

  it("marks a repeated item x model x repetition with the row it repeats (the texts are compared in the database)", () => {
    const { staged, v, errors } = check("full", [full(), full({ repetition: "2" }), full({ response: "Different." })]);
    expect(errors).toEqual([]);
    expect(staged[2]).toMatchObject({ row: 3, firstRow: 1, text: "Different." });
    expect(v.repeatedAnswerRows).toBe(1);
    expect(v.summary()).toMatchObject({ responses: 2, responseSets: 1 });
  });

  it("counts identical question rows of a questions-only file once", () => {
    const q = { item_id: "Q1", specialty: "S", question: "q", reference_answer: "r" };
    const { v, errors } = check("questions", [q, q]);
    expect(errors).toEqual([]);
    expect(v.summary()).toMatchObject({ items: 1, duplicateRows: 1 });
  });

  it("numbers sets by item and model", () => {
    const { staged } = check("answers", [
      { item_id: "A", model: "m1", repetition: "1", response: "x" },
      { item_id: "B", model: "m2", repetition: "1", response: "x" },
      { item_id: "A", model: "m2", repetition: "1", response: "x" },
    ]);
    expect(staged.map((s) => splitSetKey(s!.setKey))).toEqual([
      { item: 0, model: 0 },
      { item: 1, model: 1 },
      { item: 0, model: 1 },
    ]);
  });

  it("reports reader problems and unknown JSON keys on their row", () => {
    const v = new ImportValidator("answers", 3);
    v.accept({ row: 1, line: 2, values: {}, problems: ["this row has 3 fields but the header has 4"] });
    v.accept({ row: 2, values: { item_id: "Q", model: "m", repetition: 1, response: "x", answer: "y" } });
    expect(v.errors).toEqual([
      { row: 1, line: 2, column: null, message: "this row has 3 fields but the header has 4" },
      { row: 2, column: "answer", message: expect.stringMatching(/^unknown column "answer"/) },
    ]);
  });

  it("caps the list of errors but keeps counting", () => {
    const v = new ImportValidator("answers", 3, 5);
    for (let i = 1; i <= 12; i++) v.accept({ row: i, values: { item_id: "Q", model: "m", repetition: "9", response: "x" } });
    expect(v.errors).toHaveLength(5);
    expect(v.totalErrors).toBe(12);
  });

  it("has the same schema for a JSON row and its CSV twin", () => {
    const schema = rowSchema("full", 3);
    const csv = schema.parse(full({ repetition: "2", item_id: "42" }));
    const json = schema.parse(full({ repetition: 2, item_id: 42 }));
    expect(json).toEqual(csv);
  });
});
