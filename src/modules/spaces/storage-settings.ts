import net from 'node:net';
import { ValidationError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';

/**
 * A space's file storage: managed (the service's own), none, or customer-owned S3/FTP/SFTP.
 * Credentials are sealed with the secret box before they reach the database and never leave it.
 */
type SettingType = 'string' | 'port' | 'boolean' | 'host' | 'endpoint';
type Shape = Record<string, { type: SettingType; required?: boolean; secret?: boolean }>;

const shapes: Record<string, Shape> = {
  managed: {},
  none: {},
  s3: {
    endpoint: { type: 'endpoint' },
    region: { type: 'string', required: true },
    bucket: { type: 'string', required: true },
    prefix: { type: 'string' },
    access_key_id: { type: 'string', required: true, secret: true },
    secret_access_key: { type: 'string', required: true, secret: true },
  },
  ftp: {
    host: { type: 'host', required: true },
    port: { type: 'port' },
    user: { type: 'string', required: true },
    password: { type: 'string', secret: true },
    secure: { type: 'boolean' },
    folder: { type: 'string' },
  },
  sftp: {
    host: { type: 'host', required: true },
    port: { type: 'port' },
    username: { type: 'string', required: true },
    password: { type: 'string', secret: true },
    private_key: { type: 'string', secret: true },
    folder: { type: 'string' },
  },
};

export interface StoredStorage {
  kind: string;
  settings: Record<string, unknown>;
  /** Sealed JSON of the secret settings, or null. */
  sealed: string | null;
}

/** Checks a space's storage settings (400 naming the setting) and seals its credentials. */
export async function parseStorageSettings(raw: unknown, box: SecretBox): Promise<StoredStorage> {
  if (raw === undefined || raw === null) return { kind: 'managed', settings: {}, sealed: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('Invalid storage: must be an object');
  const { kind, ...rest } = raw as Record<string, unknown>;
  // Own keys only: `toString` or `constructor` must not resolve through the prototype.
  const shape = typeof kind === 'string' && Object.hasOwn(shapes, kind) ? shapes[kind] : undefined;
  if (!shape) throw new ValidationError('Invalid storage.kind: must be one of managed, none, s3, ftp, sftp');
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    const spec = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!spec) throw new ValidationError(`Invalid storage: unknown property "${key}" for kind ${kind}`);
    const problem = describeValueProblem(spec.type, value, spec.required === true);
    if (problem) throw new ValidationError(`Invalid storage.${key}: ${problem}`);
    (spec.secret ? secrets : settings)[key] = value;
  }
  for (const [key, spec] of Object.entries(shape)) {
    if (spec.required && rest[key] === undefined) throw new ValidationError(`Invalid storage: ${key} is required for kind ${kind}`);
  }
  if (kind === 'sftp' && secrets.password === undefined && secrets.private_key === undefined) {
    throw new ValidationError('Invalid storage: sftp needs password or private_key');
  }
  if (typeof secrets.private_key === 'string') await checkPrivateKey(secrets.private_key);
  const sealed = Object.keys(secrets).length > 0 ? box.seal(JSON.stringify(secrets)) : null;
  return { kind: kind as string, settings, sealed };
}

/**
 * An update's storage with the stored secrets it leaves out put back, when the kind stays the
 * same: the console never shows a secret, so an absent one means "keep it" (null drops it).
 */
export function keepStoredSecrets(raw: unknown, current: StoredStorage, box: SecretBox): unknown {
  if (!current.sealed || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const given = raw as Record<string, unknown>;
  if (given.kind !== current.kind) return raw;
  const stored = JSON.parse(box.open(current.sealed)) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...given };
  for (const [key, value] of Object.entries(stored)) if (merged[key] === undefined) merged[key] = value;
  for (const [key, value] of Object.entries(merged)) if (value === null && Object.hasOwn(stored, key)) delete merged[key];
  return merged;
}

/** A host name (RFC 1123 labels), an IPv4 address or an IPv6 one (bracketed or not): nothing else, so no scheme, port, path or credentials. */
const hostName = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

function isHost(value: string): boolean {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return net.isIP(bare) !== 0 || hostName.test(value);
}

/**
 * An S3 endpoint: an http(s) URL with a host and no credentials. Credentials in the URL would be
 * shown to every member by `space/<sid>/get` (the endpoint is not a secret) and sent to the server
 * beside the S3 signature; other schemes (`file:`, `ftp:`) are no S3 server at all.
 */
function isEndpoint(value: string): boolean {
  if (value === '') return true; // AWS itself, as if omitted
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
}

/**
 * An SFTP private key must be one ssh2 reads without a passphrase (there is no passphrase
 * setting): checked on save, so that a bad key fails here with 400 rather than at the first
 * upload. ssh2 is loaded only then, like the SFTP store itself.
 */
async function checkPrivateKey(text: string): Promise<void> {
  const { utils } = (await import('ssh2')).default;
  const parsed = utils.parseKey(text);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error || !key.isPrivateKey()) {
    throw new ValidationError('Invalid storage.private_key: must be an unencrypted private key in OpenSSH, PEM or PuTTY format');
  }
}

function describeValueProblem(type: SettingType, value: unknown, required: boolean): string | null {
  switch (type) {
    case 'host': {
      const problem = describeValueProblem('string', value, required);
      if (problem) return problem;
      return isHost(value as string) ? null : 'must be a host name or an IP address (no scheme, port, path or credentials; the port goes in port)';
    }
    case 'endpoint':
      if (typeof value !== 'string' || value.length > 10_000) return 'must be a string of at most 10000 characters';
      return isEndpoint(value) ? null : 'must be an http(s) URL without credentials';
    case 'port':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535 ? null : 'must be an integer from 1 to 65535';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'string':
      if (typeof value !== 'string' || value.length > 10_000) return 'must be a string of at most 10000 characters';
      return required && value.trim() === '' ? 'must not be empty' : null;
  }
}

export function serialiseStorage(storage: StoredStorage): string {
  return JSON.stringify(storage);
}

export function deserialiseStorage(json: string): StoredStorage {
  return JSON.parse(json) as StoredStorage;
}

/**
 * What the API shows: kind and settings, never credentials. An endpoint saved with credentials
 * in its URL (before they were refused on save) is shown without them.
 */
export function describeStorage(storage: StoredStorage): Record<string, unknown> {
  const shown: Record<string, unknown> = { kind: storage.kind, ...storage.settings };
  if (typeof shown.endpoint === 'string') shown.endpoint = withoutCredentials(shown.endpoint);
  return shown;
}

function withoutCredentials(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return endpoint;
  }
  if (url.username === '' && url.password === '') return endpoint;
  url.username = '';
  url.password = '';
  return url.href;
}
