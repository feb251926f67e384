import { MessageChannel, type MessagePort } from "node:worker_threads";

/**
 * A request body read by a worker thread one chunk at a time: the worker asks
 * for the next chunk and the request's thread reads it then, so at most one
 * chunk is on its way at any moment (a transferred ReadableStream forwards as
 * fast as the socket gives, and the request's thread held tens of MB of a
 * 200 MB upload). Each chunk's bytes move to the worker without a copy.
 */

type FromBody = { chunk: Uint8Array } | { done: true } | { error: string };

/** The request's side: serves `body` on a new channel; the returned port goes to the worker. */
export function bodyChannel(body: ReadableStream<Uint8Array>): MessagePort {
  const { port1, port2 } = new MessageChannel();
  const reader = body.getReader();
  let finished = false;
  const finish = () => {
    finished = true;
    port1.close();
  };
  const cancel = () => {
    if (finished) return;
    finish();
    void reader.cancel().catch(() => undefined);
  };
  // The worker gone (its job answered without reading to the end, or stopped): the rest of the body is not wanted.
  port1.on("close", cancel);
  port1.on("message", (ask: "next" | "cancel") => {
    if (ask === "cancel") return cancel();
    reader.read().then(
      (next) => {
        if (next.done) {
          port1.postMessage({ done: true } satisfies FromBody);
          finish();
          return;
        }
        // The chunk's buffer moves when the chunk is all of it; a chunk viewing part of a larger buffer is copied first.
        const v = next.value;
        const own = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer ? v : v.slice();
        port1.postMessage({ chunk: own } satisfies FromBody, [own.buffer as ArrayBuffer]);
      },
      (e: unknown) => {
        port1.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies FromBody);
        finish();
      },
    );
  });
  return port2;
}

/** The worker's side: the body's chunks, asked for one at a time. */
export async function* bodyFromChannel(port: MessagePort): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    for (;;) {
      const reply = new Promise<FromBody>((resolve) => port.once("message", resolve));
      port.postMessage("next");
      const m = await reply;
      if ("error" in m) throw new Error(`the upload stopped: ${m.error}`);
      if ("done" in m) {
        finished = true;
        return;
      }
      yield m.chunk;
    }
  } finally {
    if (!finished) port.postMessage("cancel");
    port.close();
  }
}
