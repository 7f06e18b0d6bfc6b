import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobsOn } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { findClosedPort, makeTemporaryDirectory, startFtpPeer, startS3Peer, startSftpPeer, type FtpPeer, type S3Peer, type SftpPeer } from '../blob-stores/peers.js';
import { call, createAccount, createTable, type World } from '../factories.js';

/**
 * Spaces whose files live on the customer's own S3, FTP or SFTP server (CONTRACT §3; seed
 * "Related rules on stored files" 3: customer-owned storage is never touched by the service,
 * which writes new files there and never deletes one). Real peers on 127.0.0.1; the app allows
 * exactly their ports through TABULA_FETCH_ALLOW_HOSTS, since a space's storage host meets the
 * same address policy as a URL source descriptor (docs/decisions.md, "Files on a space's own
 * storage, and URL descriptors end to end").
 */

type Kind = 's3' | 'ftp' | 'sftp';

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

const text = (content: string) => Buffer.from(content).toString('base64');
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;
/** The blob key of an attachment: `/<folder>/<id>-<name>` → `<folder>/<id>`. */
const keyOf = (attachment: Attachment) => attachment.path.slice(1, attachment.path.indexOf('-'));
const wrongSecret = 'wrong-secret-7f3a9c';

/** A TCP server that must never see a connection: where a refused storage host points. */
interface Trap {
  port: number;
  connections: number;
  close(): Promise<void>;
}

async function startTrap(): Promise<Trap> {
  const trap = { port: 0, connections: 0, close: async () => {} };
  const server = net.createServer((socket) => {
    trap.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  trap.port = (server.address() as net.AddressInfo).port;
  trap.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return trap;
}

let s3: S3Peer;
let ftp: FtpPeer;
let sftp: SftpPeer;
let sftpRoot: string;
/** An SFTP server the tests stop, to see the storage go down under a space. */
let doomed: SftpPeer;
let doomedRoot: string;
let closedPort: number;
let trap: Trap;
let s3Client: S3Client;

// Registered before the app's own beforeAll, so the peers' ports are known when it is built.
beforeAll(async () => {
  sftpRoot = makeTemporaryDirectory('sftp');
  doomedRoot = makeTemporaryDirectory('sftp-doomed');
  [s3, ftp, sftp, doomed, closedPort, trap] = await Promise.all([startS3Peer(), startFtpPeer(), startSftpPeer(sftpRoot), startSftpPeer(doomedRoot), findClosedPort(), startTrap()]);
  s3Client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials });
});

afterAll(async () => {
  s3Client?.destroy();
  await Promise.all([s3?.close(), ftp?.close(), sftp?.close(), doomed?.close(), trap?.close()]);
  for (const directory of [sftpRoot, doomedRoot]) if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

const s3Port = () => Number(new URL(s3.endpoint).port);

/** A space's `storage` for each peer; `wrong` gives credentials the peer refuses. */
function storageOf(kind: Kind, options: { wrong?: boolean; port?: number; host?: string } = {}): Record<string, unknown> {
  switch (kind) {
    case 's3':
      return {
        kind,
        endpoint: options.port ? `http://${options.host ?? '127.0.0.1'}:${options.port}` : s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        prefix: 'tabula',
        // s3rver checks only the access key id of a signature: a refused login needs an unknown one.
        access_key_id: options.wrong ? 'UNKNOWNKEYID' : s3.credentials.accessKeyId,
        secret_access_key: options.wrong ? wrongSecret : s3.credentials.secretAccessKey,
      };
    case 'ftp':
      return { kind, host: options.host ?? '127.0.0.1', port: options.port ?? ftp.port, user: ftp.user, password: options.wrong ? wrongSecret : ftp.password, folder: 'tabula' };
    case 'sftp':
      return { kind, host: options.host ?? '127.0.0.1', port: options.port ?? sftp.port, username: sftp.username, password: options.wrong ? wrongSecret : sftp.password, folder: 'tabula' };
  }
}

/** The `host` of the attachments a space of the kind stores: the endpoint's host, or the server. */
const hostOf = (kind: Kind) => (kind === 's3' ? `127.0.0.1:${s3Port()}` : '127.0.0.1');

/** The blob under `key` on the peer, or null. */
async function blobOnPeer(kind: Kind, key: string): Promise<Buffer | null> {
  if (kind === 's3') {
    try {
      const object = await s3Client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `tabula/${key}` }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }
  const file = path.join(kind === 'ftp' ? ftp.root : sftpRoot, 'tabula', key);
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

/** Every blob key of a space's folder on the peer. */
async function keysOnPeer(kind: Kind | 'doomed', spaceId: number): Promise<string[]> {
  if (kind === 's3') {
    const listed = await s3Client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `tabula/s${spaceId}/` }));
    return (listed.Contents ?? []).map((object) => object.Key!.slice('tabula/'.length)).sort();
  }
  const root = kind === 'ftp' ? ftp.root : kind === 'sftp' ? sftpRoot : doomedRoot;
  const folder = path.join(root, 'tabula', `s${spaceId}`);
  return fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => `s${spaceId}/${name}`).sort() : [];
}

describe('files on a space of its own storage (S3, FTP, SFTP)', () => {
  const ctx = useTestApp(() => ({
    env: {
      TABULA_FETCH_ALLOW_HOSTS: [s3Port(), ftp.port, sftp.port, doomed.port, closedPort].map((port) => `127.0.0.1:${port}`).join(','),
    },
  }));
  let world: World;
  let managedTable: number;

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const getRecord = async (tableId: number, id: number) => (await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body;
  const createRecord = (tableId: number, data: unknown) => post(`/api/table/${tableId}/records/create`, { data });
  const files = (tableId: number, recordId: number, action: string, body: unknown) => post(`/api/table/${tableId}/record/${recordId}/files/${action}`, body);
  const getBytes = async (tableId: number, recordId: number, attachment: Attachment) => {
    const got = await files(tableId, recordId, 'get', { field_id: 'docs', path: attachment.path });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return Buffer.from(got.body.data, 'base64').toString();
  };
  const ledgerRows = (spaceId: number) =>
    ctx.container.database.db.selectFrom('stored_files').select(['path', 'state', 'store']).where('space_id', '=', spaceId).orderBy('path').execute();

  /** A space of `storage` with a table `Docs` (name, docs): its id and the table's. */
  async function spaceWith(storage: Record<string, unknown> | undefined, name = 'Customer storage'): Promise<{ spaceId: number; tableId: number }> {
    const created = await post('/api/spaces/create', { name, ...(storage ? { storage } : {}) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const table = await createTable(ctx, world, created.body.id, { name: 'Docs', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'docs', name: 'Docs', type: 'file' }] });
    return { spaceId: created.body.id, tableId: table.id };
  }

  /** What a refused write must leave as it was: the record, the space's ledger rows, the peer's folder, the managed blobs. */
  async function snapshot(kind: Kind | 'doomed', space: { spaceId: number; tableId: number }, recordId: number) {
    return {
      record: await getRecord(space.tableId, recordId),
      rows: await ledgerRows(space.spaceId),
      onPeer: await keysOnPeer(kind, space.spaceId),
      managed: blobsOn(ctx.database.dataDir),
    };
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    managedTable = (await spaceWith(undefined, 'Managed')).tableId;
  });

  describe.each(['s3', 'ftp', 'sftp'] as const)('%s', (kind) => {
    let space: { spaceId: number; tableId: number };
    beforeAll(async () => {
      space = await spaceWith(storageOf(kind), `On ${kind}`);
    });

    it("files/create and files/get: the blob is on the customer's server, the attachment's host is that server's", async () => {
      const record = (await createRecord(space.tableId, { name: 'r' })).body;
      const created = await files(space.tableId, record.id, 'create', { field_id: 'docs', name: 'report.txt', type: 'text/plain', data: text(`on ${kind}`) });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const [attachment] = created.body.files as Attachment[];
      expect(attachment).toEqual({ name: 'report.txt', path: expect.stringMatching(pathPattern), type: 'text/plain', size: `on ${kind}`.length, host: hostOf(kind) });
      expect(attachment.path.startsWith(`/s${space.spaceId}/`)).toBe(true);
      expect((await blobOnPeer(kind, keyOf(attachment)))?.toString()).toBe(`on ${kind}`);
      expect(await getBytes(space.tableId, record.id, attachment)).toBe(`on ${kind}`);
      expect(await ledgerRows(space.spaceId)).toContainEqual({ path: attachment.path, state: 'live', store: 'space' });
    });

    it('records/create with an inline descriptor stores on the customer server', async () => {
      const created = await createRecord(space.tableId, { docs: [{ data: `data:text/csv;base64,${text('a,b\n1,2')}`, name: 'table.csv' }] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const [attachment] = created.body.data.docs as Attachment[];
      expect(attachment).toEqual({ name: 'table.csv', path: expect.stringMatching(pathPattern), type: 'text/csv', size: 7, host: hostOf(kind) });
      expect((await blobOnPeer(kind, keyOf(attachment)))?.toString()).toBe('a,b\n1,2');
      expect(await getBytes(space.tableId, created.body.id, attachment)).toBe('a,b\n1,2');
    });

    it('an attachment of a managed space of the account becomes a copy on the customer server: same bytes, new path, its host', async () => {
      const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
      const source = (await createRecord(managedTable, { docs: [{ data: bytes.toString('base64'), name: 'bytes.bin' }] })).body;
      const original = source.data.docs[0] as Attachment;
      expect(original.host).toBe('localhost');
      const copied = await createRecord(space.tableId, { docs: [original] });
      expect(copied.status, JSON.stringify(copied.body)).toBe(200);
      const [copy] = copied.body.data.docs as Attachment[];
      expect(copy).toEqual({ ...original, path: expect.stringMatching(pathPattern), host: hostOf(kind) });
      expect(copy.path).not.toBe(original.path);
      expect(copy.path.startsWith(`/s${space.spaceId}/`)).toBe(true);
      expect((await blobOnPeer(kind, keyOf(copy)))?.equals(bytes)).toBe(true);
      const got = await files(space.tableId, copied.body.id, 'get', { field_id: 'docs', path: copy.path });
      expect(Buffer.from(got.body.data, 'base64').equals(bytes)).toBe(true);
      // And back: a copy of the customer's file into the managed space is the service's own again.
      const back = (await createRecord(managedTable, { docs: [copy] })).body;
      expect(back.data.docs).toEqual([{ ...original, path: expect.stringMatching(pathPattern), host: 'localhost' }]);
      const gotBack = await files(managedTable, back.id, 'get', { field_id: 'docs', path: back.data.docs[0].path });
      expect(Buffer.from(gotBack.body.data, 'base64').equals(bytes)).toBe(true);
    });

    it("files/delete, record delete and the sweep never touch the customer's blob", async () => {
      const record = (await createRecord(space.tableId, { docs: [{ data: text('keep me'), name: 'a.txt' }, { data: text('keep me too'), name: 'b.txt' }] })).body;
      const [first, second] = record.data.docs as Attachment[];
      const deleted = await files(space.tableId, record.id, 'delete', { field_id: 'docs', path: first.path });
      expect(deleted.body).toEqual({ field_id: 'docs', files: [second] });
      expect((await getRecord(space.tableId, record.id)).data.docs).toEqual([second]);
      // The ledger forgets it at once (nothing to reclaim); the blob stays where it is.
      expect((await ledgerRows(space.spaceId)).map((row) => row.path)).not.toContain(first.path);
      expect((await ctx.container.services.reclaim.listPending()).map((file) => file.path)).not.toContain(first.path);
      expect((await post(`/api/table/${space.tableId}/record/${record.id}/delete`, {})).body).toEqual({ id: record.id, deleted: true });
      await ctx.container.services.reclaim.sweep({ asOf: new Date(Date.now() + 40 * 24 * 3600 * 1000) });
      expect((await blobOnPeer(kind, keyOf(first)))?.toString()).toBe('keep me');
      expect((await blobOnPeer(kind, keyOf(second)))?.toString()).toBe('keep me too');
    });

    it('refused credentials: 502 storage_credentials_refused naming the storage, never the password; nothing written', async () => {
      const wrong = await spaceWith(storageOf(kind, { wrong: true }), `Wrong ${kind}`);
      const record = (await createRecord(wrong.tableId, { name: 'unchanged' })).body;
      const before = await snapshot(kind, wrong, record.id);
      const label = kind === 's3' ? `the space's S3 storage (bucket ${s3.bucket})` : `the space's ${kind.toUpperCase()} storage (127.0.0.1)`;
      const attempts = [
        await files(wrong.tableId, record.id, 'create', { field_id: 'docs', name: 'x.txt', data: text('x') }),
        await post(`/api/table/${wrong.tableId}/record/${record.id}/update`, { data: { name: 'changed', docs: [{ data: text('x'), name: 'x.txt' }] } }),
      ];
      for (const answer of attempts) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(502);
        expect(answer.body.error.code).toBe('storage_credentials_refused');
        expect(answer.body.error.message).toContain(`Storage refused the credentials: ${label}`);
        expect(JSON.stringify(answer.body)).not.toContain(wrongSecret);
      }
      expect(await snapshot(kind, wrong, record.id)).toEqual(before);
      expect(before.rows).toEqual([]);
      expect(before.onPeer).toEqual([]);
    });

    it('storage down (a closed port): 503 storage_unavailable with Retry-After, the record unchanged, nothing written', async () => {
      const down = await spaceWith(storageOf(kind, { port: closedPort }), `Down ${kind}`);
      const record = (await createRecord(down.tableId, { name: 'unchanged' })).body;
      const before = await snapshot(kind, down, record.id);
      const attempts = [
        await files(down.tableId, record.id, 'create', { field_id: 'docs', name: 'x.txt', data: text('x') }),
        await post(`/api/table/${down.tableId}/record/${record.id}/update`, { data: { name: 'changed', docs: [{ data: text('x'), name: 'x.txt' }] } }),
        await createRecord(down.tableId, { name: 'new', docs: [{ data: text('x'), name: 'x.txt' }] }),
      ];
      for (const answer of attempts) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(answer.headers['retry-after']).toBe('2');
        expect(answer.body.error).toEqual({ code: 'storage_unavailable', message: expect.stringMatching(/^Storage unavailable: the space's .* cannot be reached \(ECONNREFUSED\)$/) });
      }
      expect(await snapshot(kind, down, record.id)).toEqual(before);
      expect((await post(`/api/table/${down.tableId}/records/ids`, {})).body).toEqual([record.id]);
    });

    it("a storage host outside the address policy is refused before connecting: 502 storage_failed, nothing written", async () => {
      const fenced = await spaceWith(storageOf(kind, { port: trap.port }), `Fenced ${kind}`);
      const record = (await createRecord(fenced.tableId, { name: 'unchanged' })).body;
      const before = await snapshot(kind, fenced, record.id);
      const answer = await files(fenced.tableId, record.id, 'create', { field_id: 'docs', name: 'x.txt', data: text('x') });
      expect(answer.status, JSON.stringify(answer.body)).toBe(502);
      expect(answer.body.error.code).toBe('storage_failed');
      expect(answer.body.error.message).toMatch(/^Storage refused: the space's .* is a private or internal address; only the operator can allow it \(TABULA_FETCH_ALLOW_HOSTS\)$/);
      expect(trap.connections).toBe(0);
      expect(await snapshot(kind, fenced, record.id)).toEqual(before);
    });
  });

  describe('the address policy on storage hosts', () => {
    // Only loopback addresses here, the peers' real ports included (allowed as 127.0.0.1 only):
    // even a broken policy could then not send a packet off this machine. The other private and
    // internal ranges are the address policy's own unit tests (test/unit/fetch-url.test.ts).
    it.each([
      ['ftp', '127.0.0.2', "the space's FTP storage (127.0.0.2)"],
      ['sftp', '0.0.0.0', "the space's SFTP storage (0.0.0.0)"],
      ['sftp', 'localhost', "the space's SFTP storage (localhost)"],
      ['s3', '[::1]', `the space's S3 storage (bucket tabula-test) at [::1]`],
    ] as const)('%s at %s is refused without a connection', async (kind, host, shown) => {
      // A name is judged by what it resolves to: `localhost` is loopback, and only 127.0.0.1:<port> is listed.
      const port = { s3: s3Port(), ftp: ftp.port, sftp: sftp.port }[kind];
      const storage = storageOf(kind, { host, port });
      const fenced = await spaceWith(storage, 'Fenced');
      const record = (await createRecord(fenced.tableId, {})).body;
      const answer = await createRecord(fenced.tableId, { docs: [{ data: text('x'), name: 'x.txt' }] });
      expect(answer.status, JSON.stringify(answer.body)).toBe(502);
      expect(answer.body.error).toEqual({ code: 'storage_failed', message: `Storage refused: ${shown} is a private or internal address; only the operator can allow it (TABULA_FETCH_ALLOW_HOSTS)` });
      expect((await post(`/api/table/${fenced.tableId}/records/ids`, {})).body).toEqual([record.id]);
      expect(await ledgerRows(fenced.spaceId)).toEqual([]);
    });

    it('reads are checked too: once a space points at a refused host, its files answer 502 and are not fetched from there', async () => {
      const space = await spaceWith(storageOf('sftp'), 'Moved away');
      const record = (await createRecord(space.tableId, { docs: [{ data: text('mine'), name: 'mine.txt' }] })).body;
      const [attachment] = record.data.docs as Attachment[];
      expect((await post(`/api/space/${space.spaceId}/update`, { storage: storageOf('sftp', { port: trap.port }) })).status).toBe(200);
      const got = await files(space.tableId, record.id, 'get', { field_id: 'docs', path: attachment.path });
      expect(got.status).toBe(502);
      expect(got.body.error.code).toBe('storage_failed');
      expect(trap.connections).toBe(0);
    });
  });

  describe('a storage that goes down under a space (the SFTP peer stopped)', () => {
    it('files/create and files/get answer 503 storage_unavailable; the record stays as it was', async () => {
      const space = await spaceWith({ kind: 'sftp', host: '127.0.0.1', port: doomed.port, username: doomed.username, password: doomed.password, folder: 'tabula' }, 'Doomed');
      const record = (await createRecord(space.tableId, { name: 'before', docs: [{ data: text('stored while up'), name: 'up.txt' }] })).body;
      const [attachment] = record.data.docs as Attachment[];
      expect(await keysOnPeer('doomed', space.spaceId)).toEqual([keyOf(attachment)]);
      await doomed.close();
      const before = await snapshot('doomed', space, record.id);
      const created = await files(space.tableId, record.id, 'create', { field_id: 'docs', name: 'x.txt', data: text('x') });
      expect(created.status).toBe(503);
      expect(created.body.error.code).toBe('storage_unavailable');
      const updated = await post(`/api/table/${space.tableId}/record/${record.id}/update`, { data: { name: 'after', docs: [attachment, { data: text('x'), name: 'x.txt' }] } });
      expect(updated.status).toBe(503);
      expect(updated.body.error.code).toBe('storage_unavailable');
      const got = await files(space.tableId, record.id, 'get', { field_id: 'docs', path: attachment.path });
      expect(got.status).toBe(503);
      expect(got.body.error.code).toBe('storage_unavailable');
      expect(await snapshot('doomed', space, record.id)).toEqual(before);
      // Re-saving the record's own attachments touches no storage, so it still works while the server is down.
      const resaved = await post(`/api/table/${space.tableId}/record/${record.id}/update`, { data: { name: 'renamed', docs: [attachment] } });
      expect(resaved.status, JSON.stringify(resaved.body)).toBe(200);
      expect(resaved.body.data.docs).toEqual([attachment]);
    });
  });

  describe("changing a space's storage (space update)", () => {
    it('managed → S3 → managed → S3 → FTP: new files go to the storage of the moment; old ones are read where they can be', async () => {
      const space = await spaceWith(undefined, 'Moving');
      const upload = async (name: string) => {
        const record = (await createRecord(space.tableId, { docs: [{ data: text(`bytes of ${name}`), name }] })).body;
        expect(record.data?.docs, JSON.stringify(record)).toHaveLength(1);
        return { id: record.id as number, attachment: record.data.docs[0] as Attachment };
      };
      const read = (file: { id: number; attachment: Attachment }) => files(space.tableId, file.id, 'get', { field_id: 'docs', path: file.attachment.path });
      const moveTo = async (storage: Record<string, unknown>) => expect((await post(`/api/space/${space.spaceId}/update`, { storage })).status).toBe(200);

      const onManaged = await upload('managed.txt');
      expect(onManaged.attachment.host).toBe('localhost');

      await moveTo(storageOf('s3'));
      const onS3 = await upload('s3.txt');
      expect(onS3.attachment.host).toBe(hostOf('s3'));
      expect(await blobOnPeer('s3', keyOf(onS3.attachment))).not.toBeNull();
      // A managed file stays on managed storage and readable whatever the space uses now.
      expect((await read(onManaged)).body.data).toBe(text('bytes of managed.txt'));

      await moveTo({ kind: 'managed' });
      const managedAgain = await upload('managed-again.txt');
      expect(managedAgain.attachment.host).toBe('localhost');
      expect((await read(onManaged)).status).toBe(200);
      // The S3 file cannot be read while the space has no own storage: the service does not keep old settings.
      const unreadable = await read(onS3);
      expect({ status: unreadable.status, body: unreadable.body }).toEqual({
        status: 400,
        body: { error: { code: 'storage_not_configured', message: "File storage not configured: the space's own storage, which holds this file, is no longer set up" } },
      });
      // Nor copied: a write bringing it to another record fails whole.
      const copy = await createRecord(space.tableId, { name: 'copy', docs: [onS3.attachment] });
      expect(copy.status).toBe(400);

      await moveTo(storageOf('s3'));
      expect((await read(onS3)).body.data).toBe(text('bytes of s3.txt'));

      await moveTo(storageOf('ftp'));
      expect((await upload('ftp.txt')).attachment.host).toBe(hostOf('ftp'));
      // Looked for on the FTP server, where it never was: the blob is missing from the storage of the moment.
      const missing = await read(onS3);
      expect(missing.status).toBe(502);
      expect(missing.body.error.code).toBe('storage_file_missing');
      expect((await read(onManaged)).status).toBe(200);
      // The S3 blob itself was never touched.
      expect((await blobOnPeer('s3', keyOf(onS3.attachment)))?.toString()).toBe('bytes of s3.txt');
    });
  });
});
