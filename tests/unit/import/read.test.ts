import { describe, expect, it } from "vitest";
import { isComplete, completeSetSql } from "@/lib/import/completeness";
import { rejection } from "@/lib/import/service";
import { ImportValidator } from "@/lib/import/validate";
import { readAll } from "./helpers";

const HEADER = "item_id,specialty,question,reference_answer,model,repetition,response";

describe("reading a file into rows", () => {
  it("maps CSV cells to columns by the header and numbers data rows from 1", async () => {
    const r = await readAll(`${HEADER}\r\nQ1,Ophthalmology,"Why?","Because.",gpt-x,1,"Two\r\nlines"\r\nQ1,Ophthalmology,Why?,Because.,gpt-x,2,One\r\n`, "csv", 5);
    expect(r?.header.kind).toBe("full");
    expect(r?.rows).toEqual([
      { row: 1, line: 2, values: { item_id: "Q1", specialty: "Ophthalmology", question: "Why?", reference_answer: "Because.", model: "gpt-x", repetition: "1", response: "Two\r\nlines" } },
      { row: 2, line: 4, values: { item_id: "Q1", specialty: "Ophthalmology", question: "Why?", reference_answer: "Because.", model: "gpt-x", repetition: "2", response: "One" } },
    ]);
  });

  it("reads the same rows from a JSON array, keys normalised like a CSV header", async () => {
    const json = JSON.stringify([{ "Item ID": "Q1", specialty: "S", question: "q", reference_answer: "r", model: "m", repetition: 1, response: "a" }]);
    const r = await readAll(json, "json", 3);
    expect(r?.header.kind).toBe("full");
    expect(r?.rows).toEqual([{ row: 1, values: { item_id: "Q1", specialty: "S", question: "q", reference_answer: "r", model: "m", repetition: 1, response: "a" } }]);
  });

  it("validates a CSV file and its JSON twin to the same answers", async () => {
    const csv = `${HEADER}\nQ1,S,q,r,m,1,"a, ""b"""\nQ1,S,q,r,m,2,c\n`;
    const json = JSON.stringify([
      { item_id: "Q1", specialty: "S", question: "q", reference_answer: "r", model: "m", repetition: 1, response: 'a, "b"' },
      { item_id: "Q1", specialty: "S", question: "q", reference_answer: "r", model: "m", repetition: "2", response: "c" },
    ]);
    const staged = async (text: string, format: "csv" | "json") => {
      const r = await readAll(text, format, 4);
      const v = new ImportValidator("full", 3);
      return r!.rows.map((row) => v.accept(row)).map((a) => a && { setKey: a.setKey, repetition: a.repetition, text: a.text });
    };
    expect(await staged(json, "json")).toEqual(await staged(csv, "csv"));
  });

  it("flags rows with the wrong number of fields, and values under nameless columns", async () => {
    const r = await readAll("item_id,model,repetition,response,,\nQ1,m,1\nQ1,m,2,x,,\nQ1,m,3,x,,surprise\nQ1,m,3,x,,,,\nQ1,m,1,x,,,,extra\n", "csv", 6);
    expect(r?.rows.map((x) => [x.row, x.line, x.problems?.[0] ?? null])).toEqual([
      [1, 2, "this row has 3 fields but the header has 6 (a missing separator, or a line break outside quotes?)"],
      [2, 3, null],
      [3, 4, "a value in column 6, which has no name in the header"],
      [4, 5, null],
      [5, 6, "this row has 8 fields but the header has 6"],
    ]);
  });

  it("reports JSON elements that are not objects on their row", async () => {
    const r = await readAll('[{"item_id":"Q1","model":"m","repetition":1,"response":"x"}, 5, null]', "json");
    expect(r?.rows.slice(1).map((x) => x.problems)).toEqual([["row 2 must be an object with the column names as keys, not number"], ["row 3 must be an object with the column names as keys, not null"]]);
  });

  it("gives null for a file without even a header", async () => {
    expect(await readAll("")).toBeNull();
    expect(await readAll("\n\n")).toBeNull();
    expect(await readAll("[]", "json")).toBeNull();
  });
});

describe("error report", () => {
  it("sorts by row, keeps the first 1,000 and the total", () => {
    const errors = Array.from({ length: 1500 }, (_, i) => ({ row: 1500 - i, column: "response", message: "response is empty" }));
    const e = rejection(422, errors, 2000);
    expect(e.status).toBe(422);
    expect(e.message).toBe("2,000 problems in the file; nothing was imported");
    const details = e.details as { errors: { row: number }[]; total: number };
    expect(details.total).toBe(2000);
    expect(details.errors).toHaveLength(1000);
    expect(details.errors.slice(0, 3).map((x) => x.row)).toEqual([1, 2, 3]);
  });
});

describe("completeness", () => {
  it("a set is complete with all N answers", () => {
    expect(isComplete(3, 3)).toBe(true);
    expect(isComplete(2, 3)).toBe(false);
    expect(isComplete(0, 1)).toBe(false);
    expect(isComplete(4, 3)).toBe(true);
    expect(isComplete(0, 0)).toBe(false);
  });

  it("builds its SQL only from plain aliases", () => {
    expect(completeSetSql("rs", "s")).toMatch(/r\."responseSetId" = rs\.id AND r\.repetition BETWEEN 1 AND s\.repetitions\) >= s\.repetitions$/);
    expect(() => completeSetSql("rs; DROP TABLE x", "s")).toThrow();
  });
});
