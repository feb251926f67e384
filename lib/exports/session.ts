import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { RawQuery } from "./people";
import { exportPool } from "./pool";

/**
 * One export's database connection, from the export pool, for the length of a
 * download: COPY ... TO STDOUT streams and server-side cursors (DECLARE ...
 * FETCH n) inside one READ ONLY, REPEATABLE READ transaction, so every part of
 * a multi-query export (the study archive) sees the same snapshot.
 *
 * Whatever happens the connection is given back exactly once: after a normal
 * end it returns to the pool; after an error or an abort (the download was
 * cancelled, the client went away) it is destroyed, which also stops a running
 * COPY on the server at once (its backend sees the socket close).
 */
const noop = () => undefined;
/** Bytes of COPY output buffered ahead of the response before PostgreSQL's socket is paused. */
const COPY_BUFFER = 256 * 1024;

export class ExportAborted extends Error {
  constructor() {
    super("export aborted");
    this.name = "ExportAborted";
  }
}

export class ExportSession {
  private released = false;
  private copyStream: (NodeJS.ReadableStream & { destroy(err?: Error): void }) | null = null;
  private readonly onAbort = () => this.release(true);
  private cursors = 0;

  private constructor(
    private readonly client: pg.PoolClient,
    private readonly signal: AbortSignal,
  ) {
    client.on("error", noop);
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  static async open(signal: AbortSignal): Promise<ExportSession> {
    if (signal.aborted) throw new ExportAborted();
    const client = await exportPool().connect();
    const session = new ExportSession(client, signal);
    if (signal.aborted) {
      session.release(true);
      throw new ExportAborted();
    }
    try {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      // Export queries read everything once: compiling them (JIT) costs more than it saves.
      await client.query("SET LOCAL jit = off");
    } catch (err) {
      session.release(true);
      throw err;
    }
    return session;
  }

  private check() {
    if (this.released || this.signal.aborted) throw new ExportAborted();
  }

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    this.check();
    return (await this.client.query<T>(sql, params)).rows;
  }

  /** `query` as the RawQuery that code shared with other connections takes (loadPeople). */
  readonly rawQuery: RawQuery = ((sql, params) => this.query(sql, params)) as RawQuery;

  /**
   * Rows of a query, `batch` at a time, from a server-side cursor: memory holds two batches. The
   * next batch is asked for before this one is handed out, so PostgreSQL makes it while the
   * caller works on this one (the `sets` export scores a batch in about the time the database
   * takes to read the next); the caller's own statements on this connection queue behind it.
   */
  async *cursor<T extends pg.QueryResultRow>(sql: string, params: unknown[] = [], batch = 5000): AsyncGenerator<T[]> {
    this.check();
    const name = `export_cursor_${++this.cursors}`;
    await this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
    const fetch = () => {
      const rows = this.client.query<T>(`FETCH ${batch} FROM ${name}`).then((r) => r.rows);
      // Awaited below, or in `finally` when the caller stops early: never an unhandled rejection meanwhile.
      rows.catch(() => undefined);
      return rows;
    };
    let next: Promise<T[]> | null = fetch();
    try {
      while (next) {
        this.check();
        const rows: T[] = await next;
        next = rows.length < batch ? null : fetch();
        if (rows.length > 0) yield rows;
      }
    } finally {
      // A caller that stopped early leaves a batch in flight: its answer is read before the connection does anything else.
      if (next) await next.catch(() => undefined);
    }
    this.check();
    await this.client.query(`CLOSE ${name}`);
  }

  /**
   * The bytes of `COPY (<select>) TO STDOUT WITH (<options>)`, as PostgreSQL
   * sends them. Backpressure: the socket is only read when the consumer asks
   * for more (pg-copy-streams pauses it), so a slow download slows the server
   * down instead of filling memory.
   */
  async *copy(select: string, options: string): AsyncGenerator<Buffer> {
    this.check();
    const stream = this.client.query(copyTo(`COPY (${select}) TO STDOUT WITH (${options})`, { highWaterMark: COPY_BUFFER }));
    this.copyStream = stream;
    stream.on("error", noop);
    let complete = false;
    try {
      for await (const chunk of stream) {
        this.check();
        yield chunk as Buffer;
      }
      complete = true;
    } finally {
      this.copyStream = null;
      if (!complete) {
        // Stopped half-way (cancelled or failed): the connection cannot be reused.
        stream.destroy();
        this.release(true);
      }
    }
  }

  /** Ends the transaction and gives the connection back; `ok: false` (an error or an abort) destroys it. */
  async close(ok: boolean): Promise<void> {
    if (this.released) return;
    if (ok && !this.signal.aborted) {
      try {
        await this.client.query("COMMIT");
        this.release(false);
        return;
      } catch {
        /* fall through: destroy */
      }
    }
    this.release(true);
  }

  private release(destroy: boolean) {
    if (this.released) return;
    this.released = true;
    this.signal.removeEventListener("abort", this.onAbort);
    this.copyStream?.destroy();
    this.copyStream = null;
    // A destroyed client's late socket errors are swallowed by the noop listener, which stays;
    // a healthy one goes back to the pool without it (the pool listens while it is idle).
    if (!destroy) this.client.removeListener("error", noop);
    this.client.release(destroy ? new ExportAborted() : undefined);
  }
}
