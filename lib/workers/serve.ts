import { parentPort } from "node:worker_threads";
import { errorForParent, type WorkerReply } from "./protocol";

/** A worker's side: runs `job` on the one input the parent sends and answers once (./run.ts). */
export function serveJob<I, O>(job: (input: I) => Promise<O>): void {
  const port = parentPort;
  if (!port) throw new Error("serveJob runs only in a worker thread");
  port.once("message", (message: { input: I }) => {
    void job(message.input).then(
      (value) => port.postMessage({ ok: true, value } satisfies WorkerReply<O>),
      (e: unknown) => port.postMessage({ ok: false, error: errorForParent(e) } satisfies WorkerReply<O>),
    );
  });
}
