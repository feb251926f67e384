import { describe, expect, it } from "vitest";
import { csvRecords, CsvRowTooLongError, sniffDialect, type CsvRecord } from "@/lib/import/csv";
import { decodeUtf8 } from "@/lib/import/source";
import { chunks, collect } from "./helpers";

async function records(text: string | Buffer, size = 7, maxRow?: number): Promise<CsvRecord[]> {
  return collect(csvRecords(decodeUtf8(chunks(text, size)), maxRow));
}

const fields = (rs: CsvRecord[]) => rs.map((r) => r.fields);

describe("streaming CSV", () => {
  it("reads plain rows and numbers their lines", async () => {
    const rs = await records("a,b\n1,2\n3,4\n");
    expect(fields(rs)).toEqual([["a", "b"], ["1", "2"], ["3", "4"]]);
    expect(rs.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it("drops a UTF-8 byte order mark (Excel's CSV UTF-8)", async () => {
    const rs = await records("\uFEFFitem_id,model\nQ1,m\n", 3);
    expect(rs[0].fields).toEqual(["item_id", "model"]);
  });

  it("reads CRLF files, also when a chunk ends between \\r and \\n", async () => {
    for (const size of [1, 2, 3, 5, 8]) {
      const rs = await records("a,b\r\n1,2\r\n3,4\r\n", size);
      expect(fields(rs)).toEqual([["a", "b"], ["1", "2"], ["3", "4"]]);
    }
  });

  it("keeps quoted multi-line fields whole and counts the lines they span", async () => {
    const text = 'id,response\r\nQ1,"Line one\r\nline two\r\n\r\nline four"\r\nQ2,short\r\n';
    const rs = await records(text, 4);
    expect(fields(rs)).toEqual([["id", "response"], ["Q1", "Line one\r\nline two\r\n\r\nline four"], ["Q2", "short"]]);
    expect(rs.map((r) => r.line)).toEqual([1, 2, 6]);
  });

  it("reads Excel's doubled quotes and quoted separators", async () => {
    const rs = await records('a,b\n"He said ""stop"", then left","x, y"\n""" quoted at start",""\n', 5);
    expect(fields(rs)).toEqual([["a", "b"], ['He said "stop", then left', "x, y"], ['" quoted at start', ""]]);
  });

  it("reads ; and tab separated files (Excel in locales with a decimal comma)", async () => {
    expect(sniffDialect("item_id;model;repetition\r\n")).toEqual({ delimiter: ";", newline: "\r\n" });
    expect(sniffDialect("item_id\tmodel\n")).toEqual({ delimiter: "\t", newline: "\n" });
    expect(sniffDialect("item_id,model")).toEqual({ delimiter: ",", newline: "\n" });
    const rs = await records('item_id;temperature;response\r\nQ1;0,7;"a; b, c"\r\n', 6);
    expect(fields(rs)).toEqual([["item_id", "temperature", "response"], ["Q1", "0,7", "a; b, c"]]);
  });

  it("gives the same records whatever the chunk size, with multi-byte characters split across chunks", async () => {
    const text = 'id,text\n1,"Ärztin: „Dosis 5 mg“ — ok"\n2,"日本語の回答\n二行目"\n3,plain 😀\n';
    const expected = fields(await records(text, 1 << 20));
    expect(expected[2]).toEqual(["2", "日本語の回答\n二行目"]);
    for (let size = 1; size <= 12; size++) expect(fields(await records(text, size))).toEqual(expected);
  });

  it("skips blank lines and rows of bare separators, but counts their lines", async () => {
    const rs = await records("a,b\n\n1,2\n,\n , \n3,4", 3);
    expect(fields(rs)).toEqual([["a", "b"], ["1", "2"], ["3", "4"]]);
    expect(rs.map((r) => r.line)).toEqual([1, 3, 6]);
  });

  it("reports a quote that is never closed and malformed quotes on their row", async () => {
    const open = await records('a,b\n1,"never closed\n2,x\n');
    expect(open.at(-1)).toMatchObject({ line: 2, problem: 'a quoted field is never closed: a closing quote (") is missing' });
    const bad = await records('a,b\n1,"quoted"trailing,x\n');
    expect(bad[1]).toMatchObject({ line: 2, problem: expect.stringMatching(/^malformed quotes/) });
  });

  it("stops on a row longer than the limit (an unclosed quote swallowing the file) instead of holding it all", async () => {
    const text = `a,b\n1,"${"x".repeat(5000)}\n`;
    await expect(records(text, 100, 1000)).rejects.toBeInstanceOf(CsvRowTooLongError);
    await expect(records(text, 100, 1000)).rejects.toThrow(/row starting on line 2 is longer than 1,000 characters/);
  });
});
