/**
 * Final scores a page at a time: the sets API's keyset pages (limit, cursor)
 * and the results table's SQL-chosen pages, on a study graded through the real
 * services (agreed, awaiting adjudication and ungraded sets). Each must give,
 * page after page, exactly the sets and scores that computeSetResults gives for
 * the whole study.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as sets } from "@/app/api/v1/studies/[id]/sets/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import type { SetStatus } from "@/lib/generated/prisma/enums";
import { saveGrades } from "@/lib/grading/service";
import { computeSetResults, SET_COLUMN_SORTS, type SetColumnSort, type SetResult } from "@/lib/results/sets";
import { resultsTablePage } from "@/lib/results/table";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
let f: Fixture;
let all: SetResult[];

/** The API's shape of a set (no item id, lower-case status). */
const asApi = ({ itemId: _itemId, status, ...s }: SetResult) => ({ ...s, status: status.toLowerCase() });

beforeAll(async () => {
  // 7 questions x 3 models: 21 sets over three specialties.
  f = await makeGradableStudy({ items: 7, models: 3, graders: 4 });
  await assignGraders(f.study.id, { seed: "pages" }, f.lead.id);
  const primaries = await getDb().assignment.findMany({ where: { studyId: f.study.id, kind: "PRIMARY" }, orderBy: [{ responseSetId: "asc" }, { graderId: "asc" }] });
  // Sets 0-8: both primaries agree (scores that differ by set, so pages cannot match by accident);
  // sets 9-12: they disagree on safety (awaiting adjudication); the rest stay ungraded.
  for (const [i, s] of f.sets.slice(0, 13).entries()) {
    const [a, b] = primaries.filter((p) => p.responseSetId === s.id);
    const base = 1 + (i % 5);
    // Sets 0 and 6 (safety 1 and 2) carry a grader's potential-harm flag.
    const harm = i === 0 || i === 6 ? { flag: true, comment: "Could delay care" } : undefined;
    await saveGrades(a.graderId, a.id, { scores: form({ score: [base, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true, harm });
    await saveGrades(b.graderId, b.id, { scores: form({ score: [i < 9 ? base : base >= 3 ? 1 : 5, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
  }
  all = await computeSetResults(f.study.id);
});

describe("GET /api/v1/studies/{id}/sets, a keyset page at a time", () => {
  const get = (query: string) => call(sets, `/x?${query}`, bearer(f.lead.token), { id: f.study.id });

  /** Follows nextCursor from the first page to the last. */
  async function walk(query: string) {
    const pages: { sets: unknown[]; nextCursor: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const page = r.body as unknown as { sets: unknown[]; nextCursor: string | null };
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 50);
    return pages;
  }

  it("the study's sets are fully graded as expected (the fixture)", () => {
    expect(all).toHaveLength(21);
    const count = (s: SetStatus) => all.filter((r) => r.status === s).length;
    expect([count("AGREED"), count("AWAITING_ADJUDICATION"), count("AWAITING_GRADES")]).toEqual([9, 4, 8]);
  });

  it("pages of 4 chain through nextCursor to exactly every set, in order, with their final scores; the last page says null", async () => {
    const pages = await walk("limit=4");
    expect(pages.map((p) => p.sets.length)).toEqual([4, 4, 4, 4, 4, 1]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(pages.flatMap((p) => p.sets)).toEqual(all.map(asApi));
  });

  it("a page that ends exactly at the last set says there is no next one", async () => {
    const pages = await walk("limit=7");
    expect(pages.map((p) => p.sets.length)).toEqual([7, 7, 7]);
    expect(pages.flatMap((p) => p.sets)).toEqual(all.map(asApi));
  });

  it("a status filter pages through only that status's sets", async () => {
    const pages = await walk("status=agreed&limit=2");
    expect(pages.map((p) => p.sets.length)).toEqual([2, 2, 2, 2, 1]);
    expect(pages.flatMap((p) => p.sets)).toEqual(all.filter((s) => s.status === "AGREED").map(asApi));
  });

  it("without a limit, one page of up to 1,000 sets", async () => {
    const r = await get("");
    expect(r.body).toEqual({ sets: all.map(asApi), nextCursor: null });
  });

  it("a bad limit or a cursor the API did not give is a 422 naming the parameter", async () => {
    for (const [query, path] of [
      ["limit=0", "limit"],
      ["limit=5001", "limit"],
      ["limit=ten", "limit"],
      ["cursor=not-a-cursor", "cursor"],
      [`cursor=${Buffer.from(JSON.stringify({ externalId: "Q1" })).toString("base64url")}`, "cursor"],
    ] as const) {
      const r = await get(query);
      expect(r.status, query).toBe(422);
      expect(JSON.stringify(r.body), query).toContain(`"${path}"`);
    }
  });
});

describe("the Results tab's pages (resultsTablePage)", () => {
  type Sort = SetColumnSort | "t.SCORE.total" | "t.SAFE_LLM.per_answer" | "d.SCORE.safety";
  const KEYS: Record<Sort, (r: SetResult) => string | number | null> = {
    externalId: (r) => r.externalId,
    specialty: (r) => r.specialty,
    model: (r) => r.model.name,
    status: (r) => r.status,
    "t.SCORE.total": (r) => r.totals?.SCORE?.total ?? null,
    "t.SAFE_LLM.per_answer": (r) => r.totals?.SAFE_LLM?.perAnswer ?? null,
    "d.SCORE.safety": (r) => (typeof r.finalScores?.SCORE?.safety === "number" ? r.finalScores.SCORE.safety : null),
  };

  /** The reference: every set (computeSetResults' natural order), filtered, then stably sorted by the column (no total last). */
  function expected(sort: Sort, desc: boolean, filter: { status?: SetStatus; specialty?: string; harm?: "flagged" }) {
    const key = KEYS[sort];
    const flagged = new Set([f.sets[0].id, f.sets[6].id]);
    return all
      .filter((r) => (!filter.status || r.status === filter.status) && (!filter.specialty || r.specialty === filter.specialty) && (!filter.harm || flagged.has(r.id)))
      .map((r, i) => ({ r, i, k: key(r) }))
      .sort((x, y) => (x.k === y.k ? x.i - y.i : x.k === null ? 1 : y.k === null ? -1 : (x.k < y.k ? -1 : 1) * (desc ? -1 : 1)))
      .map((x) => x.r);
  }

  async function everyPage(sort: Sort, desc: boolean, filter: { status?: SetStatus; specialty?: string; harm?: "flagged" }, pageSize: number) {
    const out: SetResult[] = [];
    for (let page = 1; ; page++) {
      const p = await resultsTablePage(f.study.id, { ...filter, sort: desc ? `-${sort}` : sort, page, pageSize });
      expect(p.total).toBe(expected(sort, desc, filter).length);
      if (!p.rows.length) return out;
      out.push(...p.rows);
    }
  }

  it("sorted by each of the set's columns, both ways, the pages put together are every set in that order (ties in question-then-model order)", async () => {
    for (const sort of Object.keys(SET_COLUMN_SORTS) as SetColumnSort[]) {
      for (const desc of [false, true]) {
        expect(await everyPage(sort, desc, {}, 5), `${sort} ${desc ? "desc" : "asc"}`).toEqual(expected(sort, desc, {}));
      }
    }
  });

  it("sorted by a total or a dimension's final value, both ways: sets with final scores in that order, the others last", async () => {
    for (const sort of ["t.SCORE.total", "t.SAFE_LLM.per_answer", "d.SCORE.safety"] as const) {
      for (const desc of [false, true]) {
        const got = await everyPage(sort, desc, {}, 4);
        expect(got, `${sort} ${desc ? "desc" : "asc"}`).toEqual(expected(sort, desc, {}));
        expect(got.slice(9).every((r) => r.totals === null)).toBe(true);
      }
    }
    // The S.C.O.R.E. totals differ between the agreed sets, so the order is not the natural one by accident.
    expect((await everyPage("t.SCORE.total", true, {}, 25)).map((r) => r.id)).not.toEqual(all.map((r) => r.id));
  });

  it("filtered by status and by specialty, pages hold only those sets, and the total counts them", async () => {
    expect(await everyPage("status", false, { status: "AWAITING_ADJUDICATION" }, 3)).toEqual(expected("status", false, { status: "AWAITING_ADJUDICATION" }));
    const specialty = f.sets[1].specialty;
    const bySpecialty = await everyPage("model", true, { specialty }, 2);
    expect(bySpecialty.length).toBeGreaterThan(2);
    expect(bySpecialty).toEqual(expected("model", true, { specialty }));
  });

  it("filtered to sets with a harm flag, by a column and by a total: only those sets", async () => {
    const byColumn = await everyPage("externalId", false, { harm: "flagged" }, 1);
    expect(byColumn.map((r) => r.id).sort()).toEqual([f.sets[0].id, f.sets[6].id].sort());
    expect(byColumn).toEqual(expected("externalId", false, { harm: "flagged" }));
    expect(await everyPage("t.SCORE.total", true, { harm: "flagged" }, 1)).toEqual(expected("t.SCORE.total", true, { harm: "flagged" }));
    expect(await everyPage("model", false, { harm: "flagged", status: "AGREED" }, 5)).toEqual(expected("model", false, { harm: "flagged", status: "AGREED" }));
  });

  it("a page past the end is empty and still gives the total", async () => {
    const p = await resultsTablePage(f.study.id, { sort: "externalId", page: 99, pageSize: 25 });
    expect(p).toEqual({ rows: [], total: 21, page: 99, pageSize: 25 });
  });
});
