import { PayloadTooLargeError } from '../shared/errors.js';
import { parseJsonBody } from './json-body.js';

const [space, tab, newline, carriageReturn, quote, backslash, comma, colon, openBrace, closeBrace, openBracket, closeBracket] = [
  0x20, 0x09, 0x0a, 0x0d, 0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d,
];
/** Characters of base64 text decoded at a time: a multiple of 4, so chunks split on whole groups. */
const chunkChars = 4 * 1024 * 1024;

const isWhitespace = (byte: number) => byte === space || byte === tab || byte === newline || byte === carriageReturn;

/** Thrown by the scanner for anything it does not expect: the body is then parsed the ordinary way, which names the problem. */
class NotSimple extends Error {}

function skipWhitespace(body: Buffer, at: number): number {
  while (at < body.length && isWhitespace(body[at])) at++;
  return at;
}

/** The index just past the string starting at `at` (a quote), and whether it holds an escape. */
function endOfString(body: Buffer, at: number): { end: number; escaped: boolean } {
  let escaped = false;
  for (let i = at + 1; i < body.length; i++) {
    if (body[i] === backslash) {
      escaped = true;
      i++;
    } else if (body[i] === quote) return { end: i + 1, escaped };
  }
  throw new NotSimple();
}

/** The index just past the JSON value starting at `at`. */
function endOfValue(body: Buffer, at: number): number {
  const first = body[at];
  if (first === quote) return endOfString(body, at).end;
  if (first === openBrace || first === openBracket) {
    let depth = 0;
    for (let i = at; i < body.length; i++) {
      const byte = body[i];
      if (byte === quote) i = endOfString(body, i).end - 1;
      else if (byte === openBrace || byte === openBracket) depth++;
      else if ((byte === closeBrace || byte === closeBracket) && --depth === 0) return i + 1;
    }
    throw new NotSimple();
  }
  let i = at;
  while (i < body.length && !isWhitespace(body[i]) && body[i] !== comma && body[i] !== closeBrace) i++;
  if (i === at) throw new NotSimple();
  return i;
}

/**
 * A JSON object body whose `member` is a large base64 string (files/create): that member is
 * decoded straight from the body's bytes, a few megabytes at a time, into one buffer of the
 * decoded size; the other members are parsed the ordinary way. The base64 text never becomes
 * a JavaScript string, so a 50 MB file costs the body (67 MB) and the file (50 MB), not three
 * or four copies. Answers the parsed object with `member` as a Buffer, or as the string `""`
 * marker `null` when the text is not valid base64; anything unusual (an escape in the string,
 * a malformed body) goes to the ordinary parser, which decides and names the problem.
 */
export function parseBodyWithBase64Member(body: Buffer, member: string, maxDecodedBytes: number): Record<string, unknown> | unknown {
  try {
    return scan(body, member, maxDecodedBytes);
  } catch (error) {
    if (error instanceof NotSimple) return parseJsonBody(body);
    throw error;
  }
}

function scan(body: Buffer, member: string, maxDecodedBytes: number): Record<string, unknown> | unknown {
  let at = skipWhitespace(body, 0);
  if (body[at] !== openBrace) throw new NotSimple();
  at = skipWhitespace(body, at + 1);
  const kept: Buffer[] = [];
  let data: { start: number; end: number } | undefined;
  while (body[at] !== closeBrace) {
    if (body[at] !== quote) throw new NotSimple();
    const keyStart = at;
    const key = endOfString(body, at);
    const name: unknown = JSON.parse(body.toString('utf8', keyStart, key.end));
    at = skipWhitespace(body, key.end);
    if (body[at] !== colon) throw new NotSimple();
    const valueStart = skipWhitespace(body, at + 1);
    const valueEnd = endOfValue(body, valueStart);
    if (name === member && body[valueStart] === quote && data === undefined) {
      if (endOfString(body, valueStart).escaped) throw new NotSimple();
      data = { start: valueStart + 1, end: valueEnd - 1 };
    } else {
      kept.push(body.subarray(keyStart, valueEnd));
    }
    at = skipWhitespace(body, valueEnd);
    if (body[at] === comma) at = skipWhitespace(body, at + 1);
    else if (body[at] !== closeBrace) throw new NotSimple();
  }
  if (skipWhitespace(body, at + 1) !== body.length) throw new NotSimple();
  const rest = parseJsonBody(Buffer.concat([Buffer.from('{'), ...kept.flatMap((part, i) => (i === 0 ? [part] : [Buffer.from(','), part])), Buffer.from('}')]));
  if (data === undefined) return rest;
  return { ...(rest as Record<string, unknown>), [member]: decodeBase64Span(body, data.start, data.end, maxDecodedBytes) };
}

/** Decodes base64 bytes in chunks; null when they are not base64 (same rule as decodeBase64: nothing skipped). */
function decodeBase64Span(body: Buffer, start: number, end: number, maxDecodedBytes: number): Buffer | null {
  let unpadded = end;
  if (end - start >= 1 && body[end - 1] === 0x3d) unpadded--;
  if (unpadded - start >= 1 && body[unpadded - 1] === 0x3d) unpadded--;
  const length = unpadded - start;
  if (length % 4 === 1 || (unpadded < end && (end - start) % 4 !== 0)) return null;
  const expected = Math.floor((length * 3) / 4);
  if (expected > maxDecodedBytes) throw new PayloadTooLargeError();
  const decoded = Buffer.allocUnsafe(expected);
  let written = 0;
  for (let at = start; at < unpadded; at += chunkChars) {
    const chunkEnd = Math.min(at + chunkChars, unpadded);
    const chunk = body.toString('latin1', at, chunkEnd);
    const part = Buffer.from(chunk, 'base64');
    // Each chunk but the last is whole groups of 4: it decodes to exactly 3/4 of its length.
    if (part.length !== Math.floor(((chunkEnd - at) * 3) / 4)) return null;
    part.copy(decoded, written);
    written += part.length;
  }
  return written === expected ? decoded : null;
}
