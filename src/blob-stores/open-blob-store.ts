import type { BlobStore } from './blob-store.js';
import { createDiskStore } from './disk.js';
import type { FtpStoreOptions } from './ftp.js';
import type { S3StoreOptions } from './s3.js';
import type { SftpStoreOptions } from './sftp.js';

/** Everything needed to open a store, secrets included: built per use, never stored or logged. */
export type BlobStoreSpec =
  | { kind: 'disk'; root: string }
  | ({ kind: 's3' } & S3StoreOptions)
  | ({ kind: 'ftp' } & FtpStoreOptions)
  | ({ kind: 'sftp' } & SftpStoreOptions);

export function openBlobStore(spec: BlobStoreSpec): BlobStore {
  switch (spec.kind) {
    case 'disk':
      return createDiskStore(spec.root);
    case 's3':
      return lazyStore(spec.label, async () => (await import('./s3.js')).createS3Store(spec));
    case 'ftp':
      return lazyStore(spec.label, async () => (await import('./ftp.js')).createFtpStore(spec));
    case 'sftp':
      return lazyStore(spec.label, async () => (await import('./sftp.js')).createSftpStore(spec));
  }
}

/**
 * A network driver loaded on its first use: the S3 SDK and the FTP and SSH clients cost a
 * process about 35 MB of memory, which one that never uses them (most, on disk storage) should
 * not pay. The same object stands for the store throughout, so stores compare by identity.
 */
function lazyStore(label: string, load: () => Promise<BlobStore>): BlobStore {
  let loaded: Promise<BlobStore> | undefined;
  const store = () => (loaded ??= load());
  return {
    label,
    put: async (key, body) => (await store()).put(key, body),
    get: async (key, range) => (await store()).get(key, range),
    stat: async (key) => (await store()).stat(key),
    delete: async (key) => (await store()).delete(key),
    copy: async (fromKey, toKey) => (await store()).copy(fromKey, toKey),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}

const managedForms = 'file://DIR or s3://BUCKET/PREFIX?endpoint=URL&region=R';

/**
 * The managed storage from TABULA_STORAGE_URL. S3 credentials are not part of the URL: the SDK
 * takes them from the usual AWS variables, profiles or instance roles. Messages never repeat
 * the URL, which could hold a secret someone put there anyway.
 */
export function managedStoreSpec(storageUrl: string): BlobStoreSpec {
  if (storageUrl.startsWith('file://')) {
    // Not parsed as a URL: `file://data/files` is a relative directory, not a host `data`.
    const root = storageUrl.slice('file://'.length);
    if (root === '') throw new Error('TABULA_STORAGE_URL names no directory: use file://DIR');
    return { kind: 'disk', root };
  }
  if (storageUrl.startsWith('s3://')) return parseS3Url(storageUrl);
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(storageUrl)?.[0] ?? 'no scheme';
  throw new Error(`TABULA_STORAGE_URL must be ${managedForms}, got ${scheme}`);
}

function parseS3Url(storageUrl: string): BlobStoreSpec {
  let url: URL;
  try {
    url = new URL(storageUrl);
  } catch {
    throw new Error(`TABULA_STORAGE_URL is not a valid URL: use ${managedForms}`);
  }
  if (url.username || url.password) throw new Error('TABULA_STORAGE_URL must not hold credentials: S3 takes them from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = url.hostname;
  if (bucket === '' || url.port) throw new Error(`TABULA_STORAGE_URL names no bucket: use ${managedForms}`);
  const unknown = [...url.searchParams.keys()].filter((name) => name !== 'endpoint' && name !== 'region');
  if (unknown.length > 0) throw new Error(`TABULA_STORAGE_URL has unknown parameters (${unknown.join(', ')}): only endpoint and region`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error('TABULA_STORAGE_URL endpoint must be an http:// or https:// URL');
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    label: `managed S3 storage (bucket ${bucket})`,
    bucket,
    prefix: prefix || undefined,
    endpoint,
    region: url.searchParams.get('region') ?? undefined,
  };
}

/**
 * A space's own storage, from its settings and its unsealed secrets as `parseStorageSettings`
 * checked them (src/modules/spaces/storage-settings.ts).
 */
export function spaceStoreSpec(kind: string, settings: Record<string, unknown>, secrets: Record<string, unknown>): BlobStoreSpec {
  const text = (from: Record<string, unknown>, name: string) => (typeof from[name] === 'string' ? (from[name] as string) : undefined);
  const port = typeof settings.port === 'number' ? settings.port : undefined;
  switch (kind) {
    case 's3': {
      const bucket = text(settings, 'bucket') ?? '';
      return {
        kind: 's3',
        label: `the space's S3 storage (bucket ${bucket})`,
        bucket,
        prefix: text(settings, 'prefix'),
        endpoint: text(settings, 'endpoint') || undefined,
        region: text(settings, 'region'),
        credentials: { accessKeyId: text(secrets, 'access_key_id') ?? '', secretAccessKey: text(secrets, 'secret_access_key') ?? '' },
      };
    }
    case 'ftp': {
      const host = text(settings, 'host') ?? '';
      return {
        kind: 'ftp',
        label: `the space's FTP storage (${host})`,
        host,
        port,
        user: text(settings, 'user') ?? '',
        password: text(secrets, 'password'),
        secure: settings.secure === true,
        folder: text(settings, 'folder'),
      };
    }
    case 'sftp': {
      const host = text(settings, 'host') ?? '';
      return {
        kind: 'sftp',
        label: `the space's SFTP storage (${host})`,
        host,
        port,
        username: text(settings, 'username') ?? '',
        password: text(secrets, 'password'),
        privateKey: text(secrets, 'private_key'),
        folder: text(settings, 'folder'),
      };
    }
    default:
      throw new Error(`A space's storage of kind "${kind}" has no blob store of its own`);
  }
}
