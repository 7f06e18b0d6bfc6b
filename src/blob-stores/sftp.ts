import crypto from 'node:crypto';
import type ssh2 from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import { assertBlobKey, type BlobStore, type ByteRange } from './blob-store.js';
import { relayStream } from './relay-stream.js';
import { BlobNotFoundError, translateStorageError } from './storage-errors.js';

export interface SftpStoreOptions {
  /** Names the storage in messages: `the space's SFTP storage (sftp.example.com)`. */
  label: string;
  host: string;
  port?: number;
  username: string;
  password?: string;
  /** An OpenSSH or PEM private key; with a password too, ssh2 tries the password first. */
  privateKey?: string;
  /** The folder blobs live under, relative to the login directory unless it starts with `/`; created when missing. */
  folder?: string;
}

/**
 * Blobs as files on an SFTP server. Like FTP, a connection per operation (a download keeps its
 * connection until the reader is done with the stream): no idle sessions held on customer
 * servers, nothing to notice when the server drops one, and ssh2-sftp-client is not built for
 * several operations at once on one client.
 *
 * Any host key is accepted: a space's settings carry a host and credentials, no host key to
 * compare with, so a man in the middle on the way to the customer's server goes unnoticed
 * (docs/decisions.md, "Blob stores").
 */
export function createSftpStore(options: SftpStoreOptions): BlobStore {
  const { label } = options;
  const folder = (options.folder ?? '').replace(/\/+$/, '');
  const open = new Set<SftpClient>();

  function pathOf(key: string): string {
    assertBlobKey(key);
    return folder ? `${folder}/${key}` : key;
  }

  async function connect(): Promise<SftpClient> {
    const client = new SftpClient('tabula');
    open.add(client);
    try {
      await client.connect({
        host: options.host,
        port: options.port ?? 22,
        username: options.username,
        password: options.password,
        privateKey: options.privateKey,
        readyTimeout: 10_000,
        // SFTP requests have no timeout of their own: an unanswered keepalive every 5 s, three
        // times in a row, drops the connection and fails the operation instead of hanging.
        keepaliveInterval: 5_000,
        keepaliveCountMax: 3,
        hostVerifier: () => true,
      });
      // Without Nagle's delay: ssh2's JavaScript ciphers (used when its optional native module
      // is not built) write a packet in pieces, and every SFTP request then waits for the peer's
      // delayed ACK, about 40 ms; 12 MB took a minute instead of a second.
      (client as unknown as { client: ssh2.Client }).client.setNoDelay(true);
      return client;
    } catch (error) {
      void release(client);
      throw error;
    }
  }

  async function release(client: SftpClient): Promise<void> {
    open.delete(client);
    await client.end().catch(() => {});
  }

  /** One connection for `run`, closed afterwards; every failure translated. */
  async function withClient<T>(run: (client: SftpClient) => Promise<T>): Promise<T> {
    let client: SftpClient | undefined;
    try {
      client = await connect();
      return await run(client);
    } catch (error) {
      throw translateStorageError(error, label);
    } finally {
      if (client) void release(client);
    }
  }

  async function sizeOf(client: SftpClient, path: string): Promise<number | null> {
    try {
      return (await client.stat(path)).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  const store: BlobStore = {
    label,
    async put(key, body) {
      const path = pathOf(key);
      await withClient(async (client) => {
        await client.mkdir(path.slice(0, path.lastIndexOf('/')), true);
        const temporary = `${path}.${crypto.randomBytes(6).toString('hex')}.partial`;
        // ssh2-sftp-client rewraps the source's error; the caller gets the original (a size
        // limit's own error, say), not a storage failure.
        let sourceError: unknown;
        if (!Buffer.isBuffer(body)) body.once('error', (error) => (sourceError = error));
        try {
          await client.put(body, temporary).catch((error: unknown) => {
            throw sourceError ?? error;
          });
          // SFTP's RENAME (unlike posix-rename@openssh.com) fails on an existing name: OpenSSH
          // links the new name, so an existing blob is refused, not replaced.
          await client.rename(temporary, path);
        } catch (error) {
          await client.delete(temporary, true).catch(() => {});
          throw error;
        }
      });
    },
    async get(key, range?: ByteRange) {
      const path = pathOf(key);
      let client: SftpClient | undefined;
      try {
        client = await connect();
        // The read stream opens the file lazily; a stat first reports a miss before the stream starts.
        if ((await sizeOf(client, path)) === null) throw new BlobNotFoundError(label, key);
        const connection = client;
        const source = client.createReadStream(path, range ? { start: range.start, end: range.end } : {});
        return relayStream(source, label, () => void release(connection));
      } catch (error) {
        if (client) void release(client);
        throw translateStorageError(error, label);
      }
    },
    async stat(key) {
      const path = pathOf(key);
      return withClient(async (client) => {
        const size = await sizeOf(client, path);
        return size === null ? null : { size };
      });
    },
    async delete(key) {
      const path = pathOf(key);
      await withClient((client) => client.delete(path, true));
    },
    async copy(fromKey, toKey) {
      pathOf(toKey);
      // SFTP version 3 has no copy: the bytes come down one connection and go up another.
      const source = await store.get(fromKey);
      try {
        await store.put(toKey, source);
      } finally {
        source.destroy();
      }
    },
    async close() {
      await Promise.all([...open].map(release));
    },
  };

  return store;
}

/** ssh2-sftp-client reports a missing path from stat as ENOENT, from other calls as status 2 (NO_SUCH_FILE). */
function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 2;
}
