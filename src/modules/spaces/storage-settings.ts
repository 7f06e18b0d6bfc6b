import { ValidationError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';

/**
 * A space's file storage: managed (the service's own), none, or customer-owned S3/FTP/SFTP.
 * Credentials are sealed with the secret box before they reach the database and never leave it.
 */
type SettingType = 'string' | 'port' | 'boolean';
type Shape = Record<string, { type: SettingType; required?: boolean; secret?: boolean }>;

const shapes: Record<string, Shape> = {
  managed: {},
  none: {},
  s3: {
    endpoint: { type: 'string' },
    region: { type: 'string', required: true },
    bucket: { type: 'string', required: true },
    prefix: { type: 'string' },
    access_key_id: { type: 'string', required: true, secret: true },
    secret_access_key: { type: 'string', required: true, secret: true },
  },
  ftp: {
    host: { type: 'string', required: true },
    port: { type: 'port' },
    user: { type: 'string', required: true },
    password: { type: 'string', secret: true },
    secure: { type: 'boolean' },
    folder: { type: 'string' },
  },
  sftp: {
    host: { type: 'string', required: true },
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

export function parseStorageSettings(raw: unknown, box: SecretBox): StoredStorage {
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
  const sealed = Object.keys(secrets).length > 0 ? box.seal(JSON.stringify(secrets)) : null;
  return { kind: kind as string, settings, sealed };
}

function describeValueProblem(type: SettingType, value: unknown, required: boolean): string | null {
  switch (type) {
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

/** What the API shows: kind and settings, never credentials. */
export function describeStorage(storage: StoredStorage): Record<string, unknown> {
  return { kind: storage.kind, ...storage.settings };
}
