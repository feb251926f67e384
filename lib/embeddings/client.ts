import { clip, EndpointError, postToEndpoint, type EndpointAccess } from "@/lib/judges/runner/client";

/**
 * A minimal client of the OpenAI embeddings protocol (POST {baseUrl}/embeddings with
 * {model, input: string[], encoding_format: "float"}), which OpenAI, vLLM, Ollama, llama.cpp
 * and most gateways speak. As the judges' client: the key travels only in the Authorization
 * header, redirects are refused (they could carry the key elsewhere), replies are read up to a
 * bound, and every error message is one short line without the key. A reply that is not what it
 * claims (a vector missing, of another length, with NaN) is an error of the whole batch: no
 * vector of it is used.
 */

/** Inputs per request: small enough that a reply of the longest vectors stays under the bound. */
export const MAX_BATCH_INPUTS = 32;
/** Characters per request, so a batch of long answers is split before the endpoint refuses it. */
export const MAX_BATCH_CHARS = 200_000;
/** Longer vectors than any embedding model gives: a reply claiming more is refused. */
export const MAX_DIMENSIONS = 8192;
/** MAX_BATCH_INPUTS x MAX_DIMENSIONS numbers of ~25 characters, with room: nothing larger is read into memory. */
const MAX_REPLY_BYTES = 8_000_000;

export function embeddingsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/embeddings`;
}

export interface EmbeddedBatch {
  /** One vector per input, in the inputs' order. */
  vectors: Float64Array[];
  promptTokens: number;
}

/** The key never appears in a message, even where an endpoint echoes it in an error body. */
function redact(message: string, apiKey: string | null | undefined): string {
  return apiKey && apiKey.length >= 4 ? message.split(apiKey).join("[key]") : message;
}

/**
 * Embeds one batch. `dimensions`, when known from an earlier batch, is the length every vector
 * must have (one run compares vectors of one space).
 */
export async function embedBatch(access: EndpointAccess, inputs: readonly string[], dimensions: number | null, fetchImpl: typeof fetch = fetch): Promise<EmbeddedBatch> {
  try {
    return await embedBatchUnredacted(access, inputs, dimensions, fetchImpl);
  } catch (err) {
    if (err instanceof EndpointError) throw new EndpointError(redact(err.message, access.apiKey), err.retryable);
    throw err;
  }
}

async function embedBatchUnredacted(access: EndpointAccess, inputs: readonly string[], dimensions: number | null, fetchImpl: typeof fetch): Promise<EmbeddedBatch> {
  const text = await postToEndpoint(access, embeddingsUrl(access.baseUrl), { model: access.model, input: inputs, encoding_format: "float" }, MAX_REPLY_BYTES, fetchImpl, (status) =>
    status === 401 || status === 403 ? " (the endpoint refused the API key: an admin checks it)" : status === 404 ? " (no /embeddings here, or no such model)" : "",
  );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Python's json writes NaN and Infinity as bare words, which JSON does not have.
    if (/(^|[\s,[:])-?(NaN|Infinity)\b/.test(text)) throw new EndpointError("the endpoint's answer has NaN or Infinity in a vector", false);
    throw new EndpointError(`the endpoint's answer is not JSON: ${clip(text)}`, true);
  }
  return { vectors: vectorsOf(data, inputs.length, dimensions), promptTokens: tokensOf(data) };
}

function tokensOf(data: unknown): number {
  const n = Number((data as { usage?: { prompt_tokens?: unknown } }).usage?.prompt_tokens);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

const bad = (message: string) => new EndpointError(message, false);

/** The vectors of an OpenAI embeddings reply, checked: one per input (by `index` when given), all finite, all of one length. */
export function vectorsOf(data: unknown, expected: number, dimensions: number | null): Float64Array[] {
  const items = (data as { data?: unknown } | null)?.data;
  if (!Array.isArray(items)) throw bad("the endpoint's answer has no data array of embeddings");
  if (items.length !== expected) throw bad(`the endpoint gave ${items.length} vector${items.length === 1 ? "" : "s"} for ${expected} input${expected === 1 ? "" : "s"}`);
  const out: (Float64Array | undefined)[] = new Array(expected);
  const indexed = items.every((it) => Number.isInteger((it as { index?: unknown })?.index));
  let length = dimensions;
  items.forEach((it, i) => {
    const at = indexed ? (it as { index: number }).index : i;
    if (at < 0 || at >= expected || out[at]) throw bad(`the endpoint's vectors have a missing or repeated index (${at})`);
    const e = (it as { embedding?: unknown }).embedding;
    if (typeof e === "string") throw bad("the endpoint answered base64 vectors where floats were asked for");
    if (!Array.isArray(e) || e.length === 0) throw bad(`vector ${at} is missing or empty`);
    if (e.length > MAX_DIMENSIONS) throw bad(`vector ${at} has ${e.length} dimensions, more than ${MAX_DIMENSIONS}`);
    if (length === null) length = e.length;
    else if (e.length !== length) throw bad(`vector ${at} has ${e.length} dimensions where the others have ${length}`);
    const v = new Float64Array(e.length);
    for (let k = 0; k < e.length; k++) {
      const x = e[k];
      if (typeof x !== "number" || !Number.isFinite(x)) throw bad(`vector ${at} has a component that is not a finite number (${clip(String(x)).slice(0, 20)})`);
      v[k] = x;
    }
    out[at] = v;
  });
  return out as Float64Array[];
}

/** Splits inputs into requests of at most MAX_BATCH_INPUTS inputs and MAX_BATCH_CHARS characters (one longer input goes alone). */
export function batchesOf<T>(inputs: readonly T[], textOf: (t: T) => string, maxInputs = MAX_BATCH_INPUTS, maxChars = MAX_BATCH_CHARS): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let chars = 0;
  for (const x of inputs) {
    const n = textOf(x).length;
    if (cur.length && (cur.length >= maxInputs || chars + n > maxChars)) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(x);
    chars += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

/** embedBatch, tried again after a backoff when the failure may pass (5xx, 429, timeouts, network), as the judges' tasks are. */
export async function embedWithRetries(
  access: EndpointAccess,
  inputs: readonly string[],
  dimensions: number | null,
  retry: RetryPolicy,
  fetchImpl: typeof fetch,
  onRequest: () => void,
): Promise<EmbeddedBatch> {
  for (let attempt = 1; ; attempt++) {
    onRequest();
    try {
      return await embedBatch(access, inputs, dimensions, fetchImpl);
    } catch (err) {
      if (!(err instanceof EndpointError) || !err.retryable || attempt >= retry.maxAttempts) {
        if (err instanceof EndpointError && err.retryable) throw new EndpointError(`${err.message} (after ${attempt} attempts)`, false);
        throw err;
      }
      // Full jitter: batches that failed together do not retry together.
      const delay = Math.min(retry.maxMs, retry.baseMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
