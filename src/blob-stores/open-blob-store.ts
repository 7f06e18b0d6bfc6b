import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-store.js';
import { createDiskStore } from './disk.js';

/** Placeholder until the network drivers land: disk only. */
export type BlobStoreSpec = { kind: 'disk'; root: string; label?: string } | { kind: 's3' | 'ftp' | 'sftp'; label: string; [key: string]: unknown };

export function openBlobStore(spec: BlobStoreSpec): BlobStore {
  if (spec.kind === 'disk') return createDiskStore(spec.root as string);
  throw new Error(`${spec.kind} storage is not available yet`);
}

export function managedStoreSpec(storageUrl: string): BlobStoreSpec {
  if (storageUrl.startsWith('file://')) return { kind: 'disk', root: fileURLToPath(storageUrl) };
  throw new Error(`TABULA_STORAGE_URL must be file://DIR or s3://BUCKET/PREFIX, got "${storageUrl}"`);
}

export function spaceStoreSpec(kind: string, settings: Record<string, unknown>, secrets: Record<string, unknown>): BlobStoreSpec {
  return { kind: kind as 's3', label: `the space's ${kind.toUpperCase()} storage`, ...settings, ...secrets };
}
