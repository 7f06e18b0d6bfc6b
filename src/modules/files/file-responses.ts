import { Readable } from 'node:stream';
import type { ByteRange } from '../../blob-stores/blob-store.js';
import type { Attachment } from '../fields/attachment.js';
import { sanitiseFileName } from './attachment-path.js';

/**
 * files/get's answer, `{name, type, size, data}`, streamed: the bytes are read from storage
 * and turned into base64 as they come (three bytes at a time make four characters, so each
 * piece but the last keeps back what is not a whole group), never whole in memory. Its
 * length is known beforehand (the JSON around the data, and 4 characters for every 3 bytes
 * begun), so the answer carries a Content-Length: a client can tell a cut answer from a whole one.
 */
/** Bytes turned into one base64 string at a time (a multiple of 3, so pieces join without padding). */
const base64Piece = 48 * 1024;

export function base64FileJson(attachment: Attachment, size: number, bytes: Readable): { length: number; body: Readable } {
  const head = `{"name":${JSON.stringify(attachment.name)},"type":${JSON.stringify(attachment.type)},"size":${size},"data":"`;
  async function* pieces() {
    yield head;
    // The 1 or 2 bytes of a group begun at the end of a chunk, completed by the next one.
    let carry = Buffer.alloc(0);
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      let at = 0;
      let completed = '';
      if (carry.length > 0) {
        at = Math.min(3 - carry.length, chunk.length);
        carry = Buffer.concat([carry, chunk.subarray(0, at)]);
        if (carry.length < 3) continue;
        completed = carry.toString('base64');
      }
      const whole = at + Math.floor((chunk.length - at) / 3) * 3;
      // At most 48 KiB of bytes per string: a store may read in megabytes, and strings that
      // large cost the garbage collector far more than many small ones.
      for (let from = at; from < whole; from = Math.min(from + base64Piece, whole)) {
        yield completed + chunk.toString('base64', from, Math.min(from + base64Piece, whole));
        completed = '';
      }
      if (completed !== '') yield completed;
      carry = Buffer.from(chunk.subarray(whole));
    }
    yield `${carry.toString('base64')}"}`;
  }
  return { length: Buffer.byteLength(head) + 4 * Math.ceil(size / 3) + 2, body: Readable.from(pieces()) };
}

/**
 * The byte range a `Range` header asks of a file of `size` bytes: one `bytes=` range
 * (`a-b`, `a-`, `-n`). Undefined when there is no usable header: none, several ranges,
 * another unit, or an invalid one such as `5-3` (RFC 9110 lets the whole file be sent then);
 * `unsatisfiable` when the range lies wholly outside the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/**
 * Whether an `If-None-Match` header names this ETag: `*`, or one of a comma-separated list,
 * compared weakly (a `W/` prefix does not matter), as RFC 9110 says for this header.
 */
export function matchesAny(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** `Content-Disposition` naming the original file, for every client (RFC 6266: a plain fallback and the UTF-8 name). */
export function contentDisposition(name: string): string {
  return `attachment; filename="${sanitiseFileName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The file id in a path (`/<folder>/<id>-<name>`): blobs never change, so it is a strong ETag. */
export function etagOf(path: string): string {
  return `"${path.split('/')[2]?.slice(0, 32) ?? ''}"`;
}
