/**
 * Run by young-generation.test.ts in a process started as `npm start` starts
 * the server (--max-semi-space-size=32): a job thread started by
 * startJobWorker churns short-lived objects, then answers the size of its
 * young generation's space.
 */
import { startJobWorker } from "@/lib/workers/run";

const churn = `
  import v8 from "node:v8";
  import { parentPort } from "node:worker_threads";
  let keep = [];
  for (let i = 0; i < 3e6; i++) {
    keep.push({ i, s: "x" + i });
    if (keep.length > 20000) keep = [];
  }
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  parentPort.postMessage(space.physical_space_size / 1048576);
`;
const worker = startJobWorker(new URL(`data:text/javascript,${encodeURIComponent(churn)}`), 64);
worker.once("message", (mb: number) => {
  process.stdout.write(JSON.stringify({ newSpaceMb: mb }));
  void worker.terminate();
});
worker.once("error", (e) => {
  console.error(e);
  process.exit(1);
});
