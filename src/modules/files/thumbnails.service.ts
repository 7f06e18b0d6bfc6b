import type { Readable } from 'node:stream';
import { QueryGate } from '../../db/query-gate.js';
import { invalidParameters } from '../../shared/body-checks.js';
import { ThumbnailQueueTimeoutError } from '../../shared/errors.js';
import { queryCallerOf, type Actor } from '../auth/actor.js';
import type { Attachment } from '../fields/attachment.js';
import { isImageType, maxFileBytes } from './file-bytes.js';
import { fileRefOf, type FilesService, type LocatedFile } from './files.service.js';
import { thumbnailRecipe, type ThumbnailCache } from './thumbnail-cache.js';
import { renderThumbnail, thumbnailSizes, thumbnailUnavailable, type ThumbnailSize } from './thumbnail-render.js';

/**
 * Thumbnails made at once by this process: each holds one of libuv's 4 pool threads while
 * libvips works (and the file's bytes in memory), so two leave the pool's other threads to
 * file reads and DNS. One account makes one at a time: another account's thumbnail always
 * finds a slot (the record queries' gate, db/query-gate.ts).
 */
const thumbnailSlots = 2;
const thumbnailShare = 1;
/** A thumbnail waits this long at most for its slot, then 503 `thumbnail_queue_timeout` (Retry-After: 1). */
const thumbnailQueueTimeoutMs = 30_000;

/** A thumbnail the caller may see: its ETag at once, its bytes when asked (a 304 never needs them). */
export interface Thumbnail {
  attachment: Attachment;
  etag: string;
  bytes(): Promise<Buffer>;
}

/**
 * `files/thumbnail`: a small WebP of an image attachment. The access checks are files/download's
 * own (`locateFile`); the bytes come from the thumbnail cache, or are made from the blob, read
 * through the store that holds it (managed disk or S3, a space's S3, FTP or SFTP), and cached.
 */
export function createThumbnailsService(deps: { files: FilesService; cache: ThumbnailCache; log?: (level: 'info' | 'warn', message: string) => void }) {
  const gate = new QueryGate(thumbnailShare, thumbnailSlots, thumbnailQueueTimeoutMs, { timeoutError: (ms) => new ThumbnailQueueTimeoutError(ms), metered: false });
  /** Thumbnails being made, by file and size: a second request for one waits for the first instead of making it again. */
  const making = new Map<string, Promise<Buffer>>();

  async function make(actor: Actor, file: LocatedFile, size: ThumbnailSize): Promise<Buffer> {
    const cached = await deps.cache.read(file.fileId, size);
    if (cached) return cached;
    const made = await gate.run(queryCallerOf(actor), async () => renderThumbnail(await readWhole(await file.store.get(file.blobKey), file.attachment.name), size, file.attachment.name));
    try {
      await deps.cache.write(file.fileId, size, made);
    } catch (error) {
      // The thumbnail is still good: it is answered, and made again next time.
      deps.log?.('warn', `Thumbnail cache: could not store a thumbnail of ${file.attachment.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return made;
  }

  return {
    /** The thumbnail of `{field_id, path, size}`: 400 for another size, for a file that is not an image, or one too large. */
    async thumbnail(actor: Actor, tableId: number, recordId: number, query: Record<string, unknown>): Promise<Thumbnail> {
      const ref = fileRefOf(query, ['size']);
      const size = sizeOf(query.size);
      const file = await deps.files.locateFile(actor, tableId, recordId, ref);
      const { attachment } = file;
      if (!isImageType(attachment.type)) throw thumbnailUnavailable(attachment.name, `is not an image (${attachment.type})`);
      return {
        attachment,
        etag: `"${file.fileId}-${size}-${thumbnailRecipe}"`,
        bytes() {
          const key = `${file.fileId}-${size}`;
          let pending = making.get(key);
          if (!pending) {
            pending = make(actor, file, size).finally(() => making.delete(key));
            making.set(key, pending);
          }
          return pending;
        },
      };
    },
  };
}

export type ThumbnailsService = ReturnType<typeof createThumbnailsService>;

/** `size` of the query: one of the sizes made, else 400 naming them. */
function sizeOf(raw: unknown): ThumbnailSize {
  const allowed = `size must be one of ${thumbnailSizes.join(', ')}`;
  if (raw === undefined || raw === null || raw === '') throw invalidParameters(`size is required (${allowed})`);
  const size = thumbnailSizes.find((candidate) => String(candidate) === String(raw));
  if (size === undefined) throw invalidParameters(allowed);
  return size;
}

/** A blob's bytes, whole: libvips needs them all. A blob past the largest file (changed behind the service's back) is refused unread. */
async function readWhole(stream: Readable, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxFileBytes) {
      stream.destroy();
      throw thumbnailUnavailable(name, `is larger than ${maxFileBytes / 1024 / 1024} MB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}
