import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKey, type BlobStore } from '../../src/blob-stores/blob-store.js';
import { createDiskStore } from '../../src/blob-stores/disk.js';
import { managedStoreSpec, openBlobStore, spaceStoreSpec, type BlobStoreSpec } from '../../src/blob-stores/open-blob-store.js';
import { StorageError } from '../../src/blob-stores/storage-errors.js';
import { ErrorCode } from '../../src/shared/errors.js';
import { describeBlobStoreContract, freshKey, refusedKeys } from './blob-store-contract.js';
import { findClosedPort, makeTemporaryDirectory, startFtpPeer, startS3Peer, startSftpPeer, type FtpPeer, type S3Peer, type SftpPeer } from './peers.js';

let diskRoot: string;
let s3: S3Peer;
let ftp: FtpPeer;
let sftp: SftpPeer;
let sftpRoot: string;
let closedPort: number;

beforeAll(async () => {
  diskRoot = makeTemporaryDirectory('disk');
  sftpRoot = makeTemporaryDirectory('sftp');
  [s3, ftp, sftp, closedPort] = await Promise.all([startS3Peer(), startFtpPeer(), startSftpPeer(sftpRoot), findClosedPort()]);
});

afterAll(async () => {
  await Promise.all([s3?.close(), ftp?.close(), sftp?.close()]);
  for (const directory of [diskRoot, sftpRoot]) if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

/** Specs of the peers as a space would configure them, through the same mapping as production. */
const spaces = {
  // s3rver knows one key pair and does not check version 4 signatures, so a refused login
  // needs an unknown access key id (AWS answers InvalidAccessKeyId for it too).
  s3: (secret?: string, port?: number) =>
    spaceStoreSpec(
      's3',
      { endpoint: port ? `http://127.0.0.1:${port}` : s3.endpoint, region: 'us-east-1', bucket: s3.bucket, prefix: 'space-prefix/' },
      secret ? { access_key_id: 'UNKNOWNKEYID', secret_access_key: secret } : { access_key_id: s3.credentials.accessKeyId, secret_access_key: s3.credentials.secretAccessKey },
    ),
  ftp: (password = ftp.password, port = ftp.port) => spaceStoreSpec('ftp', { host: '127.0.0.1', port, user: ftp.user, folder: 'tabula/files' }, { password }),
  sftp: (password = sftp.password, port = sftp.port) => spaceStoreSpec('sftp', { host: '127.0.0.1', port, username: sftp.username, folder: 'tabula/files' }, { password }),
};

describeBlobStoreContract('disk', () => createDiskStore(diskRoot));
describeBlobStoreContract('s3', () => openBlobStore(spaces.s3()));
describeBlobStoreContract('ftp', () => openBlobStore(spaces.ftp()));
describeBlobStoreContract('sftp', () => openBlobStore(spaces.sftp()));
describeBlobStoreContract('sftp with a private key', () =>
  openBlobStore(spaceStoreSpec('sftp', { host: '127.0.0.1', port: sftp.port, username: sftp.username, folder: '/keyed' }, { private_key: sftp.privateKey })),
);

describe.each([
  { kind: 's3', wrongCredentials: () => spaces.s3('wrong-secret-7f3a9c'), unreachable: () => spaces.s3(undefined, closedPort), secret: 'wrong-secret-7f3a9c' },
  { kind: 'ftp', wrongCredentials: () => spaces.ftp('wrong-secret-7f3a9c'), unreachable: () => spaces.ftp(undefined, closedPort), secret: 'wrong-secret-7f3a9c' },
  { kind: 'sftp', wrongCredentials: () => spaces.sftp('wrong-secret-7f3a9c'), unreachable: () => spaces.sftp(undefined, closedPort), secret: 'wrong-secret-7f3a9c' },
] as { kind: string; wrongCredentials: () => BlobStoreSpec; unreachable: () => BlobStoreSpec; secret: string }[])(
  '$kind: failures of the storage itself',
  ({ wrongCredentials, unreachable, secret }) => {
    async function failureOf(spec: BlobStoreSpec, run: (store: BlobStore) => Promise<unknown>): Promise<unknown> {
      const store = openBlobStore(spec);
      try {
        return await run(store).then(
          () => new Error('expected a failure'),
          (error: unknown) => error,
        );
      } finally {
        await store.close();
      }
    }

    it('refused credentials: storage_credentials_refused, naming the storage but not the password', async () => {
      const spec = wrongCredentials();
      for (const run of [(store: BlobStore) => store.put(freshKey(), Buffer.from('x')), (store: BlobStore) => store.stat(freshKey())]) {
        const failure = await failureOf(spec, run);
        expect(failure).toBeInstanceOf(StorageError);
        expect(failure).toMatchObject({ code: ErrorCode.storageCredentialsRefused });
        const { message } = failure as Error;
        expect(message).toContain((spec as { label: string }).label);
        expect(message).not.toContain(secret);
      }
    });

    it('a closed loopback port: storage_unavailable', async () => {
      const failure = await failureOf(unreachable(), (store) => store.get(freshKey()));
      expect(failure).toBeInstanceOf(StorageError);
      expect(failure).toMatchObject({ code: ErrorCode.storageUnavailable });
    });

    it('refuses a bad key without connecting (the refusal, not storage_unavailable, on a closed port)', async () => {
      const store = openBlobStore(unreachable());
      try {
        for (const bad of refusedKeys) await expect(store.stat(bad), bad).rejects.toThrow(/Refused blob key/);
      } finally {
        await store.close();
      }
    });
  },
);

describe('where the drivers put the blobs', () => {
  it('s3: as <prefix>/<key>', async () => {
    const key = freshKey();
    const store = openBlobStore(spaces.s3());
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials });
    try {
      await store.put(key, Buffer.from('prefixed'));
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `space-prefix/${key}` }));
      expect(head.ContentLength).toBe(8);
    } finally {
      client.destroy();
      await store.close();
    }
  });

  it.each(['ftp', 'sftp'] as const)('%s: as <folder>/<key> from the login directory, with no temporary file left after a failed put', async (kind) => {
    const root = kind === 'ftp' ? ftp.root : sftpRoot;
    const store = openBlobStore(spaces[kind]());
    const key = blobKey('s2', crypto.randomBytes(16).toString('hex'));
    try {
      await store.put(key, Buffer.from('in its folder'));
      const failing = Readable.from(
        (async function* () {
          yield Buffer.alloc(100_000);
          throw new Error('the sender went away');
        })(),
      );
      await expect(store.put(blobKey('s2', crypto.randomBytes(16).toString('hex')), failing)).rejects.toThrow();
      expect(fs.readdirSync(path.join(root, 'tabula/files/s2'))).toEqual([key.slice(3)]);
    } finally {
      await store.close();
    }
  });
});

describe('managedStoreSpec: TABULA_STORAGE_URL', () => {
  it('file://DIR is the disk store over DIR', () => {
    expect(managedStoreSpec('file:///var/lib/tabula/files')).toEqual({ kind: 'disk', root: '/var/lib/tabula/files' });
    expect(managedStoreSpec('file://data/files')).toEqual({ kind: 'disk', root: 'data/files' });
  });

  it('s3://BUCKET/PREFIX?endpoint=URL&region=R is S3, credentials left to the SDK', () => {
    expect(managedStoreSpec('s3://tabula-files/prod/blobs/?endpoint=http://127.0.0.1:9000&region=eu-central-1')).toEqual({
      kind: 's3',
      label: 'managed S3 storage (bucket tabula-files)',
      bucket: 'tabula-files',
      prefix: 'prod/blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
    });
    expect(managedStoreSpec('s3://tabula-files')).toEqual({ kind: 's3', label: 'managed S3 storage (bucket tabula-files)', bucket: 'tabula-files', prefix: undefined, endpoint: undefined, region: undefined });
  });

  it.each([
    ['http://example.com/files', /TABULA_STORAGE_URL must be file:\/\/DIR or s3:\/\/BUCKET/],
    ['/var/lib/tabula/files', /TABULA_STORAGE_URL must be .*got no scheme/],
    ['file://', /TABULA_STORAGE_URL names no directory/],
    ['s3:///prefix', /TABULA_STORAGE_URL names no bucket/],
    ['s3://bucket/p?endpoint=ftp://host', /endpoint must be an http/],
    ['s3://bucket/p?regoin=eu', /unknown parameters \(regoin\)/],
  ])('refuses %s with an error naming TABULA_STORAGE_URL', (url, message) => {
    expect(() => managedStoreSpec(url)).toThrow(message);
  });

  it('refuses credentials in the URL without repeating them', () => {
    expect(() => managedStoreSpec('s3://AKIAKEY:very-secret@bucket/p')).toThrow(/must not hold credentials/);
    try {
      managedStoreSpec('s3://AKIAKEY:very-secret@bucket/p');
    } catch (error) {
      expect((error as Error).message).not.toContain('very-secret');
    }
  });
});

describe('spaceStoreSpec: a space settings to a store', () => {
  it('maps each kind with its label', () => {
    expect(spaceStoreSpec('s3', { region: 'eu-west-1', bucket: 'acme', prefix: 'tabula' }, { access_key_id: 'AK', secret_access_key: 'SK' })).toEqual({
      kind: 's3',
      label: "the space's S3 storage (bucket acme)",
      bucket: 'acme',
      prefix: 'tabula',
      endpoint: undefined,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
    });
    expect(spaceStoreSpec('ftp', { host: 'ftp.acme.test', port: 2121, user: 'u', secure: true, folder: 'f' }, { password: 'p' })).toEqual({
      kind: 'ftp',
      label: "the space's FTP storage (ftp.acme.test)",
      host: 'ftp.acme.test',
      port: 2121,
      user: 'u',
      password: 'p',
      secure: true,
      folder: 'f',
    });
    expect(spaceStoreSpec('sftp', { host: 'sftp.acme.test', username: 'u' }, { private_key: 'KEY' })).toEqual({
      kind: 'sftp',
      label: "the space's SFTP storage (sftp.acme.test)",
      host: 'sftp.acme.test',
      port: undefined,
      username: 'u',
      password: undefined,
      privateKey: 'KEY',
      folder: undefined,
    });
  });

  it('has no store for managed or none', () => {
    expect(() => spaceStoreSpec('managed', {}, {})).toThrow(/no blob store of its own/);
    expect(() => spaceStoreSpec('none', {}, {})).toThrow(/no blob store of its own/);
  });
});
