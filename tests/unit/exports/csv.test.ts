import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { BOM_BYTES, csvCell, csvHeader, csvRow, FORMULA_LEADING_SPACE, FORMULA_QUOTES, FORMULA_TRIGGERS, guardFormula, quoteField } from "@/lib/exports/csv";
import { toCsv } from "@/lib/analytics/tables";
import { jsonArray, jsonLinesToArray } from "@/lib/exports/json";
import { redactPeople, type People } from "@/lib/exports/people";
import { exportFileName } from "@/lib/exports/service";
import { copyCsv, FORMULA_START_SQL, sqlGuard, sqlIso, uuidLiteral } from "@/lib/exports/sql";
import { openWebStream } from "@/lib/exports/web-stream";

const parse = (text: string) => Papa.parse<string[]>(text, { header: false, delimiter: ",", skipEmptyLines: false }).data;

describe("RFC 4180 quoting", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ["line1\nline2", '"line1\nline2"'],
    ["line1\r\nline2", '"line1\r\nline2"'],
    ["trailing\r", '"trailing\r"'],
    [" spaces kept ", " spaces kept "],
  ])("%j -> %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("keeps NULL and the empty string apart, as PostgreSQL's COPY does", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe('""');
  });

  it("writes numbers at full precision and booleans as true/false", () => {
    expect(csvCell(10 / 3)).toBe("3.3333333333333335");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(false)).toBe("false");
  });

  it("ends every record with LF and quotes header names only when needed", () => {
    expect(csvRow(["a", 1, null, true])).toBe("a,1,,true\n");
    expect(csvHeader(["domain", "model", "a,b"])).toBe('domain,model,"a,b"\n');
  });
});

describe("formula injection guard", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    ["+41 79 000 00 00", "'+41 79 000 00 00"],
    ["-1", "'-1"],
    ["-", "'-"],
    ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
    ["\tindented", `"'\tindented"`],
    ["\rcarriage", `"'\rcarriage"`],
    ["=a,b", `"'=a,b"`],
    // issue 32: a quote before a trigger, fullwidth triggers, leading spaces
    ['"=1+1', `"'""=1+1"`],
    ['"@SUM(A1)', `"'""@SUM(A1)"`],
    ['" =1', `"'"" =1"`],
    ["\uFF1D1+1", "'\uFF1D1+1"],
    ["\uFF0B41", "'\uFF0B41"],
    ["\uFF0D1", "'\uFF0D1"],
    ["\uFF20SUM(A1)", "'\uFF20SUM(A1)"],
    ["\uFF02=1", "'\uFF02=1"],
    [" =1+1", "' =1+1"],
    ["   -1", "'   -1"],
    ["\u00A0=1", "'\u00A0=1"],
    ["\u3000\uFF1D1", "'\u3000\uFF1D1"],
    ["\n=1", `"'\n=1"`],
  ])("text %j -> %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("leaves numbers alone: the number -1 is not prefixed, the text '-1' is", () => {
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell(-0.5)).toBe("-0.5");
    expect(csvCell("-1")).toBe("'-1");
  });

  it("does not touch text that merely contains a trigger later on", () => {
    for (const s of ["a=b", "1+1", "x-y", "me@example.org", "a\tb", "é=mc²", '"quoted"', 'a"=1', " hello", '" hi', "a\uFF1Db", "\uFF02quoted"]) expect(guardFormula(s)).toBe(s);
  });

  it("leaves emoji, accents and right-to-left text intact", () => {
    for (const s of ["😷 fièvre 🤒", "Ñandú", "مرحبا بالعالم", "שלום", "\u202Eevil\u202C", "👨‍⚕️ ok"]) {
      expect(csvCell(s)).toBe(quoteField(s));
      expect(parse(csvRow([s, 1]))[0]).toEqual([s, "1"]);
    }
    expect(csvCell("\u202E=1")).toBe("\u202E=1"); // the guard looks at the first code unit only, as spreadsheets do
  });

  it("round-trips any text through papaparse as the guarded text (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.constantFrom(...FORMULA_TRIGGERS).map((t) => `${t}x,"y"\n`)), { minLength: 1, maxLength: 6 }), (cells) => {
        const text = csvRow(cells);
        const [row] = Papa.parse<string[]>(text.slice(0, -1), { header: false, delimiter: "," }).data;
        expect(row).toEqual(cells.map((c) => guardFormula(c)));
      }),
      { numRuns: 300 },
    );
  });

  it("is the same rule in SQL (the streamed datasets apply it in PostgreSQL)", () => {
    // Built from the same character lists; that PostgreSQL agrees with guardFormula() on any text is tested on a real server (tests/integration/exports-values.test.ts).
    const sql = sqlGuard("x");
    expect(sql).toBe(`CASE WHEN x ~ ${FORMULA_START_SQL} THEN '''' || x ELSE x END`);
    for (const c of [...FORMULA_TRIGGERS, ...FORMULA_QUOTES, ...FORMULA_LEADING_SPACE].filter((c) => c !== "-")) {
      expect(FORMULA_START_SQL).toContain(`\\\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    }
    expect(sqlIso('g."createdAt"')).toContain(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);
    expect(() => uuidLiteral("1'; DROP TABLE x; --")).toThrow();
  });
});

/**
 * A reader as a spreadsheet in another locale (or with several separators
 * ticked) is: it splits on comma, semicolon and tab alike, and honours quotes
 * only at the start of a field.
 */
function splitOnAnySeparator(record: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = "";
    if (record[i] === '"') {
      for (i++; i < record.length; i++) {
        if (record[i] !== '"') cell += record[i];
        else if (record[i + 1] === '"') cell += record[i++];
        else break;
      }
      i++;
    } else {
      while (i < record.length && !",;\t".includes(record[i])) cell += record[i++];
    }
    cells.push(cell);
    if (i >= record.length) return cells;
    i++; // the separator
  }
}

describe("separators of other locales", () => {
  it.each([
    ["a;=1+1", '"a;=1+1"'],
    ["note\t=HYPERLINK(1)", '"note\t=HYPERLINK(1)"'],
    [";", '";"'],
    ["a\tb", '"a\tb"'],
    ["=x;y", `"'=x;y"`],
  ])("text %j -> %j (quoted: a ; or tab must not start a new cell)", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("no reader splitting on , ; or tab finds a cell the guard did not see (property)", () => {
    const cell = fc.oneof(
      fc.string(),
      fc.array(fc.constantFrom("a", " ", ",", ";", "\t", '"', "=", "+", "-", "@", "1"), { maxLength: 12 }).map((c) => c.join("")),
    );
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), (cells) => {
        const record = csvRow(cells).slice(0, -1);
        fc.pre(!/[\r\n]/.test(record));
        expect(splitOnAnySeparator(record)).toEqual(cells.map((c) => guardFormula(c)));
      }),
      { numRuns: 1000 },
    );
  });

  it("PostgreSQL's COPY quotes every free-text column (it cannot quote for ; or tab alone)", () => {
    const columns = [
      { name: "specialty", kind: "text", sql: "x" },
      { name: "score", kind: "number", sql: "y" },
      { name: 'odd "name"', kind: "text", sql: "z" },
      { name: "rubric", kind: "enum", sql: "w" },
    ] as const;
    expect(copyCsv(columns)).toBe('FORMAT csv, HEADER true, FORCE_QUOTE ("specialty", "odd ""name""")');
    expect(copyCsv([{ name: "n", kind: "number", sql: "1" }])).toBe("FORMAT csv, HEADER true");
  });
});

async function read(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of stream as unknown as AsyncIterable<Uint8Array>) parts.push(c);
  return Buffer.concat(parts);
}

describe("streams", () => {
  it("adds the UTF-8 byte-order mark only when asked", async () => {
    const source = async function* () {
      yield csvRow(["Ophtalmologie", "réponse"]);
    };
    const withBom = await read(await openWebStream(source, { bom: true }));
    expect([...withBom.slice(0, 3)]).toEqual([...BOM_BYTES]);
    expect(new TextDecoder().decode(withBom.slice(3))).toBe("Ophtalmologie,réponse\n");
    const without = await read(await openWebStream(source));
    expect(without[0]).toBe("O".charCodeAt(0));
  });

  it("cancelling stops the source and runs its cleanup", async () => {
    let cleaned = false;
    let produced = 0;
    const source = async function* (signal: AbortSignal) {
      try {
        while (!signal.aborted) {
          produced++;
          yield "x".repeat(1000);
        }
      } finally {
        cleaned = true;
      }
    };
    const stream = await openWebStream(source);
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(cleaned).toBe(true);
    expect(produced).toBeLessThan(5); // pull-based: nothing ran ahead
  });

  it("a source that fails before its first chunk throws (an error response, not a truncated file)", async () => {
    const source = async function* (): AsyncGenerator<string> {
      throw new Error("no database");
    };
    await expect(openWebStream(source)).rejects.toThrow("no database");
  });

  it("turns COPY's JSON lines into one JSON array, whatever the chunk boundaries", async () => {
    const rows = [{ a: 1, t: "x\ny" }, { b: "é😷" }, { c: null }];
    const text = rows.map((r) => JSON.stringify(r) + "\n").join("");
    const bytes = Buffer.from(text);
    for (const cut of [[], [1], [bytes.indexOf(10)], [bytes.indexOf(10) + 1], [3, 9, 20, bytes.length - 1]]) {
      const pieces: Buffer[] = [];
      let start = 0;
      for (const c of [...cut, bytes.length]) {
        pieces.push(bytes.subarray(start, c));
        start = c;
      }
      const out: string[] = [];
      for await (const chunk of jsonLinesToArray((async function* () { yield* pieces; })())) out.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      expect(JSON.parse(out.join(""))).toEqual(rows);
    }
    const empty: string[] = [];
    for await (const chunk of jsonLinesToArray((async function* (): AsyncGenerator<Buffer> {})())) empty.push(String(chunk));
    expect(JSON.parse(empty.join(""))).toEqual([]);
    const arr: string[] = [];
    for await (const chunk of jsonArray([[1, 2], [], [3]])) arr.push(chunk);
    expect(JSON.parse(arr.join(""))).toEqual([1, 2, 3]);
  });
});

describe("file names and pseudonyms", () => {
  it("names files <study-slug>_<dataset>_<yyyy-mm-dd>.<ext> in UTC", () => {
    expect(exportFileName("eye-study", "score-long", "csv", new Date("2026-03-04T23:59:59.999Z"))).toBe("eye-study_score-long_2026-03-04.csv");
    expect(exportFileName("eye-study", "study", "json", new Date("2026-03-05T00:00:00Z"))).toBe("eye-study_study_2026-03-05.json");
  });

  it("replaces user ids, emails and names inside JSON with pseudonyms unless identities are exported", () => {
    const people: People = new Map([
      ["11111111-1111-4111-8111-111111111111", { id: "11111111-1111-4111-8111-111111111111", pseudonym: "Grader AB12", name: "Dr. Ada", email: "ada@h.org", role: "GRADER" }],
    ]);
    const value = {
      after: { userId: "11111111-1111-4111-8111-111111111111", email: "ADA@h.org", name: "Dr. Ada", note: "Dr. Ada wrote" },
      values: { "11111111-1111-4111-8111-111111111111": 5 },
      perGrader: [{ graderId: "11111111-1111-4111-8111-111111111111", name: "Dr. Ada", created: 3 }],
    };
    expect(redactPeople(value, people, false)).toEqual({
      after: { userId: "Grader AB12", email: "Grader AB12", name: "Grader AB12", note: "Dr. Ada wrote" },
      values: { "Grader AB12": 5 },
      perGrader: [{ graderId: "Grader AB12", name: "Grader AB12", created: 3 }],
    });
    expect(redactPeople(value, people, true)).toBe(value);
  });
});

describe("the dashboard's table downloads (lib/analytics/tables)", () => {
  it("apply the exports' guard: a quote before a trigger, fullwidth triggers, leading spaces; numbers never", () => {
    const csv = toCsv({ header: ["name", "n"], rows: [['"=1+1', -1], ["\uFF1DSUM(A1)", 2], [" @x", 0], ["Grader A", 1]] });
    expect(csv.split("\r\n")).toEqual(["name,n", `"'""=1+1",-1`, "'\uFF1DSUM(A1),2", "' @x,0", "Grader A,1", ""]);
  });
});
