import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { retryDelayMs, saveStatusText, VisibleTimeClock, type SaveStatus } from "@/components/grading/autosave-logic";
import { DraftSaver, type FetchLike, type SaverOptions } from "@/components/grading/draft-saver";

describe("visible time on task", () => {
  it("counts only visible time, restarts after each save and takes back failed time", () => {
    const c = new VisibleTimeClock(0, true);
    expect(c.peek(1_000)).toBe(1_000);
    c.setVisible(false, 1_500); // hidden from 1.5 s to 10 s
    expect(c.peek(10_000)).toBe(1_500);
    c.setVisible(true, 10_000);
    expect(c.take(12_000)).toBe(3_500);
    expect(c.take(12_000)).toBe(0);
    c.giveBack(3_500); // that save failed
    expect(c.take(13_000)).toBe(4_500);
  });

  it("starts paused in a hidden tab and ignores repeated visibility events", () => {
    const c = new VisibleTimeClock(0, false);
    expect(c.peek(5_000)).toBe(0);
    c.setVisible(true, 5_000);
    c.setVisible(true, 6_000);
    c.setVisible(false, 7_000);
    c.setVisible(false, 8_000);
    expect(c.take(9_000)).toBe(2_000);
  });
});

describe("retry backoff", () => {
  it("doubles from 1 s up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it("has the texts the page shows", () => {
    expect(saveStatusText({ kind: "saved", at: 0 })).toBe("Saved");
    expect(saveStatusText({ kind: "saving" })).toBe("Saving…");
    expect(saveStatusText({ kind: "error", message: "x", retrying: true })).toBe("Save failed — retrying");
  });
});

interface Call {
  body: Record<string, unknown>;
  keepalive: boolean;
  resolve: (r: { ok: boolean; status: number; json: () => Promise<unknown> }) => void;
  reject: (e: unknown) => void;
}

function harness(opts: Partial<SaverOptions> = {}) {
  let now = 0;
  const calls: Call[] = [];
  const statuses: SaveStatus[] = [];
  const conflicts: string[] = [];
  let state = 0; // stands for the form: each change bumps it
  const fetch: FetchLike = (_url, init) =>
    new Promise((resolve, reject) => {
      calls.push({ body: JSON.parse(init.body) as Record<string, unknown>, keepalive: init.keepalive, resolve, reject });
    });
  const saver = new DraftSaver(
    { url: "/api/v1/assignments/a/grades", fetch, now: () => now, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), visible: true },
    {
      mode: "draft",
      started: false,
      buildDraft: (elapsedMs) => ({ scores: [{ rubric: "SCORE", dimension: "safety", repetition: 1, score: state }], submit: false, elapsedMs }),
      onStatus: (s) => statuses.push(s),
      onConflict: (m) => conflicts.push(m),
      ...opts,
    },
  );
  const change = () => {
    state += 1;
    saver.changed();
  };
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };
  const ok = { ok: true, status: 200, json: async () => ({ status: "IN_PROGRESS" }) };
  const last = () => statuses[statuses.length - 1];
  const score = (c: Call) => (c.body.scores as { score: number }[])[0].score;
  return { saver, calls, statuses, conflicts, change, advance, ok, last, score, setNow: (t: number) => (now = t) };
}

describe("draft saver", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("debounces changes into one PUT of the whole form ~800 ms after the last, with the visible time", async () => {
    const h = harness();
    h.change();
    await h.advance(500);
    h.change();
    await h.advance(799);
    expect(h.calls).toHaveLength(0);
    expect(h.last()).toEqual({ kind: "pending" });
    await h.advance(1);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0].body).toMatchObject({ submit: false, elapsedMs: 1_300 });
    expect(h.score(h.calls[0])).toBe(2);
    expect(h.last()).toEqual({ kind: "saving" });
    h.calls[0].resolve(h.ok);
    await h.advance(0);
    expect(h.last()).toMatchObject({ kind: "saved" });
    expect(h.saver.unsaved).toBe(false);
  });

  it("sends one request at a time and the newest state last", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.change(); // while the first is in flight
    await h.advance(800);
    expect(h.calls).toHaveLength(1);
    h.calls[0].resolve(h.ok);
    await h.advance(0);
    expect(h.calls).toHaveLength(2);
    expect(h.score(h.calls[1])).toBe(2);
    expect(h.last()).toEqual({ kind: "saving" });
    h.calls[1].resolve(h.ok);
    await h.advance(0);
    expect(h.last()).toMatchObject({ kind: "saved" });
  });

  it("retries a failed save with backoff, keeps saying so, gives the time back and loses no change", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.calls[0].reject(new TypeError("network down"));
    await h.advance(0);
    expect(h.last()).toMatchObject({ kind: "error", retrying: true });
    expect(h.saver.shouldWarnOnLeave()).toBe(true);
    h.change(); // a change while failing: status still says failed
    expect(h.last()).toMatchObject({ kind: "error", retrying: true });
    await h.advance(800);
    expect(h.calls).toHaveLength(2);
    expect(h.calls[1].body.elapsedMs).toBe(1_600); // 800 given back + 800 since
    h.calls[1].resolve({ ok: false, status: 503, json: async () => ({ error: "db down" }) });
    await h.advance(0);
    expect(h.last()).toMatchObject({ kind: "error", retrying: true });
    await h.advance(1_999);
    expect(h.calls).toHaveLength(2);
    await h.advance(1); // second failure: 2 s
    expect(h.calls).toHaveLength(3);
    expect(h.score(h.calls[2])).toBe(2);
    h.calls[2].resolve(h.ok);
    await h.advance(0);
    expect(h.last()).toMatchObject({ kind: "saved" });
    expect(h.saver.shouldWarnOnLeave()).toBe(false);
  });

  it("stops for good on 409 (closed study, submitted elsewhere) and reports it", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.calls[0].resolve({ ok: false, status: 409, json: async () => ({ error: "the study is closed: grades can no longer be changed" }) });
    await h.advance(0);
    expect(h.conflicts).toEqual(["the study is closed: grades can no longer be changed"]);
    h.change();
    await h.advance(60_000);
    expect(h.calls).toHaveLength(1);
  });

  it("does not retry a 422 but saves again on the next change", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.calls[0].resolve({ ok: false, status: 422, json: async () => ({ error: "invalid grades" }) });
    await h.advance(0);
    expect(h.last()).toEqual({ kind: "error", message: "invalid grades", retrying: false });
    await h.advance(60_000);
    expect(h.calls).toHaveLength(1);
    h.change();
    await h.advance(800);
    expect(h.calls).toHaveLength(2);
  });

  it("flushes at once with keepalive when the page goes away, not waiting for the request in flight", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.change();
    void h.saver.save({ keepalive: true });
    expect(h.calls).toHaveLength(2);
    expect(h.calls[1].keepalive).toBe(true);
    expect(h.score(h.calls[1])).toBe(2);
  });

  it("saves time on task alone only for a started draft, and only when there is some", async () => {
    const fresh = harness();
    await fresh.advance(5_000);
    await fresh.saver.save({ keepalive: true, timeOnly: true });
    expect(fresh.calls).toHaveLength(0); // opening an answer set does not make it a draft

    const started = harness({ started: true });
    await started.advance(500);
    void started.saver.save({ keepalive: true, timeOnly: true });
    expect(started.calls).toHaveLength(0); // under a second: kept for the next save
    await started.advance(4_500);
    void started.saver.save({ keepalive: true, timeOnly: true });
    expect(started.calls).toHaveLength(1);
    expect(started.calls[0].body.elapsedMs).toBe(5_000);
    expect(started.saver.status).toEqual({ kind: "idle" }); // a time-only save does not flash "Saving…"
  });

  it("counts only visible time", async () => {
    const h = harness();
    await h.advance(1_000);
    h.saver.setVisible(false);
    await h.advance(60_000);
    h.saver.setVisible(true);
    h.change();
    await h.advance(800);
    expect(h.calls[0].body.elapsedMs).toBe(1_800);
  });

  it("settles before a submit: the pending save is cancelled, the one in flight awaited", async () => {
    const h = harness();
    h.change();
    await h.advance(800);
    h.change();
    let settled = false;
    const p = h.saver.settle().then(() => (settled = true));
    await h.advance(0);
    expect(settled).toBe(false);
    h.calls[0].resolve(h.ok);
    await p;
    await h.advance(5_000);
    expect(h.calls).toHaveLength(1); // the submit carries the newest state, not a draft
    h.saver.stop();
    h.change();
    await h.advance(5_000);
    expect(h.calls).toHaveLength(1);
  });

  it("never sends drafts of a submitted assignment: its changes wait and leaving asks first", async () => {
    const h = harness({ mode: "revise" });
    h.change();
    await h.advance(10_000);
    await h.saver.save({ keepalive: true, timeOnly: true });
    expect(h.calls).toHaveLength(0);
    expect(h.last()).toEqual({ kind: "unsaved" });
    expect(h.saver.shouldWarnOnLeave()).toBe(true);
    expect(h.saver.takeElapsed()).toBe(10_000); // carried by "Update submitted grades"
    h.saver.stop();
    expect(h.saver.shouldWarnOnLeave()).toBe(false);
  });

  it("sends nothing when read-only", async () => {
    const h = harness({ mode: "readonly" });
    h.change();
    await h.advance(10_000);
    expect(h.calls).toHaveLength(0);
    expect(h.saver.status).toEqual({ kind: "readonly" });
  });
});
