import { BOM_BYTES } from "./csv";

/**
 * Turns an export's async source of chunks into the web ReadableStream a route
 * handler returns. The first chunk is read before the stream is handed out, so
 * a failure to start (a bad query, no database) is still an ordinary error
 * response and not a truncated 200. After that it is pull-based: the source is
 * asked for the next chunk only when the response has room for it
 * (backpressure all the way to PostgreSQL). Cancelling the stream (the browser
 * stopped the download) or aborting `signal` (the request went away) aborts
 * the source's own signal, which makes it give its connection back at once.
 */
export type ChunkSource = (signal: AbortSignal) => AsyncIterable<Uint8Array | string>;
export type StreamOutcome = "complete" | "aborted" | "failed";

export interface WebStreamOptions {
  bom?: boolean;
  signal?: AbortSignal | null;
  onDone?: (outcome: StreamOutcome, bytes: number) => void;
}

const encoder = new TextEncoder();
const bytesOf = (v: Uint8Array | string) => (typeof v === "string" ? encoder.encode(v) : v);

export async function openWebStream(source: ChunkSource, opts: WebStreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  if (opts.signal?.aborted) controller.abort();
  else opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  let bytes = 0;
  let finished = false;
  const finish = (outcome: StreamOutcome) => {
    if (finished) return;
    finished = true;
    opts.signal?.removeEventListener("abort", onOuterAbort);
    opts.onDone?.(outcome, bytes);
  };

  const iterator = source(controller.signal)[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array | string>;
  try {
    first = await iterator.next();
  } catch (err) {
    controller.abort();
    finish("failed");
    throw err;
  }

  const aborted = (c: ReadableStreamDefaultController<Uint8Array>) => {
    finish("aborted");
    // After a cancel the stream is closed and error() does nothing; after an
    // abort of the request it ends the response instead of waiting forever.
    c.error(new Error("export aborted"));
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        if (opts.bom) {
          c.enqueue(BOM_BYTES.slice());
          bytes += BOM_BYTES.length;
        }
        if (first.done) {
          c.close();
          finish("complete");
        } else {
          const chunk = bytesOf(first.value);
          bytes += chunk.byteLength;
          if (chunk.byteLength) c.enqueue(chunk);
        }
      },
      async pull(c) {
        if (controller.signal.aborted) return aborted(c);
        try {
          for (;;) {
            const next = await iterator.next();
            if (controller.signal.aborted) return aborted(c);
            if (next.done) {
              c.close();
              finish("complete");
              return;
            }
            const chunk = bytesOf(next.value);
            if (chunk.byteLength === 0) continue;
            bytes += chunk.byteLength;
            c.enqueue(chunk);
            return;
          }
        } catch (err) {
          finish(controller.signal.aborted ? "aborted" : "failed");
          c.error(err);
        }
      },
      async cancel() {
        controller.abort();
        finish("aborted");
        try {
          await iterator.return?.();
        } catch {
          /* the source was already torn down by the abort */
        }
      },
    },
    { highWaterMark: 1 },
  );
}
