import type { GradeSubmission } from "@/lib/grading/contract-schemas";
import { KEEPALIVE_MAX_BYTES, retryDelayMs, SAVE_DEBOUNCE_MS, VisibleTimeClock, type SaveStatus } from "./autosave-logic";

/**
 * The draft-save engine behind the grading form, without React or the DOM
 * (fetch, timers and the clock are injected) so it is unit-tested.
 *
 * - "draft": every change schedules a PUT of the whole form (submit: false)
 *   800 ms later; `save({keepalive})` sends at once when the page is hidden or
 *   left. One request at a time; the newest state always goes out last; a
 *   failed save is retried with backoff (1 s, 2 s, 4 s … 30 s) and no change is
 *   dropped. 409 (study closed, submitted elsewhere) stops saving for good.
 * - "revise" (already submitted): nothing is autosaved, changes wait for
 *   "Update submitted grades".
 * - "readonly": nothing is ever sent.
 * Each save carries the visible time since the previous one (given back on failure).
 */
export type AutosaveMode = "draft" | "revise" | "readonly";

export interface FetchLike {
  (url: string, init: { method: string; headers: Record<string, string>; body: string; credentials: "same-origin"; cache: "no-store"; keepalive: boolean }): Promise<{
    ok: boolean;
    status: number;
    json: () => Promise<unknown>;
  }>;
}

export interface SaverDeps {
  url: string;
  fetch: FetchLike;
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  visible: boolean;
}

export interface SaverOptions {
  mode: AutosaveMode;
  /** The server already holds a draft: time on task may be saved without a change. */
  started: boolean;
  buildDraft: (elapsedMs: number) => GradeSubmission;
  onStatus: (s: SaveStatus) => void;
  onConflict: (message: string) => void;
}

export function initialStatus(mode: AutosaveMode): SaveStatus {
  return mode === "readonly" ? { kind: "readonly" } : mode === "revise" ? { kind: "submitted" } : { kind: "idle" };
}

export class DraftSaver {
  private readonly clock: VisibleTimeClock;
  private version = 0;
  private savedVersion = 0;
  private inFlight: { promise: Promise<void>; version: number } | null = null;
  private again = false;
  private timer: unknown = undefined;
  private failures = 0;
  private stopped = false;
  status: SaveStatus;

  constructor(
    private readonly deps: SaverDeps,
    private opts: SaverOptions,
  ) {
    this.clock = new VisibleTimeClock(deps.now(), deps.visible);
    this.status = initialStatus(opts.mode);
  }

  /** The latest callbacks and mode from the component. */
  configure(opts: Partial<SaverOptions>): void {
    this.opts = { ...this.opts, ...opts };
    if (opts.mode === "readonly") this.setStatus({ kind: "readonly" });
  }

  get unsaved(): boolean {
    return this.version !== this.savedVersion;
  }

  get failing(): boolean {
    return this.failures > 0;
  }

  private setStatus(s: SaveStatus) {
    this.status = s;
    this.opts.onStatus(s);
  }

  private clearTimer() {
    if (this.timer !== undefined) this.deps.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number) {
    this.clearTimer();
    this.timer = this.deps.setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, ms);
  }

  /** The form changed. */
  changed(): void {
    this.version += 1;
    if (this.opts.mode === "revise") return this.setStatus({ kind: "unsaved" });
    if (this.opts.mode !== "draft" || this.stopped) return;
    // While saves are failing, keep saying so until one succeeds.
    if (this.failures === 0) this.setStatus({ kind: "pending" });
    this.schedule(SAVE_DEBOUNCE_MS);
  }

  setVisible(visible: boolean): void {
    this.clock.setVisible(visible, this.deps.now());
  }

  /**
   * Saves now if anything is unsaved. `timeOnly`: also when nothing changed but
   * time was spent on a started draft. `keepalive`: the page is going away, do
   * not wait for the request in flight.
   */
  save(opts: { keepalive?: boolean; timeOnly?: boolean } = {}): Promise<void> {
    if (this.opts.mode !== "draft" || this.stopped) return Promise.resolve();
    const v = this.version;
    const dirty = v !== this.savedVersion;
    if (this.inFlight) {
      if (dirty && this.inFlight.version !== v) {
        if (opts.keepalive) return this.send(v, true, false);
        this.again = true;
      }
      return this.inFlight.promise;
    }
    if (!dirty && !(opts.timeOnly && this.opts.started)) return Promise.resolve();
    return this.send(v, opts.keepalive ?? false, !dirty);
  }

  private send(v: number, keepalive: boolean, timeOnly: boolean): Promise<void> {
    this.clearTimer();
    const elapsed = this.clock.take(this.deps.now());
    if (timeOnly && elapsed < 1_000) {
      this.clock.giveBack(elapsed);
      return Promise.resolve();
    }
    const body = JSON.stringify(this.opts.buildDraft(elapsed));
    if (!timeOnly) this.setStatus({ kind: "saving" });
    const promise = this.request(v, body, keepalive, elapsed);
    this.inFlight = { promise, version: v };
    return promise;
  }

  private async request(v: number, body: string, keepalive: boolean, elapsed: number): Promise<void> {
    let retry = false;
    try {
      const res = await this.deps.fetch(this.deps.url, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body,
        credentials: "same-origin",
        cache: "no-store",
        keepalive: keepalive && body.length < KEEPALIVE_MAX_BYTES,
      });
      if (res.ok) {
        this.savedVersion = Math.max(this.savedVersion, v);
        this.opts.started = true;
        this.failures = 0;
        this.setStatus(this.unsaved ? { kind: "pending" } : { kind: "saved", at: this.deps.now() });
        return;
      }
      this.clock.giveBack(elapsed);
      const payload = (await res.json().catch(() => null)) as { error?: unknown } | null;
      const error = typeof payload?.error === "string" ? payload.error : null;
      if (res.status === 409) {
        this.stopped = true;
        const message = error ?? "this assignment can no longer be changed";
        this.setStatus({ kind: "error", message, retrying: false });
        this.opts.onConflict(message);
        return;
      }
      if (res.status === 422) {
        // A retry would not fix it: the next change is saved again.
        this.setStatus({ kind: "error", message: error ?? "the draft was refused", retrying: false });
        return;
      }
      retry = true;
      this.failures += 1;
      this.setStatus({
        kind: "error",
        message: res.status === 401 ? "your session has ended: sign in again in another tab; your changes are kept here" : `the server answered ${res.status}`,
        retrying: true,
      });
    } catch {
      this.clock.giveBack(elapsed);
      retry = true;
      this.failures += 1;
      this.setStatus({ kind: "error", message: "the server could not be reached", retrying: true });
    } finally {
      if (this.inFlight?.version === v) this.inFlight = null;
      if (retry && !this.stopped) this.schedule(retryDelayMs(this.failures));
      else if (this.again && !this.stopped) {
        this.again = false;
        void this.save();
      }
    }
  }

  retryNow(): void {
    this.clearTimer();
    void this.save();
  }

  /** Before submitting: no pending draft save, none in flight. */
  async settle(): Promise<void> {
    this.clearTimer();
    this.again = false;
    while (this.inFlight) await this.inFlight.promise;
    this.clearTimer();
  }

  takeElapsed(): number {
    return this.clock.take(this.deps.now());
  }

  giveBackElapsed(ms: number): void {
    this.clock.giveBack(ms);
  }

  /** After a successful submit: nothing more is sent as a draft. */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.savedVersion = this.version;
    this.failures = 0;
  }

  /** Whether leaving the page should ask first: unsaved revisions, or drafts whose saves keep failing. */
  shouldWarnOnLeave(): boolean {
    if (!this.unsaved || this.stopped) return false;
    return this.opts.mode === "revise" || (this.opts.mode === "draft" && this.failures > 0);
  }
}
