import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server speaking the OpenAI embeddings protocol (POST /v1/embeddings), for the
 * embedding similarity tests. Its vectors are deterministic and readable: a text containing
 * "vec 3 4 0" is embedded as [3, 4, 0], so the expected cosines are worked out by hand; any
 * other text is [1, 1, 1]. Nothing leaves the machine.
 */
export type EmbeddingsBody = { model: string; input: string[]; encoding_format?: string };

export interface EmbeddingsStubOptions {
  /** An HTTP status to fail request `n` with, or null to answer. */
  fail?: (n: number, body: EmbeddingsBody) => number | null;
  /** The whole reply's text for request `n` (malformed replies), or null for the normal one. */
  raw?: (n: number, body: EmbeddingsBody) => string | null;
  /** Change the vectors of request `n` before they are sent (wrong lengths, NaN, a missing one). */
  mangle?: (n: number, vectors: unknown[][]) => unknown[];
  /** Called before request `n` is answered (e.g. to change the database mid-run). */
  before?: (n: number, body: EmbeddingsBody) => Promise<void> | void;
  delayMs?: (n: number) => number;
}

export interface EmbeddingsStub {
  /** The base URL, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  bodies: EmbeddingsBody[];
  paths: string[];
  authorizations: (string | undefined)[];
  maxInFlight(): number;
  close(): Promise<void>;
}

export function vectorOf(text: string): number[] {
  const m = /vec (-?[\d.]+) (-?[\d.]+) (-?[\d.]+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [1, 1, 1];
}

export async function startEmbeddingsStub(opts: EmbeddingsStubOptions = {}): Promise<EmbeddingsStub> {
  const bodies: EmbeddingsBody[] = [];
  const paths: string[] = [];
  const authorizations: (string | undefined)[] = [];
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        const n = bodies.length;
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EmbeddingsBody;
        bodies.push(body);
        paths.push(req.url ?? "");
        authorizations.push(req.headers.authorization);
        await opts.before?.(n, body);
        const delay = opts.delayMs?.(n) ?? 0;
        if (delay) await new Promise((r) => setTimeout(r, delay));
        const status = opts.fail?.(n, body) ?? null;
        if (status !== null) {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: `stub failure ${status}; you sent ${req.headers.authorization ?? "no key"}` } }));
          return;
        }
        const raw = opts.raw?.(n, body) ?? null;
        if (raw !== null) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(raw);
          return;
        }
        let vectors: unknown[] = body.input.map(vectorOf);
        if (opts.mangle) vectors = opts.mangle(n, vectors as unknown[][]);
        // Sent in reverse order with their index, as a server may: the client must place them by index.
        const data = vectors.map((embedding, index) => ({ object: "embedding", index, embedding })).reverse();
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", model: body.model, data, usage: { prompt_tokens: body.input.length * 3, total_tokens: body.input.length * 3 } }));
      } finally {
        inFlight--;
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    paths,
    authorizations,
    maxInFlight: () => most,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
