import { isAscii } from 'node:buffer';
import { PayloadTooLargeError } from '../shared/errors.js';
import { parseJsonBody } from './json-body.js';

const [space, tab, newline, carriageReturn, quote, backslash, comma, colon, openBrace, closeBrace, openBracket, closeBracket] = [
  0x20, 0x09, 0x0a, 0x0d, 0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d,
];
/**
 * Characters of base64 text decoded at a time: a multiple of 4, so chunks split on whole groups;
 * small enough that each chunk's string dies young (strings past 128 KiB go to V8's large-object
 * space, freed only by full collections: with 4 MiB chunks one 50 MB files/create peaked ~40 MB higher).
 */
export const chunkChars = 64 * 1024;

const isWhitespace = (byte: number) => byte === space || byte === tab || byte === newline || byte === carriageReturn;

/** Thrown by the scanner for anything it does not expect: the body is then parsed the ordinary way, which names the problem. */
class NotSimple extends Error {}

function skipWhitespace(body: Buffer, at: number): number {
  while (at < body.length && isWhitespace(body[at])) at++;
  return at;
}

/** The index just past the string starting at `at` (a quote), and whether it holds an escape; quotes and backslashes are found natively. */
function endOfString(body: Buffer, at: number): { end: number; escaped: boolean } {
  let escaped = false;
  let from = at + 1;
  for (;;) {
    const closing = body.indexOf(quote, from);
    if (closing === -1) throw new NotSimple();
    const escape = body.subarray(from, closing).indexOf(backslash);
    if (escape === -1) return { end: closing + 1, escaped };
    escaped = true;
    // The escaped character, whatever it is (a quote included), is skipped.
    from = from + escape + 2;
  }
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
 * decoded straight from the body's bytes, 64 KiB at a time, into the body's own
 * buffer (the decoded bytes are shorter than their text and never overtake it), and the other
 * members are parsed the ordinary way. The base64 text never becomes one JavaScript string,
 * and the file costs no memory beyond the body's: a 50 MB file is held as its 67 MB body.
 *
 * Answers the parsed object with `member` as a Buffer (a view of the body), or as null when
 * its text is not base64. Anything unusual (an escape in that string, a member twice, a
 * malformed body, a byte in it that JSON does not allow) goes to the ordinary parser with the
 * body as it arrived, so that the answer, and the error naming a problem, are exactly its.
 */
export function parseBodyWithBase64Member(body: Buffer, member: string, maxDecodedBytes: number): unknown {
  try {
    return scan(body, member, maxDecodedBytes);
  } catch (error) {
    if (error instanceof NotSimple) return parseJsonBody(body);
    throw error;
  }
}

function scan(body: Buffer, member: string, maxDecodedBytes: number): unknown {
  let at = skipWhitespace(body, 0);
  if (body[at] !== openBrace) throw new NotSimple();
  at = skipWhitespace(body, at + 1);
  const kept: Buffer[] = [];
  let data: { start: number; end: number } | undefined;
  while (body[at] !== closeBrace) {
    if (body[at] !== quote) throw new NotSimple();
    const keyStart = at;
    const key = endOfString(body, at);
    const name = key.escaped ? parseKey(body, keyStart, key.end) : body.toString('latin1', keyStart + 1, key.end - 1);
    at = skipWhitespace(body, key.end);
    if (body[at] !== colon) throw new NotSimple();
    const valueStart = skipWhitespace(body, at + 1);
    if (name === member) {
      // The last of several would win in JSON.parse: the ordinary parser decides.
      if (data !== undefined) throw new NotSimple();
      if (body[valueStart] === quote) {
        const value = endOfString(body, valueStart);
        if (value.escaped) throw new NotSimple();
        data = { start: valueStart + 1, end: value.end - 1 };
        at = skipWhitespace(body, value.end);
      } else {
        data = { start: -1, end: -1 };
        const valueEnd = endOfValue(body, valueStart);
        kept.push(body.subarray(keyStart, valueEnd));
        at = skipWhitespace(body, valueEnd);
      }
    } else {
      const valueEnd = endOfValue(body, valueStart);
      kept.push(body.subarray(keyStart, valueEnd));
      at = skipWhitespace(body, valueEnd);
    }
    if (body[at] === comma) {
      at = skipWhitespace(body, at + 1);
      if (body[at] === closeBrace) throw new NotSimple();
    } else if (body[at] !== closeBrace) throw new NotSimple();
  }
  if (skipWhitespace(body, at + 1) !== body.length) throw new NotSimple();
  const rest = parseRest(kept);
  if (data === undefined || data.start === -1) return rest;
  return { ...rest, [member]: decodeInPlace(body, data.start, data.end, maxDecodedBytes) };
}

/** A key with escapes, as JSON reads it; the ordinary parser names a bad one. */
function parseKey(body: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(body.toString('utf8', start, end));
  } catch {
    throw new NotSimple();
  }
}

/** The other members, parsed as every body is; a problem among them is named by the ordinary parser, with positions in the body as sent. */
function parseRest(kept: Buffer[]): Record<string, unknown> {
  const parts: Buffer[] = [Buffer.from('{')];
  kept.forEach((part, i) => parts.push(...(i === 0 ? [part] : [Buffer.from(','), part])));
  parts.push(Buffer.from('}'));
  try {
    return parseJsonBody(Buffer.concat(parts)) as Record<string, unknown>;
  } catch {
    throw new NotSimple();
  }
}

/**
 * Decodes the base64 text at [start, end) of `body` into `body` itself, from `start`: chunk by
 * chunk, each copied out as a string first, so the bytes written (3 for every 4 read) land only
 * on text already read. Null when the text is not base64 (same rule as decodeBase64: nothing
 * skipped, padding only to complete the last group). A text with a byte past ASCII (not UTF-8,
 * or valid but certainly not base64) goes to the ordinary parser untouched; one with a control
 * character, which JSON refuses in a string, is found only while decoding: what was decoded is
 * put back as base64 text of the same length (its errors name a position, never the text
 * around it), and the ordinary parser names the problem.
 */
function decodeInPlace(body: Buffer, start: number, end: number, maxDecodedBytes: number): Buffer | null {
  let unpadded = end;
  if (end - start >= 1 && body[end - 1] === 0x3d) unpadded--;
  if (unpadded - start >= 1 && body[unpadded - 1] === 0x3d) unpadded--;
  const length = unpadded - start;
  if (length % 4 === 1 || (unpadded < end && (end - start) % 4 !== 0)) return refuse(body, start, end);
  const expected = Math.floor((length * 3) / 4);
  if (expected > maxDecodedBytes) throw new PayloadTooLargeError();
  if (!isAscii(body.subarray(start, end))) throw new NotSimple();
  let written = 0;
  for (let at = start; at < unpadded; at += chunkChars) {
    const chunkEnd = Math.min(at + chunkChars, unpadded);
    const text = body.toString('latin1', at, chunkEnd);
    const part = body.write(text, start + written, 'base64');
    // Node's decoder skips what is not base64 and stops at `=`: a short part is exactly such a text.
    if (part !== Math.floor(((chunkEnd - at) * 3) / 4)) {
      // Put back the text decoded so far (whole groups, so its length is the same), then this chunk's.
      body.write(body.toString('base64', start, start + written), start, 'latin1');
      body.write(text, at, 'latin1');
      return refuse(body, at, end);
    }
    written += part;
  }
  return body.subarray(start, start + written);
}

/** Not base64: null, unless [from, end) holds a byte JSON refuses in a string or that is not ASCII, whose fate the ordinary parser decides. */
function refuse(body: Buffer, from: number, end: number): null {
  for (let i = from; i < end; i++) if (body[i] < 0x20 || body[i] > 0x7f) throw new NotSimple();
  return null;
}
