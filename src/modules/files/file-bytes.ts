import { Readable } from 'node:stream';
import { PayloadTooLargeError } from '../../shared/errors.js';

/** The largest file, decoded, on every path (files/create, source descriptors, raw uploads): 50 MB. */
export const maxFileBytes = 50 * 1024 * 1024;

/** A JSON body carrying one file of at most 50 MB as base64 (4 characters per 3 bytes), plus its other members. */
export const base64FileBodyLimit = Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024;

/** Bytes file-type needs to recognise any format it knows. */
const sniffBytes = 4100;

/** What an octet stream is called when neither the client nor the bytes say more. */
export const unknownType = 'application/octet-stream';

/** The size base64 text decodes to, from its length alone; null when no base64 has that length. */
export function base64DecodedLength(text: string): number | null {
  let end = text.length;
  if (text.endsWith('==')) end -= 2;
  else if (text.endsWith('=')) end -= 1;
  // Padding, when present, completes the last group of four.
  if (end % 4 === 1 || (end < text.length && text.length % 4 !== 0)) return null;
  return Math.floor((end * 3) / 4);
}

/**
 * Strict base64 (the standard or the URL-safe alphabet, padding optional): anything else is
 * refused, not skipped. Node's decoder skips characters it does not know, so a decoded size
 * short of the one the length promises is exactly a text with such characters.
 */
export function decodeBase64(text: string): Buffer | null {
  const expected = base64DecodedLength(text);
  if (expected === null) return null;
  if (expected > maxFileBytes) throw new PayloadTooLargeError();
  const decoded = Buffer.from(text, 'base64');
  return decoded.length === expected ? decoded : null;
}

const dataUri = /^data:([^;,]*)((?:;[^;,]*)*),/;

/** `data:<mime>;base64,<data>` → its type and base64 text; null when the text is not a data URI. */
export function splitDataUri(text: string): { type: string | null; base64: string; isBase64: boolean } | null {
  const match = dataUri.exec(text.slice(0, 300));
  if (!match) return null;
  const parameters = match[2].split(';').filter(Boolean);
  return { type: match[1] === '' ? null : match[1], base64: text.slice(match[0].length), isBase64: parameters.includes('base64') };
}

const mimeType = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;\s*[a-z0-9_.-]+=("[^"]*"|[^;"\s]+))*$/i;

/** A MIME type a client gave, checked and trimmed; null when it is not one. */
export function checkMimeType(type: string): string | null {
  const trimmed = type.trim();
  return trimmed.length <= 255 && mimeType.test(trimmed) ? trimmed : null;
}

/** The type the bytes say they are (magic numbers), or the unknown type. */
export async function sniffType(head: Buffer): Promise<string> {
  // Loaded on first use, like the storage drivers and nodemailer: most processes never sniff a file.
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(head.subarray(0, sniffBytes)))?.mime ?? unknownType;
}

export function isImageType(type: string): boolean {
  return /^image\//i.test(type);
}

/**
 * The first bytes of a stream (for sniffing) and the whole stream again, counted: the body
 * fails with 413 as soon as it passes `maxBytes`, and `size()` tells how many bytes went
 * through once it ended. The stream is never held whole.
 */
export async function peekAndCount(source: Readable, maxBytes = maxFileBytes): Promise<{ head: Buffer; body: Readable; size: () => number }> {
  const chunks: Buffer[] = [];
  let headLength = 0;
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  while (headLength < sniffBytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    headLength += chunk.length;
    if (headLength > maxBytes) {
      source.destroy();
      throw new PayloadTooLargeError();
    }
  }
  let size = 0;
  const counted = async function* () {
    try {
      for (const chunk of chunks) {
        size += chunk.length;
        yield chunk;
      }
      while (!done) {
        const next = await iterator.next();
        if (next.done) break;
        const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
        size += chunk.length;
        if (size > maxBytes) throw new PayloadTooLargeError();
        yield chunk;
      }
    } finally {
      // Stopped early (a failed store, or too large): the source is let go.
      if (!done) await iterator.return?.();
    }
  };
  const body = Readable.from(counted(), { objectMode: false });
  return { head: Buffer.concat(chunks), body, size: () => size };
}
