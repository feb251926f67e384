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
const PY_WS_END = new RegExp(`[${PY_WS}]+$`, "u");

/** True for a UTF-16 unit Python's str.isspace() accepts (all are BMP). */
function isPySpace(c: number): boolean {
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

/** sacreBLEU's 13a tokeniser; returns the tokens (sacreBLEU joins them with single spaces). */
export function tokenize13a(text: string): string[] {
  // sacreBLEU's BLEU._preprocess_segment strips trailing whitespace (Python rstrip) first.
  let line = text.replace(PY_WS_END, "");
  line = line
    .replaceAll("<skipped>", "")
    .replaceAll("-\n", "")
    .replaceAll("\n", " ")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");
  line = ` ${line} `;
  line = line.replace(SYMBOLS, " $1 ");
  // Each rule is skipped when its character is absent (the result is the same, sooner).
  if (line.includes(".") || line.includes(",")) {
    line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, "$1 $2 ").replace(PERIOD_COMMA_BEFORE_NON_DIGIT, " $1 $2");
  }
  if (line.includes("-")) line = line.replace(DASH_AFTER_DIGIT, "$1 $2 ");
  return pySplit(line);
}

/** rouge-score's default tokeniser (use_stemmer=False). See the header for non-ASCII letters. */
export function tokenizeRouge(text: string): string[] {
  // JS toLowerCase and Python str.lower both apply Unicode's full default lower-case mapping
  // ("İ" -> "i̇", Kelvin sign -> "k"), so the ASCII letters that survive are the same.
  const s = text.toLowerCase();
  // The runs of [a-z0-9], in one scan: what re.sub("[^a-z0-9]+", " ") and the split leave.
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(s.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}
