/**
 * Run by retention.test.ts in a process of its own (`node --expose-gc --import tsx`):
 * reads a long-format file whose item ids are 17 characters through GradeRows
 * and prints, as JSON, the file's size and how much the live heap grew.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHATTOGOVAR_RUBRIC } from "@/lib/demo/data/chattogovar/rubric";
import { guessLongMapping } from "@/lib/grade-import/mapping";
import { GradeRows } from "@/lib/grade-import/rows";
import { fileTables } from "@/lib/grade-import/tables";

const gc = (globalThis as { gc?: () => void }).gc!;
const dir = mkdtempSync(join(tmpdir(), "clingrade-retention-"));
const file = join(dir, "grades.csv");
const dims = CHATTOGOVAR_RUBRIC.dimensions.map((d) => d.name);
const lines = ["item_id,model,rater,dimension,score,comment\n"];
for (let i = 0; i < 4000; i++) for (const m of ["A", "B", "C"]) for (const d of dims) lines.push(`chattogovar-${String(i).padStart(5, "0")},${m},p,${d},5,${"a comment ".repeat(12)}\n`);
const text = lines.join("");
writeFileSync(file, text);
lines.length = 0;
const mapping = guessLongMapping("item_id,model,rater,dimension,score,comment".split(","))!;
const rows = new GradeRows(mapping, [CHATTOGOVAR_RUBRIC], 1);
gc();
const before = process.memoryUsage().heapUsed;
let grades = 0;
for await (const t of fileTables(file, "csv")) for await (const b of rows.table(t)) grades += b.length;
gc();
const grown = process.memoryUsage().heapUsed - before;
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ bytes: text.length, grades, items: rows.items.values.length, grown }));
