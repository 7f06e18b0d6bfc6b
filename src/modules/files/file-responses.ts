import { Readable } from 'node:stream';
import type { ByteRange } from '../../blob-stores/blob-store.js';
import type { Attachment } from '../fields/attachment.js';
import { sanitiseFileName } from './attachment-path.js';

/**
 * files/get's answer, `{name, type, size, data}`, streamed: the bytes are read from storage
 * and turned into base64 as they come (three bytes at a time make four characters, so each
 * piece but the last keeps back what is not a whole group), never whole in memory.
 */
export function base64FileJson(attachment: Attachment, size: number, bytes: Readable): Readable {
  async function* pieces() {
    yield `{"name":${JSON.stringify(attachment.name)},"type":${JSON.stringify(attachment.type)},"size":${size},"data":"`;
    let carry: Buffer = Buffer.alloc(0);
    for await (const chunk of bytes) {
      const joined = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      const whole = joined.length - (joined.length % 3);
      if (whole > 0) yield joined.subarray(0, whole).toString('base64');
      carry = joined.subarray(whole);
    }
    yield `${carry.toString('base64')}"}`;
  }
  return Readable.from(pieces());
}

/**
 * The byte range a `Range` header asks of a file of `size` bytes: one `bytes=` range
 * (`a-b`, `a-`, `-n`). Undefined when there is no usable header (the whole file is sent, as
 * RFC 9110 allows for several ranges or another unit); `unsatisfiable` when it lies outside.
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
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** `Content-Disposition` naming the original file, for every client (RFC 6266: a plain fallback and the UTF-8 name). */
export function contentDisposition(name: string): string {
  return `attachment; filename="${sanitiseFileName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The file id in a path (`/<folder>/<id>-<name>`): blobs never change, so it is a strong ETag. */
export function etagOf(path: string): string {
  return `"${path.split('/')[2]?.slice(0, 32) ?? ''}"`;
}
