import { serveJob } from "@/lib/workers/serve";
import { mulberry32 } from "@/lib/stats/bootstrap";
import { bootstrapFromInput, type BootstrapInput, type BradleyTerryBootstrapOptions, type BradleyTerryBootstrapResult } from "@/lib/stats/bradley-terry-bootstrap";

/**
 * A made-up study for the spare's warm-up: 6 models, 60 questions of 5 comparisons, ties and
 * both outcomes, so the replicate loop and the Davidson fit are compiled for the shapes a real
 * study sends (typed arrays, ties present) before one arrives.
 */
function warmUpInput(): BootstrapInput {
  const rng = mulberry32(1);
  const n = 300;
  const input: BootstrapInput = { nModels: 6, i: new Int32Array(n), j: new Int32Array(n), outcome: new Uint8Array(n), cluster: new Int32Array(n), clusters: 60 };
  for (let r = 0; r < n; r++) {
    input.i[r] = r % 6;
    input.j[r] = (r + 1 + (r % 5)) % 6;
    input.outcome[r] = Math.floor(rng() * 3);
    input.cluster[r] = Math.floor(r / 5);
  }
  return input;
}

/** The pairwise statistics' worker thread: each axis's question bootstrap, off the request's event loop (lib/analytics/pairwise.ts). */
serveJob<{ inputs: BootstrapInput[]; options: BradleyTerryBootstrapOptions }, BradleyTerryBootstrapResult[]>(async ({ inputs, options }) => inputs.map((input) => bootstrapFromInput(input, options)), {
  warmUp: () => void bootstrapFromInput(warmUpInput(), { replicates: 400, seed: 1 }),
});
