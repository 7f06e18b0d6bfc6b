/** Longest name of a space, table or field, in characters (code points, as the request schemas count them). */
export const maxNameLength = 200;

/**
 * Why a name cannot be kept, or null when it can. Names are trimmed; what is
 * stored must read back byte for byte on both engines, so NUL (PostgreSQL text cannot hold it)
 * and unpaired surrogates (they would come back as U+FFFD) are refused rather than altered.
 */
export function describeNameProblem(name: string): string | null {
  if (name === '' || [...name].length > maxNameLength) return `must be 1 to ${maxNameLength} characters`;
  return describeUnstorableText(name);
}

/**
 * Why no stored text could ever equal `text`, or null: NUL (PostgreSQL text cannot hold it) or
 * an unpaired surrogate (no UTF-8 form; each engine would store a different replacement).
 * The JSON body parser applies it to every string of every body.
 */
export function describeUnstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (!isWellFormed(text)) return 'must not contain unpaired surrogate characters';
  return null;
}

/** `String.prototype.isWellFormed` (Node 20+), spelled out for the ES2022 library types. */
export function isWellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

/** Characters a name shown to people must not carry: C0 and C1 controls (CR, LF, tab, ESC…), DEL, line and paragraph separators, bidirectional overrides and isolates. */
const displayControls = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu;

/**
 * A display name (a user's, an API key's, an e-mail sender's) without control characters: each
 * run becomes one space and the ends are trimmed, so a name cannot break a line of a comment's
 * author, a notification, a log line or a mail header, nor reverse the text shown after it.
 */
export function stripControlCharacters(name: string): string {
  return name.replace(displayControls, ' ').trim();
}
