import { describeUnstorableText } from '../shared/display-name.js';

/** Deepest nesting of arrays and objects a body may have: real bodies need about five levels. */
export const maxJsonDepth = 64;

/** What the scan found wrong with a body's text, or null. */
export type JsonTextProblem = 'too_deep' | 'nul' | 'unpaired_surrogate' | null;

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const letterU = 0x75;

function hexDigit(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The code unit of a `\uXXXX` escape whose hex digits start at `at`, or -1 when they are not four hex digits. */
function escapedUnit(text: string, at: number): number {
  let unit = 0;
  for (let index = at; index < at + 4; index++) {
    const digit = hexDigit(text.charCodeAt(index));
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/**
 * One pass over JSON text before it is parsed: nesting deeper than `maxJsonDepth` (code that
 * walks a value recursively, and JSON.stringify, would overflow the stack), and `\u` escapes that
 * make a string no stored text can equal: U+0000 (PostgreSQL text cannot hold it) and unpaired
 * surrogates (not Unicode: the two engines would store different replacements). The text itself
 * is already valid UTF-8, so escapes are the only way such strings arrive.
 *
 * Strings are skipped with `indexOf`, not character by character, so a body of one long string
 * (inline file data) costs little; the next quote and backslash are remembered, so a string
 * with many escapes is still read once. Malformed text is left for JSON.parse to report.
 */
export function scanJsonText(text: string): JsonTextProblem {
  let problem: JsonTextProblem = null;
  let depth = 0;
  let nextQuote = -2;
  let nextBackslash = -2;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit === openBrace || unit === openBracket) {
      if (++depth > maxJsonDepth) return 'too_deep';
    } else if (unit === closeBrace || unit === closeBracket) {
      depth--;
    } else if (unit === quote) {
      // Inside a string from `at + 1`: find its closing quote, stepping over escapes.
      let from = at + 1;
      for (;;) {
        if (nextQuote !== -1 && nextQuote < from) nextQuote = text.indexOf('"', from);
        if (nextQuote === -1) return problem; // unterminated: JSON.parse says so
        if (nextBackslash !== -1 && nextBackslash < from) nextBackslash = text.indexOf('\\', from);
        if (nextBackslash === -1 || nextBackslash > nextQuote) break;
        from = nextBackslash + 2;
        if (text.charCodeAt(nextBackslash + 1) !== letterU) continue;
        const code = escapedUnit(text, nextBackslash + 2);
        if (code === -1) continue; // malformed: JSON.parse says so
        from = nextBackslash + 6;
        if (code === 0) problem ??= 'nul';
        else if (code >= 0xd800 && code <= 0xdbff) {
          // A high surrogate must be followed at once by an escaped low one.
          const low = text.charCodeAt(from) === backslash && text.charCodeAt(from + 1) === letterU ? escapedUnit(text, from + 2) : -1;
          if (low >= 0xdc00 && low <= 0xdfff) from += 6;
          else problem ??= 'unpaired_surrogate';
        } else if (code >= 0xdc00 && code <= 0xdfff) problem ??= 'unpaired_surrogate';
      }
      at = nextQuote;
    }
  }
  return problem;
}

/** `.key` for plain keys, `["…"]` (shortened) for others. */
function pathStep(key: string): string {
  if (/^[A-Za-z_$][\w$]{0,62}$/.test(key)) return `.${key}`;
  const quoted = JSON.stringify(key);
  return `[${quoted.length > 40 ? `${quoted.slice(0, 36)}…"` : quoted}]`;
}

/**
 * The first string or property name of a parsed body that no stored text could equal, as
 * `<where> <problem>`: `data.tags[1] must not contain NUL characters`, or `a property name in
 * where must …`. Called only once `scanJsonText` found one, on a value no deeper than `maxJsonDepth`.
 */
export function describeUnstorableValue(value: unknown, path = ''): string | null {
  if (typeof value === 'string') {
    const problem = describeUnstorableText(value);
    return problem === null ? null : `${path === '' ? 'body' : path.replace(/^\./, '')} ${problem}`;
  }
  if (typeof value !== 'object' || value === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value).map(([key, item]) => [pathStep(key), item]);
  if (!Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      const problem = describeUnstorableText(key);
      if (problem !== null) return `a property name in ${path === '' ? 'the body' : path.replace(/^\./, '')} ${problem}`;
    }
  }
  for (const [step, item] of entries) {
    const found = describeUnstorableValue(item, path + step);
    if (found !== null) return found;
  }
  return null;
}
