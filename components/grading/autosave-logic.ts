/**
 * Time on task and save retries, as plain code (no DOM, no React) so they are
 * unit-tested. The page sends, with each save, the milliseconds spent on it
 * since the previous save, counting only while the tab is visible; a save that
 * fails gives its time back so the next one carries it.
 */
export class VisibleTimeClock {
  private accumulated = 0;
  private since: number | null;

  constructor(now: number, visible: boolean) {
    this.since = visible ? now : null;
  }

  /** The tab became visible or hidden at `now`. */
  setVisible(visible: boolean, now: number): void {
    if (visible && this.since === null) this.since = now;
    else if (!visible && this.since !== null) {
      this.accumulated += Math.max(0, now - this.since);
      this.since = null;
    }
  }

  /** Visible time not yet sent. */
  peek(now: number): number {
    return this.accumulated + (this.since === null ? 0 : Math.max(0, now - this.since));
  }

  /** Takes the visible time not yet sent, for a save; the clock restarts from zero. */
  take(now: number): number {
    const ms = Math.round(this.peek(now));
    this.accumulated = 0;
    if (this.since !== null) this.since = now;
    return ms;
  }

  /** A save failed: its time is carried by the next one. */
  giveBack(ms: number): void {
    if (ms > 0) this.accumulated += ms;
  }
}

/** Wait before retrying failed save number `attempt` (1, 2, 3...): 1 s, 2 s, 4 s ... at most 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}

/** Debounce between a change and its save. */
export const SAVE_DEBOUNCE_MS = 800;

/** Browsers refuse keepalive requests whose body is larger than 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 60_000;

export type SaveStatus =
  | { kind: "idle" }
  | { kind: "pending" }
  | { kind: "saving" }
  | { kind: "saved"; at: number }
  | { kind: "error"; message: string; retrying: boolean }
  /** Changes to a submitted assignment wait for "Update submitted grades". */
  | { kind: "unsaved" }
  /** A submitted assignment, unchanged since. */
  | { kind: "submitted" }
  | { kind: "readonly" };

/** The short text of the save status. */
export function saveStatusText(s: SaveStatus): string {
  switch (s.kind) {
    case "idle":
      return "Drafts save automatically";
    case "pending":
    case "saving":
      return "Saving…";
    case "saved":
      return "Saved";
    case "error":
      return s.retrying ? "Save failed — retrying" : "Save failed";
    case "unsaved":
      return "Unsaved changes";
    case "submitted":
      return "Submitted";
    case "readonly":
      return "Read-only";
  }
}
