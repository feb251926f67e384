import { parentPort, workerData } from "node:worker_threads";
import { errorForParent, type WorkerReply } from "./protocol";

/**
 * A worker's side: runs `job` on the one input the parent sends (with the parent's environment) and answers once (./run.ts).
 * `warmUp`, in a thread started ahead of its job (./spare.ts), runs the job's hot code on a small made-up input while the
 * thread waits, so the job itself starts on compiled code rather than in V8's interpreter.
 */
export function serveJob<I, O>(job: (input: I) => Promise<O>, options: { warmUp?: () => void } = {}): void {
  const port = parentPort;
  if (!port) throw new Error("serveJob runs only in a worker thread");
  port.once("message", (message: { input: I; env?: Record<string, string | undefined> }) => {
    // A thread started ahead of its job (./spare.ts) copied the settings as they were then: it takes them as
    // they are now, as a thread started for the job would have.
    if (message.env) {
      for (const k of Object.keys(process.env)) if (!(k in message.env)) delete process.env[k];
      Object.assign(process.env, message.env);
    }
    void job(message.input).then(
      (value) => port.postMessage({ ok: true, value } satisfies WorkerReply<O>),
      (e: unknown) => port.postMessage({ ok: false, error: errorForParent(e) } satisfies WorkerReply<O>),
    );
  });
  // After the listener: a job that arrives meanwhile waits for the warm-up (tens of milliseconds), then runs.
  if ((workerData as { warm?: boolean } | null)?.warm) options.warmUp?.();
}
