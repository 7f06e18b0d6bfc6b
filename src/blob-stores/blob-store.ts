import type { Readable } from 'node:stream';

/**
 * Where file bytes live: the service's managed storage (disk or S3) or a space's own S3, FTP or
 * SFTP server. The one narrow interface every driver implements, and the contract every driver
 * passes (test/blob-stores/blob-store-contract.ts runs the same tests against each, on a real peer):
 *
 * - Keys are made by `blobKey` alone (never from user input): `<folder>/<id>`, lower-case
 *   letters, digits, `-` and `/`. A driver refuses any other key before touching its storage.
 * - `put` writes a new blob and never overwrites one: the key is fresh, and a driver that can
 *   tell refuses an existing key. A failed `put` leaves no blob, or one that `delete` removes.
 * - `get` streams the blob, or the inclusive byte range asked for; a missing blob fails with
 *   `BlobNotFoundError`, before the stream starts.
 * - `stat` answers the size, or null for a missing blob.
 * - `delete` removes the blob; a missing blob is not an error (sweeps run twice safely).
 * - `copy` makes an independent blob under a new key.
 * - Every failure of the storage itself (refused, timed out, credentials refused) reaches the
 *   caller as a `StorageError` naming the storage (`label`), never as the protocol's own error.
 */
export interface BlobStore {
  /** Names the storage in messages, without secrets: `managed disk storage`, `the space's S3 storage (bucket b)`. */
  readonly label: string;
  put(key: string, body: Buffer | Readable): Promise<void>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Releases connections or clients the driver holds. */
  close(): Promise<void>;
  /**
   * Managed disk storage only: removes the temporary files of stream writes that never finished
   * (a process killed mid-upload) and were last written before `olderThan`; answers how many.
   * The reclaim sweep calls it; a store without such leftovers leaves it out.
   */
  removeStalePartials?(olderThan: Date): Promise<number>;
}

/** Inclusive byte offsets, as HTTP ranges count them. */
export interface ByteRange {
  start: number;
  end: number;
}

const keyPattern = /^[a-z0-9]+(?:[a-z0-9-]*[a-z0-9])?\/[a-z0-9]{32}$/;

/**
 * The one function that makes blob keys: a folder of the service's own making (`s<space id>`)
 * and a fresh random id. The file's name is never part of the key.
 */
export function blobKey(folder: string, id: string): string {
  const key = `${folder}/${id}`;
  assertBlobKey(key);
  return key;
}

/** Drivers call this first: a key that `blobKey` could not have made is refused. */
export function assertBlobKey(key: string): void {
  if (!keyPattern.test(key)) throw new Error(`Refused blob key "${key}": not made by blobKey`);
}
