import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, AuthContext, Connection, ParsedKey, SFTPWrapper } from 'ssh2';

/**
 * A real SFTP server for the SFTP driver's tests, inside the test process: ssh2's `Server` speaks
 * SSH and the SFTP protocol; this file answers the SFTP requests from a directory on disk.
 * Only what a file client needs is implemented, and it behaves like OpenSSH's sftp-server where
 * the driver relies on it: RENAME refuses an existing target, a missing file is NO_SUCH_FILE,
 * paths are the client's own view with `/` at `root` (no way out through `..`).
 */
export interface SftpPeer {
  port: number;
  username: string;
  password: string;
  /** An OpenSSH private key the server accepts for `username`, as a key-based login. */
  privateKey: string;
  close(): Promise<void>;
}

const { STATUS_CODE, flagsToString } = ssh2.utils.sftp;

/**
 * An ed25519 key pair that ssh2 can read back. Now and then (a suite run in a few hundred)
 * ssh2's own generator makes a private key its parser refuses as "Malformed OpenSSH private
 * key"; a fresh pair is then generated, at most a few times.
 */
function generateParsableKeyPair(): { private: string; public: string } {
  for (let attempt = 1; ; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error) && !(ssh2.utils.parseKey(pair.public) instanceof Error)) return pair;
    if (attempt === 10) throw new Error('ssh2 generated no readable ed25519 key pair in 10 attempts');
  }
}

export async function startSftpPeer(root: string): Promise<SftpPeer> {
  const username = 'tabula';
  const password = crypto.randomBytes(12).toString('hex');
  // Both keys are made for this run: the host key because clients need one, the user key to
  // test key-based login. Nothing is read from or left in the machine's ~/.ssh.
  const hostKey = generateParsableKeyPair();
  const userKey = generateParsableKeyPair();
  const parsedKey = ssh2.utils.parseKey(userKey.public);
  if (parsedKey instanceof Error) throw parsedKey;
  const allowedKey: ParsedKey = parsedKey;

  const connections = new Set<Connection>();
  const server = new ssh2.Server({ hostKeys: [hostKey.private] }, (connection) => {
    connections.add(connection);
    // As the store does (sftp.ts): ssh2's JavaScript ciphers write a packet in pieces, which
    // Nagle's algorithm would hold for the client's delayed ACK (ssh2 has the method; its types leave it out).
    (connection as unknown as { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    connection.on('close', () => connections.delete(connection));
    // A client that goes away mid-request is the tests' business, not a crash of the runner.
    connection.on('error', () => {});
    connection.on('authentication', (context) => authenticate(context));
    connection.on('ready', () => {
      connection.on('session', (acceptSession) => {
        acceptSession().on('sftp', (acceptSftp) => serveFiles(acceptSftp(), root));
      });
    });
  });

  function authenticate(context: AuthContext): void {
    const sameText = (given: string, expected: string) => given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    if (context.username !== username) return context.reject(['password', 'publickey']);
    if (context.method === 'password' && sameText(context.password, password)) return context.accept();
    if (context.method === 'publickey') {
      const sameKey = context.key.algo === allowedKey.type && context.key.data.equals(allowedKey.getPublicSSH());
      // Without a signature the client only asks whether the key would do; with one, it proves it holds the key.
      if (sameKey && (!context.signature || allowedKey.verify(context.blob!, context.signature, context.hashAlgo) === true)) return context.accept();
    }
    context.reject(['password', 'publickey']);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    username,
    password,
    privateKey: userKey.private,
    close: () =>
      new Promise<void>((resolve) => {
        for (const connection of connections) connection.end();
        server.close(() => resolve());
      }),
  };
}

type OpenThing = { kind: 'file'; file: fs.promises.FileHandle } | { kind: 'directory'; entries: string[] | null; directory: string };

/** One SFTP session: requests in, answers out, every file operation on the real disk under `root`. */
function serveFiles(sftp: SFTPWrapper, root: string): void {
  const open = new Map<number, OpenThing>();
  let nextHandle = 0;

  /** The client's path (absolute, or relative to its login directory `/`) inside `root`. */
  const local = (clientPath: string) => path.join(root, path.posix.resolve('/', clientPath));

  /** Runs a request and answers any failure with the status OpenSSH would send. */
  // One request at a time, in the order they came, as OpenSSH's sftp-server answers them: run
  // side by side, a REMOVE could finish before an earlier OPEN created the file it removes.
  let previous: Promise<void> = Promise.resolve();
  const answer = (id: number, run: () => Promise<void>) => {
    previous = previous.then(() =>
      run().catch((error: NodeJS.ErrnoException) => {
        const status = error.code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE : error.code === 'EACCES' ? STATUS_CODE.PERMISSION_DENIED : STATUS_CODE.FAILURE;
        sftp.status(id, status, error.message);
      }),
    );
  };

  const answerOk = (id: number, run: () => Promise<unknown>) =>
    answer(id, async () => {
      await run();
      sftp.status(id, STATUS_CODE.OK);
    });
  const answerAttributes = (id: number, stat: () => Promise<fs.Stats>) =>
    answer(id, async () => {
      sftp.attrs(id, attributesOf(await stat()));
    });

  const handleOf = (id: number) => {
    const handle = Buffer.alloc(4);
    handle.writeUInt32BE(id);
    return handle;
  };
  const thingOf = (handle: Buffer) => (handle.length === 4 ? open.get(handle.readUInt32BE(0)) : undefined);
  const fileOf = (handle: Buffer) => {
    const thing = thingOf(handle);
    if (thing?.kind !== 'file') throw Object.assign(new Error('Invalid handle'), { code: 'EBADF' });
    return thing.file;
  };

  sftp.on('REALPATH', (id, clientPath) => {
    const normal = path.posix.resolve('/', clientPath);
    sftp.name(id, [{ filename: normal, longname: normal, attrs: {} as Attributes }]);
  });
  sftp.on('OPEN', (id, clientPath, flags) =>
    answer(id, async () => {
      const file = await fs.promises.open(local(clientPath), flagsToString(flags) ?? 'r');
      open.set(nextHandle, { kind: 'file', file });
      sftp.handle(id, handleOf(nextHandle++));
    }),
  );
  sftp.on('READ', (id, handle, offset, length) =>
    answer(id, async () => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await fileOf(handle).read(buffer, 0, length, offset);
      if (bytesRead === 0) sftp.status(id, STATUS_CODE.EOF);
      else sftp.data(id, buffer.subarray(0, bytesRead));
    }),
  );
  sftp.on('WRITE', (id, handle, offset, data) =>
    answer(id, async () => {
      await fileOf(handle).write(data, 0, data.length, offset);
      sftp.status(id, STATUS_CODE.OK);
    }),
  );
  sftp.on('FSTAT', (id, handle) => answerAttributes(id, () => fileOf(handle).stat()));
  sftp.on('STAT', (id, clientPath) => answerAttributes(id, () => fs.promises.stat(local(clientPath))));
  sftp.on('LSTAT', (id, clientPath) => answerAttributes(id, () => fs.promises.lstat(local(clientPath))));
  sftp.on('CLOSE', (id, handle) =>
    answer(id, async () => {
      const thing = thingOf(handle);
      if (!thing) throw Object.assign(new Error('Invalid handle'), { code: 'EBADF' });
      open.delete(handle.readUInt32BE(0));
      if (thing.kind === 'file') await thing.file.close();
      sftp.status(id, STATUS_CODE.OK);
    }),
  );
  sftp.on('REMOVE', (id, clientPath) => answerOk(id, () => fs.promises.unlink(local(clientPath))));
  sftp.on('MKDIR', (id, clientPath) => answerOk(id, () => fs.promises.mkdir(local(clientPath))));
  sftp.on('RMDIR', (id, clientPath) => answerOk(id, () => fs.promises.rmdir(local(clientPath))));
  sftp.on('RENAME', (id, from, to) =>
    answer(id, async () => {
      // As OpenSSH: link the new name, then drop the old one, so an existing target fails (EEXIST).
      await fs.promises.link(local(from), local(to));
      await fs.promises.unlink(local(from));
      sftp.status(id, STATUS_CODE.OK);
    }),
  );
  sftp.on('OPENDIR', (id, clientPath) =>
    answer(id, async () => {
      const directory = local(clientPath);
      if (!(await fs.promises.stat(directory)).isDirectory()) throw Object.assign(new Error('Not a directory'), { code: 'ENOTDIR' });
      open.set(nextHandle, { kind: 'directory', entries: null, directory });
      sftp.handle(id, handleOf(nextHandle++));
    }),
  );
  sftp.on('READDIR', (id, handle) =>
    answer(id, async () => {
      const thing = thingOf(handle);
      if (thing?.kind !== 'directory') throw Object.assign(new Error('Invalid handle'), { code: 'EBADF' });
      // All entries in the first answer, end of directory on the next request.
      if (thing.entries !== null) return sftp.status(id, STATUS_CODE.EOF);
      thing.entries = await fs.promises.readdir(thing.directory);
      const names = await Promise.all(
        thing.entries.map(async (filename) => ({ filename, longname: filename, attrs: attributesOf(await fs.promises.lstat(path.join(thing.directory, filename))) })),
      );
      sftp.name(id, names);
    }),
  );
  // Files a client left open when its connection dropped.
  sftp.on('close', () => {
    for (const thing of open.values()) if (thing.kind === 'file') void thing.file.close().catch(() => {});
    open.clear();
  });
}

function attributesOf(stats: fs.Stats): Attributes {
  return { mode: stats.mode, uid: stats.uid, gid: stats.gid, size: stats.size, atime: Math.floor(stats.atimeMs / 1000), mtime: Math.floor(stats.mtimeMs / 1000) };
}
