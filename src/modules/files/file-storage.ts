import type { BlobStore } from '../../blob-stores/blob-store.js';
import { managedStoreSpec, openBlobStore, spaceStoreSpec } from '../../blob-stores/open-blob-store.js';
import type { Database } from '../../db/database.js';
import { ValidationError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { readSpaceStorage } from '../spaces/spaces.service.js';
import type { StoredFileRow } from './files.repository.js';

/** Where a space's new files go: its blob store, whether the service manages it, and the attachments' `host`. */
export interface StorageTarget {
  store: BlobStore;
  kind: 'managed' | 'space';
  host: string;
}

const notConfigured = () => new ValidationError('File storage not configured');

/** The `host` of a space's own storage: its server, or its S3 endpoint's host. */
function hostOfSpaceStorage(settings: Record<string, unknown>): string {
  if (typeof settings.host === 'string') return settings.host;
  if (typeof settings.endpoint === 'string') {
    try {
      return new URL(settings.endpoint).host;
    } catch {
      return settings.endpoint;
    }
  }
  return `${String(settings.bucket)}.s3.${String(settings.region)}.amazonaws.com`;
}

/**
 * The blob stores: the managed one (TABULA_STORAGE_URL), opened once, and each space's own,
 * opened when first needed and kept while the space's settings stay the same.
 */
export function createFileStorage(deps: { database: Database; secretBox: SecretBox; storageUrl: string; filesHost: string }) {
  const managed = openBlobStore(managedStoreSpec(deps.storageUrl));
  const managedTarget: StorageTarget = { store: managed, kind: 'managed', host: deps.filesHost };
  const spaceStores = new Map<number, { version: string; target: StorageTarget }>();

  /** The space's storage now, or null when it has none (`{"kind":"none"}`, or the space is gone). */
  async function forSpace(spaceId: number): Promise<StorageTarget | null> {
    const storage = await readSpaceStorage(deps.database.db, deps.secretBox, spaceId);
    if (!storage || storage.kind === 'none') return null;
    if (storage.kind === 'managed') return managedTarget;
    const known = spaceStores.get(spaceId);
    if (known?.version === storage.version) return known.target;
    if (known) void known.target.store.close();
    const target: StorageTarget = { store: openBlobStore(spaceStoreSpec(storage.kind, storage.settings, storage.secrets)), kind: 'space', host: hostOfSpaceStorage(storage.settings) };
    spaceStores.set(spaceId, { version: storage.version, target });
    return target;
  }

  return {
    managed,
    forSpace,
    /** The space's storage for new files: 400 `File storage not configured` when it has none. */
    async requireForSpace(spaceId: number): Promise<StorageTarget> {
      const target = await forSpace(spaceId);
      if (!target) throw notConfigured();
      return target;
    },
    /** The store holding a stored file: managed, or its space's own storage as configured now. */
    async holding(file: Pick<StoredFileRow, 'store' | 'space_id'>): Promise<BlobStore> {
      if (file.store === 'managed') return managed;
      const target = await forSpace(file.space_id);
      if (!target || target.kind !== 'space') throw new ValidationError("File storage not configured: the space's own storage, which holds this file, is no longer set up");
      return target.store;
    },
    async close(): Promise<void> {
      await Promise.allSettled([managed.close(), ...[...spaceStores.values()].map((entry) => entry.target.store.close())]);
    },
  };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
