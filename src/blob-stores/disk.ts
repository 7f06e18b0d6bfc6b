import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, type BlobStore, type ByteRange } from './blob-store.js';
import { BlobNotFoundError, translateStorageError } from './storage-errors.js';

/** The temporary name of a stream write: `<blob id>.<12 hex>.partial` (see writeNew). */
const partialName = /^[a-z0-9]{32}\.[0-9a-f]{12}\.partial$/;

/** A folder's entries as a stream; a folder that does not exist (yet) has none. */
async function openFolder(folder: string): Promise<Iterable<fs.Dirent> | AsyncIterable<fs.Dirent>> {
  try {
    return await fs.promises.opendir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** A whole Buffer is written 1 MiB at a time: one write(2) of 20 MB took about five times as long as 20 of 1 MiB (measured, docs/decisions.md). */
function* piecesOf(body: Buffer): Generator<Buffer> {
  const piece = 1024 * 1024;
  for (let at = 0; at < body.length; at += piece) yield body.subarray(at, Math.min(at + piece, body.length));
}

/**
 * Blobs as files under one root directory (the managed default, `<data>/files`). An existing
 * blob is never replaced: a whole Buffer is written to its key opened `wx` (which fails on an
 * existing name), a stream to a temporary name then linked to its key (link fails alike), so a
 * long upload is never seen half-written. A Buffer needs no such care: its key is fresh and
 * named nowhere until the write has returned (the ledger commits it afterwards), and a failed
 * write removes what it wrote. That keeps a files/create to open, write and close, as writing
 * the bytes directly would.
 */
export function createDiskStore(root: string): BlobStore {
  const base = path.resolve(root);
  const label = 'managed disk storage';

  /** The file of a key; anything resolving outside the root is refused, whatever the key. */
  function fileOf(key: string): string {
    assertBlobKey(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error(`Refused blob key "${key}": outside the storage root`);
    return file;
  }

  /** Folders known to exist: one per space, made once per process (and again if removed meanwhile). */
  const folders = new Set<string>();
  async function ensureFolder(file: string): Promise<void> {
    const folder = path.dirname(file);
    if (folders.has(folder)) return;
    await fs.promises.mkdir(folder, { recursive: true });
    folders.add(folder);
  }

  /** Runs a write, making the key's folder first when it is missing (the first write of a space, or a folder removed by hand). */
  async function inFolder<T>(file: string, write: () => Promise<T>): Promise<T> {
    await ensureFolder(file);
    try {
      return await write();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      folders.delete(path.dirname(file));
      await ensureFolder(file);
      return write();
    }
  }

  async function writeBuffer(key: string, body: Buffer): Promise<void> {
    const file = fileOf(key);
    const handle = await inFolder(file, () => fs.promises.open(file, 'wx', 0o600));
    try {
      for (const piece of piecesOf(body)) {
        for (let written = 0; written < piece.length; ) written += (await handle.write(piece, written)).bytesWritten;
      }
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.promises.rm(file, { force: true });
      throw error;
    }
  }

  async function writeNew(key: string, write: (temporary: string) => Promise<void>): Promise<void> {
    const file = fileOf(key);
    await ensureFolder(file);
    // Removed below whatever happens, unless the process dies first: then removeStalePartials does.
    const temporary = `${file}.${crypto.randomBytes(6).toString('hex')}.partial`;
    try {
      await write(temporary);
      await fs.promises.link(temporary, file);
    } finally {
      await fs.promises.rm(temporary, { force: true });
    }
  }

  const store: BlobStore = {
    label,
    async put(key, body) {
      // A refused key is the caller's bug, not a storage failure: thrown before `guard`.
      fileOf(key);
      if (Buffer.isBuffer(body)) return guard(() => writeBuffer(key, body));
      await guard(() => writeNew(key, (temporary) => pipeline(body, fs.createWriteStream(temporary, { flags: 'wx', mode: 0o600 }))));
    },
    async get(key, range?: ByteRange) {
      const file = fileOf(key);
      const handle = await guard(async () => {
        try {
          return await fs.promises.open(file, 'r');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(label, key);
          throw error;
        }
      });
      // Read in 1 MiB pieces: a 20 MB download then passes the answer's pipeline 20 times, not 320
      // (64 KiB, the default); the stream owns the handle and closes it when done or destroyed.
      return fs.createReadStream(file, { fd: handle, start: range?.start, end: range?.end, highWaterMark: 1024 * 1024 });
    },
    async stat(key) {
      const file = fileOf(key);
      return guard(async () => {
        try {
          return { size: (await fs.promises.stat(file)).size };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
          throw error;
        }
      });
    },
    async delete(key) {
      const file = fileOf(key);
      await guard(() => fs.promises.rm(file, { force: true }));
    },
    async copy(fromKey, toKey) {
      const from = fileOf(fromKey);
      fileOf(toKey);
      await guard(() =>
        writeNew(toKey, async (temporary) => {
          try {
            await fs.promises.copyFile(from, temporary, fs.constants.COPYFILE_EXCL);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(label, fromKey);
            throw error;
          }
        }),
      );
    },
    async close() {},
    async removeStalePartials(olderThan) {
      return guard(() => removePartialsBefore(base, olderThan.getTime()));
    },
  };

  /** One pass over the space folders, each read as a stream (a folder may hold millions of blobs). */
  async function removePartialsBefore(root: string, before: number): Promise<number> {
    let removed = 0;
    for await (const folder of await openFolder(root)) {
      if (!folder.isDirectory()) continue;
      for await (const entry of await openFolder(path.join(root, folder.name))) {
        if (!entry.isFile() || !partialName.test(entry.name)) continue;
        const file = path.join(root, folder.name, entry.name);
        const stat = await fs.promises.stat(file).catch(() => null);
        // Still written to (a slow upload keeps its mtime fresh), or gone meanwhile: left alone.
        if (!stat || stat.mtimeMs >= before) continue;
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  function guard<T>(run: () => Promise<T>): Promise<T> {
    return run().catch((error: unknown) => {
      throw translateStorageError(error, label);
    });
  }

  return store;
}
