import { randomBytes } from "node:crypto";
import type { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { getDb } from "@/lib/db/client";
import { CHATTOGOVAR_RUBRIC } from "@/lib/demo/data/chattogovar/rubric";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { waitingSpares } from "@/lib/workers/spare";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// Response bodies are read field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

afterEach(() => {
  delete process.env.IMPORT_WORKER_WARM;
  delete process.env.IMPORT_WORKER_HEAP_MB;
  delete process.env.UPLOAD_MAX_ROWS;
});

async function makeStudy(leadId: string, name: string) {
  return getDb().study.create({
    data: {
      name,
      slug: `spare-${randomBytes(3).toString("hex")}`,
      rubrics: [CHATTOGOVAR_RUBRIC],
      repetitions: 1,
      thresholds: DEFAULT_THRESHOLDS,
      createdById: leadId,
      members: { create: { userId: leadId, role: "LEAD" } },
    },
  });
}

async function post(studyId: string, token: string, csv: string, dryRun = false) {
  const body = new Blob([csv], { type: "text/csv" });
  return (await call(gradeImport, `/api/v1/studies/${studyId}/grade-imports${dryRun ? "?dryRun=1" : ""}`, bearer(token, { method: "POST", body }), { id: studyId })) as {
    status: number;
    body: Body;
  };
}

/** The grade import's waiting thread, once one has started (it starts after an import's thread has exited). */
async function spare(not?: Worker): Promise<Worker> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const w = waitingSpares().get("grade-import");
    if (w && w !== not) return w;
    if (Date.now() > deadline) throw new Error("no waiting grade-import thread");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const exited = (w: Worker) => new Promise<number>((resolve) => w.once("exit", resolve));

const grades = (items: string[], rater: string) =>
  `item_id,model,rater,dimension,score\n${items.map((i) => `${i},Model A,${rater},accuracy,4`).join("\n")}\n`;

describe("the grade import's waiting thread (IMPORT_WORKER_WARM)", () => {
  it("serves one import and is stopped; the next import gets a new one, which knows nothing of the last", async () => {
    const lead = await makeUser("LEAD");
    const a = await makeStudy(lead.id, "Study A");
    const b = await makeStudy(lead.id, "Study B");

    const first = await post(a.id, lead.token, grades(["a1", "a2", "a3"], "rater-a"));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const s1 = await spare();
    const s1Exit = exited(s1);

    // The next import, into another study, runs in that thread; it sees only its own file.
    const second = await post(b.id, lead.token, grades(["b1"], "rater-b"));
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ items: 1, raters: 1, created: 1, new: { items: 1, raters: 1, responseSets: 1 } });
    expect(waitingSpares().get("grade-import")).not.toBe(s1);
    // The thread that served it is gone, and another waits for the next import.
    await s1Exit;
    const s2 = await spare(s1);
    expect(s2.threadId).not.toBe(s1.threadId);

    // Study A's import again: everything it stored is found in the database, nothing carried in the thread.
    const again = await post(a.id, lead.token, grades(["a1", "a2", "a3"], "rater-a"));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, unchanged: 3, new: { items: 0, raters: 0, responseSets: 0 } });
  });

  it("reads the settings as they are when its import starts, not when it was started", async () => {
    const lead = await makeUser("LEAD");
    const s = await makeStudy(lead.id, "Settings");
    await post(s.id, lead.token, grades(["x"], "r"), true);
    await spare();
    process.env.UPLOAD_MAX_ROWS = "2";
    const r = await post(s.id, lead.token, grades(["a", "b", "c", "d"], "r"), true);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/UPLOAD_MAX_ROWS/);
  });

  it("after an import that ran out of memory, a new thread waits and the next import is served", async () => {
    const lead = await makeUser("LEAD");
    const s = await makeStudy(lead.id, "Out of memory");
    await post(s.id, lead.token, grades(["x"], "r"), true);
    const before = await spare();
    // A ceiling other than the waiting thread's: that thread is stopped and the import runs in one made with 32 MB.
    process.env.IMPORT_WORKER_HEAP_MB = "32";
    const ids = Array.from({ length: 300_000 }, (_, i) => `item-${String(i).padStart(7, "0")}-${"x".repeat(40)}`);
    const big = await post(s.id, lead.token, grades(ids, "r"), true);
    expect(big.status).toBe(413);
    expect(big.body.details.limit).toBe("IMPORT_WORKER_HEAP_MB");
    const after = await spare(before);
    expect(after.threadId).not.toBe(before.threadId);
    delete process.env.IMPORT_WORKER_HEAP_MB;
    const next = await post(s.id, lead.token, grades(["y"], "r"), true);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });

  it("keeps none with IMPORT_WORKER_WARM=0", async () => {
    const lead = await makeUser("LEAD");
    const s = await makeStudy(lead.id, "Cold");
    const waiting = waitingSpares().get("grade-import");
    process.env.IMPORT_WORKER_WARM = "0";
    const r = await post(s.id, lead.token, grades(["c"], "r"), true);
    expect(r.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(waitingSpares().get("grade-import")).toBe(undefined);
    if (waiting) expect(waiting.threadId).toBe(-1);
  });
});
