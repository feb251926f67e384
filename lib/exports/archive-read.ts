import { ApiError } from "@/lib/errors/api-error";

/**
 * Streaming reader of a study archive: one top-level JSON object whose big
 * members are arrays (items, sets, assignments, ...). It tracks strings,
 * escapes and nesting and hands each array element, and each member that is
 * not an array, alone to JSON.parse, so the document is never held whole:
 * only the element being read. lib/import/json.ts does the same for the
 * import's top-level array.
 */

/** One element or member value (a set with N answers of up to a million characters each fits). */
export const MAX_VALUE_CHARS = 32_000_000;
/** Deeper nesting than any archive has; bounds what JSON.parse, zod and JSON.stringify recurse into. */
export const MAX_DEPTH = 64;
const MAX_KEY_CHARS = 1000;

export type ArchiveEvent =
  | { type: "value"; key: string; value: unknown }
  | { type: "open"; key: string }
  | { type: "elements"; key: string; from: number; elements: unknown[] }
  /** An element (or value, index -1) that was skipped unread: too long or nested too deeply. */
  | { type: "refused"; key: string; index: number; message: string }
  | { type: "close"; key: string; count: number };

const BEFORE_OBJECT = 0;
const BEFORE_KEY = 1;
const IN_KEY = 2;
const AFTER_KEY = 3;
const BEFORE_VALUE = 4;
const IN_VALUE = 5;
const BEFORE_ELEMENT = 6;
const IN_ELEMENT = 7;
const AFTER_ELEMENT = 8;
const AFTER_MEMBER = 9;
const AFTER_OBJECT = 10;

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function malformed(detail: string): ApiError {
  return new ApiError(400, `the request body is not valid JSON: ${detail}`);
}

/** The members of the document's top-level object, as events, in batches (one per piece of text). */
export async function* archiveEvents(text: AsyncIterable<string>, maxValueChars = MAX_VALUE_CHARS): AsyncGenerator<ArchiveEvent[]> {
  let state = BEFORE_OBJECT;
  let members = 0;
  let key = "";
  // The value being read (a member's or an array element's): its text so far, in parts.
  let parts: string[] = [];
  let partsLength = 0;
  let start = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let scalar = false;
  let refused: string | null = null;
  let index = 0;
  let out: ArchiveEvent[] = [];
  let elements: unknown[] = [];
  let from = 0;
  const tooLong = `is longer than ${maxValueChars.toLocaleString("en")} characters`;

  const flushElements = () => {
    if (elements.length) out.push({ type: "elements", key, from, elements });
    elements = [];
    from = index;
  };
  const begin = (i: number, c: number) => {
    start = i;
    parts = [];
    partsLength = 0;
    depth = 0;
    inString = false;
    escaped = false;
    refused = null;
    scalar = !(c === 0x7b || c === 0x5b || c === 0x22);
  };
  const finish = (raw: string) => {
    const inArray = state === IN_ELEMENT;
    const where = inArray ? `element ${index + 1} of ${key}` : `the value of ${key}`;
    if (refused === null && raw.length > maxValueChars) refused = tooLong;
    if (refused !== null) {
      flushElements();
      out.push({ type: "refused", key, index: inArray ? index : -1, message: refused });
    } else {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw malformed(`${where} cannot be parsed`);
      }
      if (inArray) elements.push(value);
      else out.push({ type: "value", key, value });
    }
    parts = [];
    partsLength = 0;
    start = -1;
    refused = null;
    if (inArray) {
      index++;
      if (elements.length === 0) from = index;
      state = AFTER_ELEMENT;
    } else state = AFTER_MEMBER;
  };

  for await (const piece of text) {
    const n = piece.length;
    for (let i = 0; i < n; i++) {
      const c = piece.charCodeAt(i);
      switch (state) {
        case BEFORE_OBJECT:
          if (isWs(c)) continue;
          if (c !== 0x7b) throw malformed("a study archive is one JSON object, { \"format\": \"clingrade-study-archive\", ... }");
          state = BEFORE_KEY;
          continue;
        case BEFORE_KEY:
          if (isWs(c)) continue;
          if (c === 0x7d && members === 0) {
            state = AFTER_OBJECT;
            continue;
          }
          if (c !== 0x22) throw malformed(members ? "expected a key in quotes after ," : "expected a key in quotes or }");
          state = IN_KEY;
          start = i;
          parts = [];
          partsLength = 0;
          escaped = false;
          continue;
        case IN_KEY:
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) {
            const raw = parts.join("") + piece.slice(start === -1 ? 0 : start, i + 1);
            try {
              key = JSON.parse(raw) as string;
            } catch {
              throw malformed(`the key after member ${members} cannot be parsed`);
            }
            parts = [];
            partsLength = 0;
            start = -1;
            members++;
            state = AFTER_KEY;
          }
          continue;
        case AFTER_KEY:
          if (isWs(c)) continue;
          if (c !== 0x3a) throw malformed(`expected : after the key ${JSON.stringify(key)}`);
          state = BEFORE_VALUE;
          continue;
        case BEFORE_VALUE:
          if (isWs(c)) continue;
          if (c === 0x5b) {
            out.push({ type: "open", key });
            index = 0;
            from = 0;
            state = BEFORE_ELEMENT;
            continue;
          }
          if (c === 0x2c || c === 0x7d) throw malformed(`no value for the key ${JSON.stringify(key)}`);
          state = IN_VALUE;
          begin(i, c);
          if (scalar) continue;
          break;
        case AFTER_MEMBER:
          if (isWs(c)) continue;
          if (c === 0x2c) state = BEFORE_KEY;
          else if (c === 0x7d) state = AFTER_OBJECT;
          else throw malformed(`expected , or } after the value of ${key}`);
          continue;
        case AFTER_OBJECT:
          if (!isWs(c)) throw malformed("unexpected text after the closing }");
          continue;
        case BEFORE_ELEMENT:
          if (isWs(c)) continue;
          if (c === 0x5d) {
            if (index > 0) throw malformed(`a trailing comma before ] in ${key}`);
            flushElements();
            out.push({ type: "close", key, count: index });
            state = AFTER_MEMBER;
            continue;
          }
          if (c === 0x2c) throw malformed(`an empty element after element ${index} of ${key}`);
          state = IN_ELEMENT;
          begin(i, c);
          if (scalar) continue;
          break;
        case AFTER_ELEMENT:
          if (isWs(c)) continue;
          if (c === 0x2c) state = BEFORE_ELEMENT;
          else if (c === 0x5d) {
            flushElements();
            out.push({ type: "close", key, count: index });
            state = AFTER_MEMBER;
          } else throw malformed(`expected , or ] after element ${index} of ${key}`);
          continue;
        case IN_VALUE:
        case IN_ELEMENT:
          break;
      }
      // Inside a value or an element.
      if (scalar) {
        if (c === 0x2c || c === 0x5d || c === 0x7d || isWs(c)) {
          finish(parts.join("") + piece.slice(start === -1 ? 0 : start, i));
          i--; // the delimiter is read again after the value
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) finish(parts.join("") + piece.slice(start === -1 ? 0 : start, i + 1));
        }
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (++depth > MAX_DEPTH && refused === null) refused = `is nested more than ${MAX_DEPTH} levels deep`;
      } else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) finish(parts.join("") + piece.slice(start === -1 ? 0 : start, i + 1));
      }
    }
    if (state === IN_KEY || state === IN_VALUE || state === IN_ELEMENT) {
      // Keep the unread rest of the value for the next piece, unless it is refused already.
      if (refused === null) {
        const rest = piece.slice(start === -1 ? 0 : start);
        parts.push(rest);
        partsLength += rest.length;
        if (state === IN_KEY && partsLength > MAX_KEY_CHARS) throw malformed(`a key longer than ${MAX_KEY_CHARS} characters`);
        if (partsLength > maxValueChars) refused = tooLong;
      }
      if (refused !== null) {
        parts = [];
        partsLength = 0;
      }
      start = -1;
    }
    flushElements();
    if (out.length) yield out;
    out = [];
  }
  if (state === BEFORE_OBJECT) throw malformed("the body is empty");
  if (state !== AFTER_OBJECT) throw malformed("the document ends before its closing }");
}
