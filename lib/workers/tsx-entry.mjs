// A job's TypeScript entry run through tsx, for a checkout without a production build (./run.ts).
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

await tsImport(workerData.entry, import.meta.url);
