import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/**
 * The write engine both imports share (answers in lib/import, grades in
 * lib/grade-import): statements and COPYs queued on one connection, so
 * PostgreSQL writes one batch while the next rows are parsed, with a bound on
 * what is on its way (backpressure on the file's reader).
 */

/**
 * Ids that increase in the order rows are written: a random 60-bit prefix per
 * import and kind, and a 60-bit counter. Random UUIDs put each new row's key
 * on a random page of the primary key's index (and that page in the WAL again
 * after each checkpoint); in order they fill one page after another. They are
 * RFC 9562 version 8 ("custom") UUIDs, so they pass every uuid check the API
 * makes of its own ids (zod's z.uuid() refuses other version digits).
 */
export function orderedIds(): (n: number) => string {
  const p = randomUUID().replaceAll("-", "");
  const head = `${p.slice(0, 8)}-${p.slice(8, 12)}-8${p.slice(12, 15)}-8`;
  return (n) => {
    const c = n.toString(16).padStart(15, "0");
    return `${head}${c.slice(0, 3)}-${c.slice(3)}`;
  };
}

/**
 * COPY data gathered as UTF-8 buffers of about 32 KB. Each row's line is
 * joined with the others soon after it is made, so it stops pointing into the
 * piece of file it was cut from, and the joined text becomes bytes at once:
 * a batch waits for PostgreSQL long enough to outlive two young-generation
 * collections, and as strings it was promoted to V8's old generation, which
 * is collected late (the server's heap grew by 250 MB over a 188 MB upload).
 * Bytes live outside the heap and are freed as soon as they are sent.
 */
export class Pieces {
  private lines: string[] = [];
  private lineChars = 0;
  private pieces: Buffer[] = [];
  size = 0;

  add(line: string): void {
    this.lines.push(line);
    this.lineChars += line.length;
    this.size += line.length;
    if (this.lineChars >= 32 * 1024) this.seal();
  }

  private seal(): void {
    if (this.lines.length) this.pieces.push(Buffer.from(this.lines.join(""), "utf8"));
    this.lines = [];
    this.lineChars = 0;
  }

  /** Everything gathered, emptied. */
  take(): Buffer[] {
    this.seal();
    const out = this.pieces;
    this.pieces = [];
    this.size = 0;
    return out;
  }
}

/** One INSERT of a batch, its parameters numbered from 1 by `p` wherever it lands in the statement. */
export interface StatementPart {
  sql: (p: (i: number) => string) => string;
  values: unknown[];
}

/** A batch's INSERTs as one statement (the earlier ones as data-modifying CTEs): one round trip instead of several. */
export function oneStatement(parts: readonly StatementPart[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const sql = parts.map((part) => {
    const offset = values.length;
    values.push(...part.values);
    return part.sql((i) => `$${offset + i}`);
  });
  const last = sql.pop() as string;
  return { text: sql.length ? `WITH ${sql.map((q, k) => `w${k} AS (${q})`).join(",\n")}\n${last}` : last, values };
}

export class WritePipeline {
  /**
   * Statements run one after another on the connection; `queue` is the last
   * one sent, so the next is chained to it and parsing goes on meanwhile.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inFlight: Promise<void>[] = [];
  /** The first statement that failed; later ones are not sent. */
  failure: unknown = null;

  constructor(
    private readonly client: pg.Client,
    /** Batches sent but not yet done; bounds memory while PostgreSQL catches up. */
    private readonly maxInFlight = 2,
    /** Keep `timings` (the benchmarks' GRADE_IMPORT_TRACE). */
    private readonly trace = false,
  ) {}

  /** Time spent per kind of statement (its first words), when tracing. */
  readonly timings = new Map<string, { n: number; ms: number }>();

  /** Chains a statement after the ones already sent; its failure is kept and thrown by `bound()`. */
  send(run: () => Promise<unknown>, label?: string): Promise<void> {
    const timed = label === undefined ? run : () => this.timed(label, run);
    const done = this.queue.then(() => (this.failure ? undefined : timed()));
    this.queue = done.catch(() => undefined);
    return done.then(
      () => undefined,
      (e: unknown) => {
        this.failure ??= e;
      },
    );
  }

  private async timed(label: string, run: () => Promise<unknown>): Promise<unknown> {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      const t = this.timings.get(label) ?? { n: 0, ms: 0 };
      t.n++;
      t.ms += performance.now() - t0;
      this.timings.set(label, t);
    }
  }

  private label(sql: string): string | undefined {
    return this.trace ? sql.replace(/\s+/g, " ").slice(0, 60) : undefined;
  }

  query(text: string, values: unknown[]): Promise<void> {
    return this.send(() => this.client.query(text, values), this.label(text));
  }

  copy(sql: string, data: Pieces): Promise<void> {
    const pieces = data.take();
    return this.send(() => {
      const stream = this.client.query(copyFrom(sql));
      for (const p of pieces) stream.write(p);
      stream.end();
      return finished(stream);
    }, this.label(sql));
  }

  /** Counts `last` (the last statement of a batch) as in flight; waits while too many are. */
  async bound(last: Promise<void> | undefined): Promise<void> {
    if (last) this.inFlight.push(last);
    while (this.inFlight.length > this.maxInFlight) await this.inFlight.shift();
    if (this.failure) throw this.failure;
  }

  /** Waits for everything sent; throws the first failure. */
  async drain(): Promise<void> {
    await this.settle();
    if (this.failure) throw this.failure;
  }

  /** Waits until nothing sent is still running (before a rollback or another query on the same connection). */
  async settle(): Promise<void> {
    this.inFlight.length = 0;
    await this.queue;
  }
}
