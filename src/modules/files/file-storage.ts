import dns from 'node:dns/promises';
import net from 'node:net';
import type { BlobStore } from '../../blob-stores/blob-store.js';
import { managedStoreSpec, openBlobStore, spaceStoreSpec, type BlobStoreSpec } from '../../blob-stores/open-blob-store.js';
import { StorageError, translateStorageError } from '../../blob-stores/storage-errors.js';
import type { Database } from '../../db/database.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { readSpaceStorage } from '../spaces/spaces.service.js';
import { isAllowedHost, isBlockedAddress, type AllowedHost } from './address-policy.js';
import type { StoredFileRow } from './files.repository.js';

/** Where a space's new files go: its blob store, whether the service manages it, and the attachments' `host`. */
export interface StorageTarget {
  store: BlobStore;
  kind: 'managed' | 'space';
  host: string;
}

const notConfigured = () => new ValidationError('File storage not configured', ErrorCode.storageNotConfigured);

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

/** The server a space's own storage connects to; null for AWS itself (an S3 space without an endpoint). */
function serverOf(spec: BlobStoreSpec): { host: string; port: number } | null {
  switch (spec.kind) {
    case 'disk':
      return null;
    case 's3': {
      if (spec.endpoint === undefined) return null;
      let url: URL;
      try {
        url = new URL(spec.endpoint);
      } catch {
        throw new StorageError(ErrorCode.storageFailed, `Storage failed: ${spec.label} has an endpoint that is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StorageError(ErrorCode.storageFailed, `Storage failed: ${spec.label} has an endpoint that is not http:// or https://`);
      return { host: url.hostname, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
    }
    case 'ftp':
      return { host: spec.host, port: spec.port ?? 21 };
    case 'sftp':
      return { host: spec.host, port: spec.port ?? 22 };
  }
}

/**
 * The address policy of URL source descriptors, applied to a space's own storage: whoever sets
 * a space's storage chooses where the server connects, so a host that is (or resolves to) a
 * loopback, private or otherwise internal address is refused unless TABULA_FETCH_ALLOW_HOSTS
 * lists it. Checked at every use, not once when saved, since a name can change what it
 * resolves to. Answers the address to connect to when the driver can be pinned to it (plain
 * FTP and SFTP: no TLS name to verify), so that the checked address is the connected one; S3
 * and FTPS resolve the name again in their driver (docs/decisions.md).
 */
async function checkServer(spec: BlobStoreSpec, allow: readonly AllowedHost[]): Promise<string | null> {
  const server = serverOf(spec);
  if (!server || isAllowedHost(server.host, server.port, allow)) return null;
  const label = 'label' in spec ? spec.label : 'storage';
  const bare = server.host.startsWith('[') && server.host.endsWith(']') ? server.host.slice(1, -1) : server.host;
  let addresses: string[];
  if (net.isIP(bare) !== 0) addresses = [bare];
  else {
    try {
      addresses = (await dns.lookup(bare, { all: true })).map((entry) => entry.address);
    } catch (error) {
      throw translateStorageError(error, label);
    }
  }
  if (addresses.length === 0 || addresses.some(isBlockedAddress)) {
    const shown = spec.kind === 's3' ? `${label} at ${server.host}` : label;
    throw new StorageError(ErrorCode.storageFailed, `Storage refused: ${shown} is a private or internal address; only the operator can allow it (TABULA_FETCH_ALLOW_HOSTS)`);
  }
  const pinnable = spec.kind === 'sftp' || (spec.kind === 'ftp' && spec.secure !== true);
  return pinnable ? addresses[0] : null;
}

/**
 * The blob stores: the managed one (TABULA_STORAGE_URL), opened once, and each space's own,
 * opened when first needed and kept while the space's settings stay the same (one per address
 * a pinned server was reached at).
 */
export function createFileStorage(deps: { database: Database; secretBox: SecretBox; storageUrl: string; filesHost: string; allowHosts: readonly AllowedHost[] }) {
  const managed = openBlobStore(managedStoreSpec(deps.storageUrl));
  const managedTarget: StorageTarget = { store: managed, kind: 'managed', host: deps.filesHost };
  const spaceStores = new Map<number, { version: string; targets: Map<string, StorageTarget> }>();

  /** The space's storage now, or null when it has none (`{"kind":"none"}`, or the space is gone). */
  async function forSpace(spaceId: number): Promise<StorageTarget | null> {
    const storage = await readSpaceStorage(deps.database.db, deps.secretBox, spaceId);
    if (!storage || storage.kind === 'none') return null;
    if (storage.kind === 'managed') return managedTarget;
    const spec = spaceStoreSpec(storage.kind, storage.settings, storage.secrets);
    const address = await checkServer(spec, deps.allowHosts);
    let known = spaceStores.get(spaceId);
    if (known?.version !== storage.version) {
      // Settings changed: the stores of the old ones go (an operation in flight on them fails).
      if (known) for (const old of known.targets.values()) void old.store.close();
      known = { version: storage.version, targets: new Map() };
      spaceStores.set(spaceId, known);
    }
    const existing = known.targets.get(address ?? '');
    if (existing) return existing;
    const pinned = address && (spec.kind === 'ftp' || spec.kind === 'sftp') ? { ...spec, host: address } : spec;
    const target: StorageTarget = { store: openBlobStore(pinned), kind: 'space', host: hostOfSpaceStorage(storage.settings) };
    known.targets.set(address ?? '', target);
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
    /**
     * The store holding a stored file: managed, or its space's own storage as configured now.
     * A file of a space's own storage is looked for where the space's settings point today: after
     * a move to managed storage (or none) it cannot be read (400); after a move to other settings
     * it is read there, and answers `storage_file_missing` if it is not there.
     */
    async holding(file: Pick<StoredFileRow, 'store' | 'space_id'>): Promise<BlobStore> {
      if (file.store === 'managed') return managed;
      const target = await forSpace(file.space_id);
      if (!target || target.kind !== 'space') throw new ValidationError("File storage not configured: the space's own storage, which holds this file, is no longer set up", ErrorCode.storageNotConfigured);
      return target.store;
    },
    async close(): Promise<void> {
      const spaceTargets = [...spaceStores.values()].flatMap((entry) => [...entry.targets.values()]);
      await Promise.allSettled([managed.close(), ...spaceTargets.map((target) => target.store.close())]);
    },
  };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
