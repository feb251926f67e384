import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server speaking the OpenAI chat completions protocol, for the judge
 * runner's tests: it reads the dimension keys and levels from the prompt the
 * runner built, answers a JSON object, and (when asked for logprobs) gives the
 * top alternatives of each value's token. Nothing leaves the machine.
 */
export interface StubDimension {
  key: string;
  levels: string[];
}

export interface StubChoice {
  /** The value's token as it appears in the reply: "3", or a string's opening quote and text ("\"yes"). */
  value: string;
  /** Alternatives at the value's token: token -> probability (the chosen one included). */
  alternatives?: Record<string, number>;
}

export interface StubOptions {
  /** Whether the server honours `logprobs` (vLLM, OpenAI) or ignores it (some local servers). */
  logprobs?: boolean;
  /** The value per dimension for request number `n` (from 0). Default: the highest level, with probability 0.7. */
  decide?: (dims: StubDimension[], n: number, body: ChatBody) => Record<string, StubChoice>;
  /** An HTTP status to fail request `n` with, or null to answer. */
  fail?: (n: number, body: ChatBody) => number | null;
  /** Milliseconds to wait before answering request `n`. */
  delayMs?: (n: number) => number;
  /** Override the whole reply's content (malformed replies). */
  content?: (n: number, dims: StubDimension[], body: ChatBody) => string | null;
}

export type ChatBody = { model: string; messages: { role: string; content: string }[]; temperature: number; logprobs?: boolean; top_logprobs?: number; max_tokens?: number };

export interface JudgeStub {
  url: string;
  /** Every request body received, in order of arrival. */
  bodies: ChatBody[];
  /** Authorization headers received. */
  authorizations: (string | undefined)[];
  /** The most requests it held open at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export function dimensionsOf(body: ChatBody): StubDimension[] {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  const dims: StubDimension[] = [];
  const re = /^### ([a-z][a-z0-9_]*): .*\n(?:[\s\S]*?)^Answer with one of: (.*)\.$/gm;
  for (const m of system.matchAll(re)) dims.push({ key: m[1], levels: m[2].split(", ") });
  return dims;
}

function defaultDecide(dims: StubDimension[]): Record<string, StubChoice> {
  return Object.fromEntries(
    dims.map((d) => {
      const top = d.levels[d.levels.length - 1];
      const next = d.levels[d.levels.length - 2];
      return [d.key, { value: top, alternatives: { [top]: 0.7, [next]: 0.2, ",": 0.1 } }];
    }),
  );
}

export async function startJudgeStub(opts: StubOptions = {}): Promise<JudgeStub> {
  const bodies: ChatBody[] = [];
  const authorizations: (string | undefined)[] = [];
  let count = 0;
  let open = 0;
  let maxOpen = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      const n = count++;
      maxOpen = Math.max(maxOpen, ++open);
      res.once("close", () => open--);
      const body = JSON.parse(raw) as ChatBody;
      bodies.push(body);
      authorizations.push(req.headers.authorization);
      const delay = opts.delayMs?.(n) ?? 0;
      if (delay) await new Promise((r) => setTimeout(r, delay));
      if (res.destroyed) return;
      const status = opts.fail?.(n, body) ?? null;
      if (status) {
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `stub failure ${status}` } }));
        return;
      }
      const dims = dimensionsOf(body);
      const override = opts.content?.(n, dims, body);
      const choices = (opts.decide ?? defaultDecide)(dims, n, body);
      // The reply as tokens: each value is a token of its own, as in real tokenizers for short numbers.
      const tokens: { token: string; alternatives?: Record<string, number> }[] = [];
      if (override != null) tokens.push({ token: override });
      else {
        tokens.push({ token: "{" });
        dims.forEach((d, i) => {
          tokens.push({ token: `${i ? ", " : ""}"${d.key}": ` });
          tokens.push({ token: choices[d.key].value, alternatives: choices[d.key].alternatives });
          // A string value's token carries its opening quote ("cold); the closing one follows.
          if (/^"[^"]*$/.test(choices[d.key].value)) tokens.push({ token: '"' });
        });
        tokens.push({ token: "}" });
      }
      const content = tokens.map((t) => t.token).join("");
      const wantLogprobs = opts.logprobs !== false && body.logprobs === true;
      const logprobs = wantLogprobs
        ? {
            content: tokens.map((t) => {
              const alts = t.alternatives ?? { [t.token]: 1 };
              return {
                token: t.token,
                logprob: Math.log(alts[t.token] ?? 1),
                top_logprobs: Object.entries(alts).map(([token, p]) => ({ token, logprob: Math.log(p) })),
              };
            }),
          }
        : null;
      const promptTokens = Math.ceil(body.messages.reduce((s, m) => s + m.content.length, 0) / 4);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `stub-${n}`,
          object: "chat.completion",
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, logprobs, finish_reason: "stop" }],
          usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    authorizations,
    maxInFlight: () => maxOpen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
