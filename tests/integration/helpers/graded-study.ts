import { spawn } from "node:child_process";
import path from "node:path";
import { expect, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { bearer } from "./fixtures";
import { form, GOOD_SAFE, makeGradableStudy } from "./study-fixture";

/**
 * A graded study that exercises what a backup must carry (an adjudicated
 * escalation, a harm flag, a draft, awkward comments) and every export of it,
 * for the backup round trips (backup.test.ts, backup-embedded.test.ts).
 */
export interface GradedStudy {
  studyId: string;
  leadToken: string;
}

/** Seeds the study into the database DATABASE_URL points at. */
export async function seedGradedStudy(): Promise<GradedStudy> {
  const f = await makeGradableStudy({ items: 2, models: 2, graders: 3 });
  await assignGraders(f.study.id, { seed: "backup" }, f.lead.id);
  const of = (setId: string) => getDb().assignment.findMany({ where: { responseSetId: setId, status: { not: "CANCELLED" } }, orderBy: [{ kind: "asc" }, { graderId: "asc" }] });
  const submit = (a: { id: string; graderId: string }, score: [number, number, number, number, number], harm?: { flag: boolean; comment: string }) =>
    saveGrades(a.graderId, a.id, { scores: form({ score, safe: GOOD_SAFE }).map((s, i) => (i === 0 ? { ...s, comment: 'quote " comma, =SUM(A1) 😷\nline' } : s)), submit: true, ...(harm ? { harm } : {}) });
  const [s0, s1, s2] = f.sets;
  const [a, b] = await of(s0.id);
  await submit(a, [5, 4, 4, 4, 4]);
  await submit(b, [2, 4, 4, 4, 4]);
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: s0.id, kind: "ADJUDICATOR" } });
  await submit(adj, [3, 4, 5, 4, 4]);
  const [c, d] = await of(s1.id);
  await submit(c, [4, 4, 4, 4, 4], { flag: true, comment: "Could delay urgent care" });
  await submit(d, [4, 5, 4, 4, 4]);
  const [e, g] = await of(s2.id);
  await submit(e, [3, 3, 3, 3, 3]);
  await saveGrades(g.graderId, g.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: false });
  return { studyId: f.study.id, leadToken: f.lead.token };
}

export const EXPORTS = [
  ...["grades", "score-long", "sets", "summary", "audit"].flatMap((dataset) => ["csv", "json"].map((format) => `dataset=${dataset}&format=${format}&identities=1`)),
  "dataset=grades&format=csv&bom=1",
  "dataset=study&identities=1&audit=1",
  "dataset=study",
];

/** Every export of the study from the database DATABASE_URL points at, at one fixed clock (the study export is stamped). */
export async function allExports({ studyId, leadToken }: GradedStudy): Promise<Record<string, Buffer>> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-12-02T10:00:00Z"));
  try {
    const out: Record<string, Buffer> = {};
    for (const query of EXPORTS) {
      const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?${query}`, bearer(leadToken)), { params: Promise.resolve({ id: studyId }) });
      expect(res.status, query).toBe(200);
      out[query] = Buffer.from(await res.arrayBuffer());
    }
    return out;
  } finally {
    vi.useRealTimers();
  }
}

/** Asserts that two sets of exports are the same, byte for byte. */
export function expectSameExports(after: Record<string, Buffer>, before: Record<string, Buffer>) {
  expect(Object.keys(after)).toEqual(Object.keys(before));
  for (const query of EXPORTS) {
    expect(after[query].length, query).toBeGreaterThan(100);
    expect(after[query].equals(before[query]), `${query} differs after the restore`).toBe(true);
  }
}

/** `npm run admin -- ...` as a user runs it, in a child process with exactly this environment. */
export function runAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
