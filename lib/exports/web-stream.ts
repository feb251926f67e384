import { BOM_BYTES } from "./csv";

/**
 * Turns an export's async source of chunks into the web ReadableStream a route
 * handler returns. Pull-based: the source is only asked for the next chunk when
 * the response has room for it (backpressure all the way to PostgreSQL).
 * Cancelling the stream (the browser stopped the download) or aborting
 * `signal` (the request went away) aborts the source's own signal, which makes
 * it give its connection back at once, then ends the generator.
 */
export type ChunkSource = (signal: AbortSignal) => AsyncIterable<Uint8Array | string>;

export function toWebStream(source: ChunkSource, opts: { bom?: boolean; signal?: AbortSignal | null; onDone?: (outcome: "complete" | "aborted" | "failed", bytes: number) => void } = {}): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  if (opts.signal) {
    if (opts.signal.aborted) controller.abort();
    else opts.signal.addEventListener("abort", onOuterAbort, { once: true });
  }
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<Uint8Array | string> | null = null;
  let bytes = 0;
  let finished = false;
  const finish = (outcome: "complete" | "aborted" | "failed") => {
    if (finished) return;
    finished = true;
    opts.signal?.removeEventListener("abort", onOuterAbort);
    opts.onDone?.(outcome, bytes);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        iterator = source(controller.signal)[Symbol.asyncIterator]();
        if (opts.bom) {
          c.enqueue(BOM_BYTES.slice());
          bytes += BOM_BYTES.length;
        }
      },
      async pull(c) {
        // After a cancel the stream is closed and error() does nothing; after an
        // abort of the request it ends the response instead of pulling forever.
        if (controller.signal.aborted) {
          finish("aborted");
          c.error(new Error("export aborted"));
          return;
        }
        try {
          for (;;) {
            const next = await iterator!.next();
            if (controller.signal.aborted) {
              finish("aborted");
              c.error(new Error("export aborted"));
              return;
            }
            if (next.done) {
              c.close();
              finish("complete");
              return;
            }
            const chunk = typeof next.value === "string" ? encoder.encode(next.value) : next.value;
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
          await iterator?.return?.();
        } catch {
          /* the source was already torn down by the abort */
        }
      },
    },
    { highWaterMark: 1 },
  );
}
