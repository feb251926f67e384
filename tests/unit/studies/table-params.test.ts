import { describe, expect, it } from "vitest";
import { pageCount, parseTableParams, sortToState, stateToSort, withParams } from "@/lib/tables/search-params";
import { likePattern } from "@/lib/tables/like";
import { itemListQuerySchema, studyListQuerySchema } from "@/lib/studies/list-params";
import { graderListQuerySchema } from "@/lib/graders/list-params";

describe("parseTableParams", () => {
  it("applies the defaults to an empty query", () => {
    expect(parseTableParams(itemListQuerySchema, new URLSearchParams())).toEqual({
      data: { page: 1, pageSize: 50, sort: "externalId", specialty: undefined, complete: undefined, q: undefined },
      issues: [],
    });
    expect(parseTableParams(studyListQuerySchema, {}).data).toMatchObject({ page: 1, pageSize: 25, sort: "-createdAt" });
  });

  it("reads numbers, sorts, booleans and trimmed text", () => {
    const { data, issues } = parseTableParams(itemListQuerySchema, new URLSearchParams("page=3&pageSize=10&sort=-complete&complete=false&q=%20dose%20&specialty=Medication"));
    expect(issues).toEqual([]);
    expect(data).toEqual({ page: 3, pageSize: 10, sort: "-complete", complete: false, q: "dose", specialty: "Medication" });
    expect(parseTableParams(graderListQuerySchema, { active: "true", sort: "-assigned" }).data).toMatchObject({ active: true, sort: "-assigned" });
  });

  it("treats blank values as absent and takes the first of repeated params", () => {
    expect(parseTableParams(itemListQuerySchema, { q: "   ", specialty: "", page: ["2", "9"] }).data).toMatchObject({ q: undefined, specialty: undefined, page: 2 });
  });

  it("names each bad param and falls back to its default (the pages' lenient mode)", () => {
    const { data, issues } = parseTableParams(studyListQuerySchema, { page: "0", pageSize: "500", sort: "password", status: "ARCHIVED", q: "x".repeat(201) });
    expect(issues.map((i) => i.path)).toEqual(["page", "pageSize", "sort", "status", "q"]);
    expect(issues.find((i) => i.path === "pageSize")?.message).toBe("pageSize must be at most 100");
    expect(issues.find((i) => i.path === "sort")?.message).toMatch(/sort must be one of name, status, createdAt, items/);
    expect(data).toEqual({ page: 1, pageSize: 25, sort: "-createdAt", status: undefined, q: undefined });
    expect(parseTableParams(itemListQuerySchema, { page: "1.5", complete: "yes" }).issues.map((i) => i.path)).toEqual(["page", "complete"]);
  });
});

describe("sort and URL helpers", () => {
  it("converts between the sort param and TanStack's sorting state", () => {
    expect(sortToState("-createdAt")).toEqual({ id: "createdAt", desc: true });
    expect(sortToState("name")).toEqual({ id: "name", desc: false });
    expect(stateToSort({ id: "assigned", desc: true })).toBe("-assigned");
    expect(stateToSort(sortToState("-x"))).toBe("-x");
  });

  it("sends the reader back to page 1 when anything but the page changes, and drops empty params", () => {
    expect(withParams("page=4&q=dose&sort=name", { sort: "-name" })).toBe("?q=dose&sort=-name");
    expect(withParams("page=4&q=dose", { q: null })).toBe("");
    expect(withParams("q=dose", { page: 3 })).toBe("?q=dose&page=3");
    expect(withParams("q=dose&page=3", { page: 1 })).toBe("?q=dose");
    expect(withParams("", { complete: "true", specialty: "" })).toBe("?complete=true");
  });

  it("counts at least one page", () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });

  it("escapes LIKE wildcards so search text is literal", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(likePattern("dose")).toBe("%dose%");
  });
});
