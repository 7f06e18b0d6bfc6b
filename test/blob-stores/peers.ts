import { FtpSrv } from 'ftp-srv';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export { startSftpPeer, type SftpPeer } from './sftp-peer.js';

/**
 * Real protocol peers for the blob store drivers, started inside the test process on
 * 127.0.0.1 and random ports, each over its own temporary directory that `close` removes.
 */

export function makeTemporaryDirectory(purpose: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `tabula-${purpose}-`));
}

export interface S3Peer {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/** s3rver with one bucket; it checks request signatures against its fixed key pair. */
export async function startS3Peer(): Promise<S3Peer> {
  const directory = makeTemporaryDirectory('s3');
  const bucket = 'tabula-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  // s3rver ignores If-None-Match on writes; AWS (since 2024), MinIO and R2 refuse an existing
  // key with 412 PreconditionFailed. This answers the same way, so the contract's "never
  // replaces" runs against the driver's real request. It runs before s3rver's signature check,
  // which changes nothing for the tests (they write existing keys with good credentials only).
  server.middleware.unshift(async (context, next) => {
    const [, bucketName, ...key] = decodeURIComponent(context.path as string).split('/');
    const conditional = context.get('if-none-match') === '*' && (context.method === 'PUT' || context.method === 'POST');
    if (conditional && (await server.store.existsObject(bucketName, key.join('/')))) {
      context.status = 412;
      context.type = 'application/xml';
      context.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>';
      return;
    }
    await next();
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface FtpPeer {
  port: number;
  /** The directory the user logs in to. */
  root: string;
  user: string;
  password: string;
  close(): Promise<void>;
}

/** ftp-srv logs through bunyan by default; the tests want silence. */
const silentLog = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silentLog };

/** ftp-srv with one user (no anonymous login) whose root is a temporary directory. */
export async function startFtpPeer(): Promise<FtpPeer> {
  const directory = makeTemporaryDirectory('ftp');
  const user = 'tabula';
  const password = 'ftp-secret-pass';
  // Passive data connections come from this range; ftp-srv skips ports in use within it, and
  // a random place in the upper range keeps parallel test files out of each other's way.
  const pasvMin = 20_000 + Math.floor(Math.random() * 40_000);
  const signals = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
  const handlersBefore = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const server = new FtpSrv({
    url: 'ftp://127.0.0.1:0',
    pasv_url: '127.0.0.1',
    pasv_min: pasvMin,
    pasv_max: pasvMin + 200,
    anonymous: false,
    log: silentLog,
  });
  server.on('login', ({ username, password: given }, resolve, reject) => {
    if (username === user && given === password) resolve({ root: directory });
    else reject(new Error('Login incorrect'));
  });
  await server.listen();
  const { port } = (server as unknown as { server: net.Server }).server.address() as net.AddressInfo;
  return {
    port,
    root: directory,
    user,
    password,
    close: async () => {
      await server.close();
      // ftp-srv makes these signals end the process; the test worker is not its to stop.
      for (const signal of signals) {
        for (const handler of process.listeners(signal)) if (!handlersBefore.get(signal)?.includes(handler)) process.removeListener(signal, handler);
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on (it did a moment ago): connecting is refused. */
export async function findClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
