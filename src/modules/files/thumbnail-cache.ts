import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { thumbnailSizes, type ThumbnailSize } from './thumbnail-render.js';

/**
 * How thumbnails are made now (WebP, quality 80): part of every cached name and ETag, so that
 * changing the recipe makes new thumbnails instead of serving the old ones.
 */
export const thumbnailRecipe = 'w1';
/** A hit refreshes its entry's time at most this often: the eviction's "least recently used" is to the hour. */
const touchAfterMs = 3600 * 1000;
/** Eviction brings the cache down to this share of its bound, so that it does not run on every write. */
const evictTo = 0.8;

export interface ThumbnailCache {
  /** The cached thumbnail, or null. */
  read(fileId: string, size: ThumbnailSize): Promise<Buffer | null>;
  /** Stores a thumbnail (written whole, then renamed: a reader never sees half of one). */
  write(fileId: string, size: ThumbnailSize, bytes: Buffer): Promise<void>;
  /** Removes every thumbnail of a file (the reclaim sweep, when the file itself goes). */
  removeFile(fileId: string): Promise<void>;
}

/**
 * Thumbnails on the local disk, under `<data dir>/thumbnails/<2 hex>/<file id>-<size>-<recipe>.webp`.
 * Keyed by the stored file's id: ids are unique and a stored file's bytes never change (a copy
 * or a new upload gets a new id), so an entry is never stale and needs no content hash.
 *
 * Bounded by size, least recently used first out: the bytes written are counted from a scan of
 * the folder at the first write; past `maxBytes` the folder is scanned again and the oldest
 * entries go until it is at 80 % of the bound. Several processes sharing the data directory
 * each count their own writes, so the folder may pass the bound by what the others wrote since
 * their last scan, until one of them scans. Eviction runs in the background; a failure is
 * logged and tried again at the next write past the bound.
 */
export function createThumbnailCache(deps: { directory: string; maxBytes: number; log?: (level: 'info' | 'warn', message: string) => void }): ThumbnailCache {
  const { directory, maxBytes } = deps;
  /** Bytes in the folder as this process knows them; null until the first scan. */
  let knownBytes: number | null = null;
  /** Bytes this process has written, ever: what was written during a scan is counted after it. */
  let written = 0;
  let sweeping: Promise<void> | null = null;

  const fileOf = (fileId: string, size: ThumbnailSize) => path.join(directory, fileId.slice(0, 2), `${fileId}-${size}-${thumbnailRecipe}.webp`);

  /** Every entry with its size and time; the folder's total. */
  async function scan(): Promise<{ entries: Array<{ file: string; bytes: number; time: number }>; total: number }> {
    const entries: Array<{ file: string; bytes: number; time: number }> = [];
    let shards: string[];
    try {
      shards = await fs.readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries, total: 0 };
      throw error;
    }
    for (const shard of shards) {
      for (const name of await fs.readdir(path.join(directory, shard)).catch(() => [] as string[])) {
        const file = path.join(directory, shard, name);
        const stat = await fs.stat(file).catch(() => null);
        if (stat?.isFile()) entries.push({ file, bytes: stat.size, time: stat.mtimeMs });
      }
    }
    return { entries, total: entries.reduce((sum, entry) => sum + entry.bytes, 0) };
  }

  /** Counts the folder; past the bound, removes the least recently used entries down to 80 % of it. */
  async function sweep(): Promise<void> {
    const writtenBefore = written;
    const { entries, total } = await scan();
    let remaining = total;
    if (total > maxBytes) {
      entries.sort((a, b) => a.time - b.time);
      for (const entry of entries) {
        if (remaining <= maxBytes * evictTo) break;
        await fs.rm(entry.file, { force: true });
        remaining -= entry.bytes;
      }
    }
    // Writes made during the scan may or may not be in it: counted again (an overestimate, which only brings the next sweep sooner).
    knownBytes = remaining + (written - writtenBefore);
  }

  function counted(bytes: number): void {
    written += bytes;
    if (knownBytes !== null) knownBytes += bytes;
    if ((knownBytes === null || knownBytes > maxBytes) && !sweeping) {
      sweeping = sweep()
        .then(
          () => {
            sweeping = null;
            // Written past the bound while it swept: once more.
            counted(0);
          },
          (error: unknown) => {
            sweeping = null;
            deps.log?.('warn', `Thumbnail cache: eviction in ${directory} failed: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
    }
  }

  return {
    async read(fileId, size) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(fileOf(fileId, size), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      try {
        const [bytes, stat] = await Promise.all([handle.readFile(), handle.stat()]);
        const now = Date.now();
        if (now - stat.mtimeMs > touchAfterMs) await handle.utimes(now / 1000, now / 1000);
        return bytes;
      } finally {
        await handle.close();
      }
    },

    async write(fileId, size, bytes) {
      const file = fileOf(fileId, size);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${crypto.randomBytes(6).toString('hex')}.partial`;
      try {
        await fs.writeFile(partial, bytes);
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      counted(bytes.length);
    },

    async removeFile(fileId) {
      await Promise.all(thumbnailSizes.map((size) => fs.rm(fileOf(fileId, size), { force: true })));
    },
  };
}
