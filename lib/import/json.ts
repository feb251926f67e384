import { ApiError } from "@/lib/errors/api-error";

/**
 * Streaming reader for a JSON array of row objects: it finds where each
 * top-level element starts and ends (tracking strings, escapes and nesting)
 * and hands each element alone to JSON.parse, so a large array is never held
 * as one string.
 */

export const MAX_ELEMENT_CHARS = 4_000_000;

// Where the reader is in the top-level array.
const BEFORE_ARRAY = 0;
const BEFORE_ELEMENT = 1;
const AFTER_ELEMENT = 2;
const IN_ELEMENT = 3;
const AFTER_ARRAY = 4;

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function malformed(detail: string): ApiError {
  return new ApiError(400, `the request body is not valid JSON: ${detail}`);
}

/** The elements of a top-level JSON array, in batches (one per piece of text). */
export async function* jsonArrayElements(text: AsyncIterable<string>, maxElementChars = MAX_ELEMENT_CHARS): AsyncGenerator<unknown[]> {
  let state: number = BEFORE_ARRAY;
  let parts: string[] = [];
  let partsLength = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The element is a bare scalar (number, true, false, null): it ends at , ] or whitespace. */
  let scalar = false;
  let index = 0;

  const finishElement = (raw: string, out: unknown[]) => {
    try {
      out.push(JSON.parse(raw));
    } catch {
      throw malformed(`element ${index + 1} of the array cannot be parsed`);
    }
    index++;
    parts = [];
    partsLength = 0;
    state = AFTER_ELEMENT;
  };

  for await (const piece of text) {
    const out: unknown[] = [];
    let start = -1;
    const n = piece.length;
    for (let i = 0; i < n; i++) {
      const c = piece.charCodeAt(i);
      switch (state) {
        case BEFORE_ARRAY:
          if (WS.has(c)) continue;
          if (c !== 0x5b) throw malformed("expected an array of row objects, [ {...}, {...} ]");
          state = BEFORE_ELEMENT;
          continue;
        case AFTER_ARRAY:
          if (!WS.has(c)) throw malformed("unexpected text after the closing ]");
          continue;
        case AFTER_ELEMENT:
          if (WS.has(c)) continue;
          if (c === 0x2c) state = BEFORE_ELEMENT;
          else if (c === 0x5d) state = AFTER_ARRAY;
          else throw malformed(`expected , or ] after element ${index}`);
          continue;
        case BEFORE_ELEMENT:
          if (WS.has(c)) continue;
          if (c === 0x5d) {
            if (index > 0) throw malformed("a trailing comma before ]");
            state = AFTER_ARRAY;
            continue;
          }
          if (c === 0x2c) throw malformed(`an empty element after element ${index}`);
          state = IN_ELEMENT;
          start = i;
          depth = 0;
          inString = false;
          escaped = false;
          scalar = !(c === 0x7b || c === 0x5b || c === 0x22);
          if (scalar) continue;
          // The opening character is handled below, as part of the element.
          break;
        case IN_ELEMENT:
          break;
      }
      // InElement
      if (scalar) {
        if (c === 0x2c || c === 0x5d || WS.has(c)) {
          const raw = parts.join("") + piece.slice(start === -1 ? 0 : start, i);
          finishElement(raw, out);
          start = -1;
          i--; // the delimiter is read again in AfterElement
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) {
            finishElement(parts.join("") + piece.slice(start === -1 ? 0 : start, i + 1), out);
            start = -1;
          }
        }
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          finishElement(parts.join("") + piece.slice(start === -1 ? 0 : start, i + 1), out);
          start = -1;
        }
      }
    }
    if (state === IN_ELEMENT) {
      const rest = piece.slice(start === -1 ? 0 : start);
      parts.push(rest);
      partsLength += rest.length;
      if (partsLength > maxElementChars) {
        throw new ApiError(422, `element ${index + 1} of the array is longer than ${maxElementChars.toLocaleString("en")} characters`);
      }
    }
    if (out.length) yield out;
  }
  if (state === IN_ELEMENT && scalar) {
    // A bare scalar at the very end is still an unclosed array.
    throw malformed("the array is not closed with ]");
  }
  if (state === BEFORE_ARRAY) throw malformed("the body is empty");
  if (state !== AFTER_ARRAY) throw malformed("the array is not closed with ]");
}
