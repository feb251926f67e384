import type { ChatMessage } from "./prompt";

/**
 * A minimal client of the OpenAI chat completions protocol (POST
 * {baseUrl}/chat/completions), which OpenAI, vLLM, Ollama, llama.cpp and most
 * gateways speak. The API key travels only in the Authorization header: it is
 * never part of an error message nor of anything logged.
 */

export interface EndpointAccess {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string | null;
  timeoutMs: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  /** Ask for the top alternatives of each generated token (1-20). */
  topLogprobs?: number;
  seed?: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top_logprobs?: { token: string; logprob: number }[];
}

export interface ChatReply {
  content: string;
  logprobs: TokenLogprob[] | null;
  promptTokens: number;
  completionTokens: number;
}

/** What went wrong with one call; `retryable` when trying again later may succeed (5xx, 429, timeout, network). */
export class EndpointError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

export function requestBody(access: Pick<EndpointAccess, "model">, req: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: access.model,
    messages: req.messages,
    temperature: req.temperature,
    max_tokens: req.maxTokens,
    stream: false,
  };
  if (req.topLogprobs) Object.assign(body, { logprobs: true, top_logprobs: req.topLogprobs });
  if (req.seed !== undefined) body.seed = req.seed;
  return body;
}

// Error text from the endpoint is kept short and on one line: it goes into the task's error column.
export const clip = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 300);

/** A reply of a few dimensions is a few kB: an endpoint sending more is not read into memory. */
const MAX_REPLY_BYTES = 2_000_000;

/** Reads a reply up to `max` bytes; past that it stops reading and fails (the embeddings client shares it). */
export async function readCapped(res: Response, max: number): Promise<string> {
  if (Number(res.headers.get("content-length") ?? 0) > max) throw new EndpointError(`the answer is larger than ${max} bytes`, false);
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new EndpointError(`the answer is larger than ${max} bytes`, false);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * POSTs `body` as JSON to an endpoint and reads its answer up to `maxBytes`: the key only in the
 * Authorization header, redirects refused (one could lead the key elsewhere), every failure an
 * EndpointError of one short line saying whether a retry may help. Shared by the judges' chat
 * completions and the embeddings client (lib/embeddings). `hint` adds a word on an HTTP error.
 */
export async function postToEndpoint(
  access: EndpointAccess,
  url: string,
  body: unknown,
  maxBytes: number,
  fetchImpl: typeof fetch,
  hint: (status: number) => string = () => "",
): Promise<string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (access.apiKey) headers.authorization = `Bearer ${access.apiKey}`;
  let res: Response;
  try {
    res = await fetchImpl(url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(access.timeoutMs), redirect: "error" });
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") throw new EndpointError(`no answer within ${access.timeoutMs} ms`, true);
    throw new EndpointError(`could not reach the endpoint: ${clip(String((e as { cause?: { code?: string } }).cause?.code ?? e.message))}`, true);
  }
  let text: string;
  try {
    text = await readCapped(res, maxBytes);
  } catch (err) {
    if (err instanceof EndpointError) throw err;
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") throw new EndpointError(`no answer within ${access.timeoutMs} ms`, true);
    throw new EndpointError(`the answer was cut: ${clip(e.message)}`, true);
  }
  if (!res.ok) {
    const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
    throw new EndpointError(`HTTP ${res.status}${hint(res.status)}: ${clip(text)}`, retryable);
  }
  return text;
}

export async function chatCompletion(access: EndpointAccess, req: ChatRequest, fetchImpl: typeof fetch = fetch): Promise<ChatReply> {
  const text = await postToEndpoint(access, chatCompletionsUrl(access.baseUrl), requestBody(access, req), MAX_REPLY_BYTES, fetchImpl);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new EndpointError(`the endpoint's answer is not JSON: ${clip(text)}`, true);
  }
  const choice = (data as { choices?: { message?: { content?: unknown }; logprobs?: { content?: unknown } }[] }).choices?.[0];
  if (!choice || typeof choice.message?.content !== "string") throw new EndpointError("the endpoint's answer has no choices[0].message.content", true);
  const usage = (data as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
  const lp = choice.logprobs?.content;
  return {
    content: choice.message.content,
    logprobs: Array.isArray(lp) ? (lp as TokenLogprob[]) : null,
    promptTokens: Number.isFinite(Number(usage?.prompt_tokens)) ? Number(usage?.prompt_tokens) : 0,
    completionTokens: Number.isFinite(Number(usage?.completion_tokens)) ? Number(usage?.completion_tokens) : 0,
  };
}
