/**
 * Tokenisers of the two reference-metric conventions (issue #33):
 *
 * - `tokenize13a`: sacreBLEU's default BLEU tokeniser ("13a", the mteval-v13a.pl tokenisation WMT
 *   uses), case kept. Written from sacreBLEU's tokenizer_13a.py + tokenizer_re.py.
 * - `tokenizeRouge`: Google's rouge-score default tokeniser (no stemmer): lower-case, every run of
 *   characters outside [a-z0-9] becomes a space, split on whitespace, drop empty tokens. Letters
 *   outside ASCII are DROPPED (rouge-score's regex is `[^a-z0-9]+`): "fièvre" becomes "fi vre",
 *   and a Greek, Cyrillic or CJK answer has no tokens at all, so its ROUGE is 0. That is the
 *   package's behaviour, kept so scores compare with published ones.
 */

// Python's str.split()/strip() whitespace (str.isspace): differs from JS \s, which lacks
// U+001C-U+001F and U+0085 and adds U+FEFF.
const PY_WS = "\\t\\n\\x0B\\x0C\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const PY_WS_RUN = new RegExp(`[${PY_WS}]+`, "gu");

/** True for a UTF-16 unit Python's str.isspace() accepts (all are BMP). */
export function isPySpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Python's `s.split()`: split on runs of Unicode whitespace, no empty strings. One scan, no regex. */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (isPySpace(s.charCodeAt(i))) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/** pySplit written with the regex of PY_WS (the test checks both agree). */
export function pySplitRegex(s: string): string[] {
  return s.split(PY_WS_RUN).filter((t) => t.length > 0);
}

// mteval-v13a's language-dependent rules, in order. The `u` flag makes `[^0-9]` match a whole
// code point as Python's `re` does on str (without it an astral character is two halves).
// Symbols {|}~ [\]^_` space-& (-+ :-@ / are split off. The space itself is left out of the class:
// sacreBLEU pads it to three spaces, which changes no later match and no token (and is 3x slower).
const SYMBOLS = /([{-~[-`!-&(-+:-@/])/gu;
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/gu;
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/gu;
const DASH_AFTER_DIGIT = /([0-9])(-)/gu;

/** sacreBLEU's preprocessing before its regexes: rstrip, the mteval markers and entities. */
export function preprocess13a(text: string): string {
  // sacreBLEU's BLEU._preprocess_segment strips trailing whitespace (Python rstrip) first.
  let end = text.length;
  while (end > 0 && isPySpace(text.charCodeAt(end - 1))) end--;
  let line = end === text.length ? text : text.slice(0, end);
  if (line.includes("<skipped>")) line = line.replaceAll("<skipped>", "");
  if (line.includes("\n")) line = line.replaceAll("-\n", "").replaceAll("\n", " ");
  if (line.includes("&")) line = line.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
  // sacreBLEU pads the line with a space each side; scan13a reads past either end as a space, so
  // the padding is left to the regex version (a padded copy would be a slower rope string).
  return line;
}

/** sacreBLEU's 13a tokeniser written as its regexes: the reference for `tokenize13a` (tests compare them). */
export function tokenize13aRegex(text: string): string[] {
  let line = ` ${preprocess13a(text)} `.replace(SYMBOLS, " $1 ");
  // Each rule is skipped when its character is absent (the result is the same, sooner).
  if (line.includes(".") || line.includes(",")) {
    line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, "$1 $2 ").replace(PERIOD_COMMA_BEFORE_NON_DIGIT, " $1 $2");
  }
  if (line.includes("-")) line = line.replace(DASH_AFTER_DIGIT, "$1 $2 ");
  return pySplit(line);
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** The characters of the symbol rule: {|}~ [\]^_` !-& (-+ :-@ / (space left out, see SYMBOLS). */
const isSymbol = (c: number) => (c >= 0x7b && c <= 0x7e) || (c >= 0x5b && c <= 0x60) || (c >= 0x21 && c <= 0x26) || (c >= 0x28 && c <= 0x2b) || (c >= 0x3a && c <= 0x40) || c === 0x2f;
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 units of s[start, end): the hash the scans hand to `emit`. */
export function hashRange(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

// Character classes of the 13a scan, by ASCII code (above 127: whitespace or other).
const OTHER = 0;
const SPACE = 1;
const SYMBOL = 2;
const DIGIT = 3;
const POINT = 4; // "." or ","
const DASH_CLASS = 5;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = isPySpace(c) ? SPACE : isDigit(c) ? DIGIT : c === 0x2e || c === 0x2c ? POINT : c === 0x2d ? DASH_CLASS : isSymbol(c) ? SYMBOL : OTHER;
}

/**
 * sacreBLEU's 13a tokens of a preprocessed line (preprocess13a), as [start, end) ranges handed to
 * `emit` in order. The same tokens as its four regexes (tokenize13aRegex), in one scan: after the
 * symbol rule, a "." or "," becomes a token of its own exactly when the rule "non-digit before it"
 * matched it (it does unless the character before is a digit or a "."/"," that rule just matched:
 * matches do not overlap) or when the character after it is not a digit; a "-" after a digit is
 * split off. Characters are read as in the line with the symbols spaced out (a symbol's
 * neighbour is a space).
 */
export function scan13a(line: string, emit: (start: number, end: number, hash: number) => void): void {
  let start = -1;
  let h = FNV_OFFSET; // FNV-1a of the token so far (hashRange), so a lookup need not read it again
  // The character before, as the symbol rule leaves it: a digit? a "."/"," the second rule matched?
  let prevDigit = false;
  let prevMatched = false;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    const k = c < 128 ? ASCII_CLASS[c] : isPySpace(c) ? SPACE : OTHER;
    if (k === OTHER || k === DIGIT) {
      if (start < 0) {
        start = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      prevDigit = k === DIGIT;
      prevMatched = false;
      continue;
    }
    if (k === SPACE) {
      if (start >= 0) emit(start, i, h);
      start = -1;
      prevDigit = false;
      prevMatched = false;
      continue;
    }
    let alone = true;
    let matched = false;
    if (k === POINT) {
      matched = !prevDigit && !prevMatched;
      alone = matched || i + 1 >= n || !isDigit(line.charCodeAt(i + 1));
    } else if (k === DASH_CLASS) alone = prevDigit;
    if (alone) {
      if (start >= 0) emit(start, i, h);
      emit(i, i + 1, Math.imul(FNV_OFFSET ^ c, FNV_PRIME));
      start = -1;
    } else {
      if (start < 0) {
        start = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    // A symbol is spaced out: the next character then sees a space, which is neither.
    prevDigit = false;
    prevMatched = matched;
  }
  if (start >= 0) emit(start, n, h);
}

/** sacreBLEU's 13a tokeniser; returns the tokens (sacreBLEU joins them with single spaces). */
export function tokenize13a(text: string): string[] {
  const line = preprocess13a(text);
  const out: string[] = [];
  scan13a(line, (s, e) => out.push(line.slice(s, e)));
  return out;
}

/** The [a-z0-9] runs of a lower-cased text as [start, end) ranges: rouge-score's tokens. */
export function scanRouge(lower: string, emit: (start: number, end: number, hash: number) => void): void {
  let start = -1;
  let h = FNV_OFFSET;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (start < 0) {
        start = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    } else if (start >= 0) {
      emit(start, i, h);
      start = -1;
    }
  }
  if (start >= 0) emit(start, lower.length, h);
}

/**
 * rouge-score's default tokeniser (use_stemmer=False). See the header for non-ASCII letters.
 * JS toLowerCase and Python str.lower both apply Unicode's full default lower-case mapping
 * ("İ" -> "i̇", Kelvin sign -> "k"), so the ASCII letters that survive are the same; the runs of
 * [a-z0-9] are what re.sub("[^a-z0-9]+", " ") and the split leave.
 */
export function tokenizeRouge(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  scanRouge(lower, (s, e) => out.push(lower.slice(s, e)));
  return out;
}
