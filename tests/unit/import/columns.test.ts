import { describe, expect, it } from "vitest";
import { detectHeader, normalizeColumnName } from "@/lib/import/columns";

describe("header detection", () => {
  it("tells the three kinds of file apart", () => {
    expect(detectHeader(["item_id", "specialty", "question", "reference_answer", "model", "repetition", "response"])).toMatchObject({ kind: "full", errors: [] });
    expect(detectHeader(["item_id", "specialty", "question", "reference_answer", "model", "repetition", "response", "model_version", "temperature", "top_p"]).kind).toBe("full");
    expect(detectHeader(["item_id", "specialty", "question", "reference_answer"])).toMatchObject({ kind: "questions", errors: [] });
    expect(detectHeader(["item_id", "model", "repetition", "response"])).toMatchObject({ kind: "answers", errors: [] });
    expect(detectHeader(["item_id", "model", "repetition", "response", "model_version", "temperature", "top_p"]).kind).toBe("answers");
  });

  it("accepts spreadsheet spellings of the names, in any order", () => {
    expect(normalizeColumnName("\uFEFF Item ID ")).toBe("item_id");
    expect(normalizeColumnName("Reference-Answer")).toBe("reference_answer");
    const h = detectHeader(["Response", "Repetition", "Model", "Item Id"]);
    expect(h).toMatchObject({ kind: "answers", errors: [], columns: ["response", "repetition", "model", "item_id"] });
  });

  it("names every missing required column, on row 0 (the header)", () => {
    const h = detectHeader(["item_id", "question", "model", "response"]);
    expect(h.kind).toBe("full");
    expect(h.errors.map((e) => [e.row, e.line, e.column])).toEqual([
      [0, 1, "specialty"],
      [0, 1, "reference_answer"],
      [0, 1, "repetition"],
    ]);
    expect(h.errors[0].message).toMatch(/^missing required column specialty \(a file of questions and answers needs item_id, specialty/);
    expect(detectHeader(["specialty", "question", "reference_answer"]).errors).toEqual([expect.objectContaining({ column: "item_id" })]);
  });

  it("refuses unknown and repeated columns", () => {
    const h = detectHeader(["item_id", "model", "repetition", "response", "answer", "model"]);
    expect(h.errors.map((e) => e.message)).toEqual([
      'unknown column "answer"; the columns are item_id, specialty, question, reference_answer, criteria, preview, model, repetition, response, model_version, temperature, top_p',
      "column model appears more than once in the header",
    ]);
  });

  it("a model setting without the other answer columns makes an incomplete answers file", () => {
    const h = detectHeader(["item_id", "specialty", "question", "reference_answer", "model_version"]);
    expect(h.kind).toBe("full");
    expect(h.errors.map((e) => e.column)).toEqual(["model", "repetition", "response"]);
  });

  it("says so when it cannot tell what the file holds", () => {
    expect(detectHeader(["id", "text"]).errors.at(-1)?.message).toMatch(/cannot tell what this file holds/);
    expect(detectHeader(["", ""]).errors).toEqual([expect.objectContaining({ message: "the file has no header row" })]);
  });

  it("keeps nameless columns (Excel's trailing separators) as gaps, not errors", () => {
    const h = detectHeader(["item_id", "model", "repetition", "response", "", ""]);
    expect(h).toMatchObject({ kind: "answers", errors: [], columns: ["item_id", "model", "repetition", "response", null, null] });
  });
});
