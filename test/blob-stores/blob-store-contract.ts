import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKey, type BlobStore } from '../../src/blob-stores/blob-store.js';
import { BlobNotFoundError, StorageError } from '../../src/blob-stores/storage-errors.js';
import { ErrorCode } from '../../src/shared/errors.js';

/**
 * The contract of `BlobStore` (its doc comment in src/blob-stores/blob-store.ts), as tests that
 * every driver passes against a real peer. `makeStore` runs once, after the peers are up.
 */
export function describeBlobStoreContract(name: string, makeStore: () => BlobStore | Promise<BlobStore>): void {
  describe(`${name}: the blob store contract`, () => {
    let store: BlobStore;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('puts a buffer and gets it back whole', async () => {
      const key = freshKey();
      await store.put(key, Buffer.from('hello blob world'));
      expect((await readAll(await store.get(key))).toString()).toBe('hello blob world');
    });

    it('puts a stream of 12 MB made on the fly and gets the same bytes back', async () => {
      const key = freshKey();
      await store.put(key, patternStream(bigSize));
      expect(await store.stat(key)).toEqual({ size: bigSize });
      const hash = crypto.createHash('sha256');
      for await (const chunk of await store.get(key)) hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(patternHash(bigSize));
    });

    it('gets an inclusive byte range: inside a small blob, across 8 MiB, up to the last byte', async () => {
      const small = freshKey();
      await store.put(small, Buffer.from('hello blob world'));
      expect((await readAll(await store.get(small, { start: 6, end: 9 }))).toString()).toBe('blob');

      const big = freshKey();
      await store.put(big, patternStream(bigSize));
      const across = { start: 8 * mebibyte - 5, end: 8 * mebibyte + 4 };
      expect(await readAll(await store.get(big, across))).toEqual(patternBytes(across.start, 10));
      const last = { start: bigSize - 3, end: bigSize - 1 };
      expect(await readAll(await store.get(big, last))).toEqual(patternBytes(last.start, 3));
    });

    it('stats a blob with its size, and a missing one as null', async () => {
      const key = freshKey();
      await store.put(key, Buffer.alloc(1234, 7));
      expect(await store.stat(key)).toEqual({ size: 1234 });
      expect(await store.stat(freshKey())).toBeNull();
    });

    it('fails to get a missing blob with BlobNotFoundError (storage_file_missing), before any stream', async () => {
      const failure = await store.get(freshKey()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BlobNotFoundError);
      expect(failure).toMatchObject({ code: ErrorCode.storageFileMissing });
      expect((failure as Error).message).toContain(store.label);
    });

    it('deletes a blob, and deleting it again is no error', async () => {
      const key = freshKey();
      await store.put(key, Buffer.from('short-lived'));
      await store.delete(key);
      await store.delete(key);
      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('copies into an independent blob that outlives the original', async () => {
      const original = freshKey();
      const copy = freshKey();
      await store.put(original, Buffer.from('copied content'));
      await store.copy(original, copy);
      await store.delete(original);
      expect((await readAll(await store.get(copy))).toString()).toBe('copied content');
      expect(await store.stat(copy)).toEqual({ size: 14 });
    });

    it('fails to copy a missing blob with BlobNotFoundError', async () => {
      await expect(store.copy(freshKey(), freshKey())).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('refuses to put or copy onto an existing key and keeps the first blob', async () => {
      const key = freshKey();
      const other = freshKey();
      await store.put(key, Buffer.from('first'));
      await store.put(other, Buffer.from('other'));
      await expect(store.put(key, Buffer.from('second'))).rejects.toBeInstanceOf(StorageError);
      await expect(store.put(key, Readable.from([Buffer.from('third')]))).rejects.toBeInstanceOf(StorageError);
      await expect(store.copy(other, key)).rejects.toBeInstanceOf(StorageError);
      expect((await readAll(await store.get(key))).toString()).toBe('first');
    });

    it('leaves no blob when the body fails halfway (past the first 8 MiB part)', async () => {
      const key = freshKey();
      const failing = Readable.from(
        (async function* () {
          yield* patternStream(9 * mebibyte);
          throw new Error('the sender went away');
        })(),
      );
      await expect(store.put(key, failing)).rejects.toThrow();
      expect(await store.stat(key)).toBeNull();
    });

    it('refuses keys blobKey could not have made, with a plain error before any I/O', async () => {
      const good = freshKey();
      for (const bad of refusedKeys) {
        const attempts = [store.put(bad, Buffer.from('x')), store.get(bad), store.stat(bad), store.delete(bad), store.copy(bad, good), store.copy(good, bad)];
        for (const attempt of attempts) {
          const failure = await attempt.catch((error: unknown) => error);
          expect(failure, bad).toBeInstanceOf(Error);
          expect(failure, bad).not.toBeInstanceOf(StorageError);
          expect((failure as Error).message, bad).toMatch(/Refused blob key/);
        }
      }
    });
  });
}

export const refusedKeys = ['../x', 'a/../../b', '/etc/passwd', `s1/${'A'.repeat(32)}`, `S1/${'a'.repeat(32)}`, '', 's1', `s1/${'a'.repeat(32)}/x`, `s1/../${'a'.repeat(32)}`];

export function freshKey(): string {
  return blobKey('s1', crypto.randomBytes(16).toString('hex'));
}

export async function readAll(stream: Readable): Promise<Buffer> {
  return Buffer.concat((await stream.toArray()) as Buffer[]);
}

const mebibyte = 1024 * 1024;
const bigSize = 12 * mebibyte + 12_345;
const chunkBytes = 64 * 1024;

/** Byte `position` of the test pattern: depends on every part of the position, so a misplaced or repeated chunk shows. */
function patternBytes(start: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index += 1) {
    const position = start + index;
    bytes[index] = (position ^ (position >>> 8) ^ (position >>> 16) ^ (position >>> 24)) & 0xff;
  }
  return bytes;
}

/** The pattern's first `size` bytes, made chunk by chunk as they are read (never whole in memory). */
function patternStream(size: number): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < size; start += chunkBytes) yield patternBytes(start, Math.min(chunkBytes, size - start));
    })(),
  );
}

const hashes = new Map<number, string>();
function patternHash(size: number): string {
  if (!hashes.has(size)) {
    const hash = crypto.createHash('sha256');
    for (let start = 0; start < size; start += chunkBytes) hash.update(patternBytes(start, Math.min(chunkBytes, size - start)));
    hashes.set(size, hash.digest('hex'));
  }
  return hashes.get(size)!;
}
