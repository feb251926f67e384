import { serveJob } from "@/lib/workers/serve";
import { bootstrapFromInput, type BootstrapInput, type BradleyTerryBootstrapOptions, type BradleyTerryBootstrapResult } from "@/lib/stats/bradley-terry-bootstrap";

/** The pairwise statistics' worker thread: each axis's question bootstrap, off the request's event loop (lib/analytics/pairwise.ts). */
serveJob<{ inputs: BootstrapInput[]; options: BradleyTerryBootstrapOptions }, BradleyTerryBootstrapResult[]>(async ({ inputs, options }) => inputs.map((input) => bootstrapFromInput(input, options)));
