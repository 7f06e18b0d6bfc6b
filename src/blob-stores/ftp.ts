import { Client } from 'basic-ftp';
import crypto from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { assertBlobKey, type BlobStore, type ByteRange } from './blob-store.js';
import { BlobNotFoundError, translateStorageError } from './storage-errors.js';

export interface FtpStoreOptions {
  /** Names the storage in messages: `the space's FTP storage (ftp.example.com)`. */
  label: string;
  host: string;
  port?: number;
  user: string;
  password?: string;
  /** Explicit FTPS (AUTH TLS on the usual port), with the server's certificate verified. */
  secure?: boolean;
  /** The folder blobs live under, relative to the login directory unless it starts with `/`; created when missing. */
  folder?: string;
}

/** basic-ftp's timeout: for connecting, for each answer, and for a stalled transfer. */
const timeoutMs = 15_000;

/**
 * Blobs as files on an FTP server. Every operation opens its own connection and closes it when
 * done (a download: when the reader is done with the stream). FTP runs one command at a time
 * per connection and keeps a working directory, so a shared connection would serialise every
 * blob of a space and carry state from one operation to the next; a pool would have to notice
 * connections the server dropped while idle, and would hold customer servers' per-user session
 * slots while doing nothing. The price is a login per operation, small beside the transfers.
 */
export function createFtpStore(options: FtpStoreOptions): BlobStore {
  const { label } = options;
  const folder = (options.folder ?? '').replace(/\/+$/, '');
  const open = new Set<Client>();

  function pathOf(key: string): string {
    assertBlobKey(key);
    return folder ? `${folder}/${key}` : key;
  }

  async function connect(): Promise<Client> {
    const client = new Client(timeoutMs);
    open.add(client);
    try {
      await client.access({ host: options.host, port: options.port ?? 21, user: options.user, password: options.password, secure: options.secure === true });
      return client;
    } catch (error) {
      release(client);
      throw error;
    }
  }

  function release(client: Client): void {
    client.close();
    open.delete(client);
  }

  /** One connection for `run`, closed afterwards; every failure translated. */
  async function withClient<T>(run: (client: Client) => Promise<T>): Promise<T> {
    let client: Client | undefined;
    try {
      client = await connect();
      return await run(client);
    } catch (error) {
      throw translateStorageError(error, label);
    } finally {
      if (client) release(client);
    }
  }

  async function sizeOf(client: Client, path: string): Promise<number | null> {
    try {
      return await client.size(path);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  const store: BlobStore = {
    label,
    async put(key, body) {
      const path = pathOf(key);
      const slash = path.lastIndexOf('/');
      const name = path.slice(slash + 1);
      await withClient(async (client) => {
        // ensureDir creates the folders and enters the last one, so the names below are local.
        await client.ensureDir(path.slice(0, slash));
        const temporary = `${name}.${crypto.randomBytes(6).toString('hex')}.partial`;
        // basic-ftp closes the connection when the source fails (an upload cut off by its
        // sender); fed through `wire`, the transfer ends instead and the connection stays to
        // remove the temporary file.
        const wire = new PassThrough();
        let sourceError: unknown;
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        source.once('error', (error) => {
          sourceError = error;
          wire.end();
        });
        source.pipe(wire);
        try {
          await client.uploadFrom(wire, temporary);
          if (sourceError !== undefined) throw sourceError;
          // FTP's rename replaces an existing file, so the key is checked just before. Not atomic:
          // keys are fresh, and this only catches a caller's mistake.
          if ((await sizeOf(client, name)) !== null) throw Object.assign(new Error('The blob exists already'), { code: 'EEXIST' });
          await client.rename(temporary, name);
        } catch (error) {
          if (!client.closed) await client.remove(temporary, true).catch(() => {});
          throw error;
        }
      });
    },
    async get(key, range?: ByteRange) {
      const path = pathOf(key);
      let client: Client | undefined;
      try {
        client = await connect();
        // SIZE first: servers answer a missing file on RETR only after the data connection
        // opens, some with 551, and the contract wants the miss before the stream starts.
        if ((await sizeOf(client, path)) === null) throw new BlobNotFoundError(label, key);
      } catch (error) {
        if (client) release(client);
        throw translateStorageError(error, label);
      }
      return download(client, path, range);
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
      await withClient(async (client) => {
        try {
          await client.remove(path);
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      });
    },
    async copy(fromKey, toKey) {
      pathOf(toKey);
      // FTP has no server-side copy: the bytes come down one connection and go up another.
      const source = await store.get(fromKey);
      try {
        await store.put(toKey, source);
      } finally {
        source.destroy();
      }
    },
    async close() {
      for (const client of open) release(client);
    },
  };

  /**
   * Streams the file from `range.start` (REST) and, for a range, stops after `range.end`: the
   * rest is cut off and the connection closed, since FTP cannot ask for an end.
   */
  function download(client: Client, path: string, range: ByteRange | undefined): Readable {
    const output = new PassThrough();
    let remaining = range ? range.end - range.start + 1 : Infinity;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (remaining <= 0) return callback();
        const piece = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
        remaining -= piece.length;
        if (remaining <= 0) {
          output.end(piece);
          release(client);
          return callback();
        }
        if (output.write(piece)) callback();
        else output.once('drain', () => callback());
      },
    });
    output.on('close', () => release(client));
    client
      .downloadTo(sink, path, range?.start ?? 0)
      .then(
        () => output.end(),
        // After the range's end the connection was closed on purpose; its error is no failure.
        (error: unknown) => {
          if (!output.writableEnded) output.destroy(translateStorageError(error, label));
        },
      )
      .finally(() => release(client));
    return output;
  }

  return store;
}

/** 550: the file is not there (or not reachable, which for a key of ours means the same). */
function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 550;
}
