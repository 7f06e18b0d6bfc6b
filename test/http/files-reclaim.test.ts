import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/blob-stores/blob-store.js';
import { managedStoreSpec, openBlobStore } from '../../src/blob-stores/open-blob-store.js';
import type { Attachment } from '../../src/modules/fields/attachment.js';
import { fieldColumnName, recordTableName } from '../../src/modules/fields/physical-names.js';
import type { FileOwner } from '../../src/modules/files/file-ledger.js';
import type { StorageTarget } from '../../src/modules/files/file-storage.js';
import * as repository from '../../src/modules/files/files.repository.js';
import { listTableFields } from '../../src/modules/tables/tables.service.js';
import { formatDateTime } from '../../src/shared/clock.js';
import { blobCount } from '../blob-files.js';
import { useSecondApp, useTestApp, type TestContext } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

const day = 24 * 3600 * 1000;
const hour = 3600 * 1000;
const text = (content: string) => Buffer.from(content).toString('base64');

/** The blob file of a managed attachment on disk: `<data>/files/s<space>/<id>`. */
function blobFileOf(dataDir: string, attachmentPath: string): string {
  const match = /^\/(s\d+)\/([0-9a-f]{32})-/.exec(attachmentPath);
  if (!match) throw new Error(`not an attachment path: ${attachmentPath}`);
  return path.join(dataDir, 'files', match[1], match[2]);
}

async function fileRow(ctx: TestContext, filePath: string) {
  return ctx.container.database.db.selectFrom('stored_files').selectAll().where('path', '=', filePath).executeTakeFirst();
}

/** A port nothing listens on: bound for a moment, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A blob store that keeps blobs in memory and records every call. */
function recordingStore(): BlobStore & { calls: string[] } {
  const blobs = new Map<string, Buffer>();
  const calls: string[] = [];
  return {
    label: 'recording store',
    calls,
    async put(key, body) {
      calls.push(`put ${key}`);
      blobs.set(key, Buffer.isBuffer(body) ? body : Buffer.alloc(0));
    },
    async get() {
      throw new Error('not used');
    },
    async stat(key) {
      calls.push(`stat ${key}`);
      return blobs.has(key) ? { size: blobs.get(key)!.length } : null;
    },
    async delete(key) {
      calls.push(`delete ${key}`);
      blobs.delete(key);
    },
    async copy(from, to) {
      calls.push(`copy ${from} ${to}`);
    },
    async close() {},
  };
}

describe('reclaim: releases queue managed files for 30 days; the sweep, restore and crash safety', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let spaceId: number;
  let tableId: number;

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const createRecord = async (data: unknown, table = tableId) => {
    const created = await post(`/api/table/${table}/records/create`, { data });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { id: number; data: Record<string, Attachment[]> };
  };
  const getFile = (table: number, record: number, filePath: string, field = 'docs') => post(`/api/table/${table}/record/${record}/files/get`, { field_id: field, path: filePath });
  const reclaim = () => ctx.container.services.reclaim;
  const pendingPaths = async () => (await reclaim().listPending()).map((file) => file.path);

  /** A table of the space with a text and two file fields. */
  const newTable = async (space = spaceId, name = 'Docs') =>
    (
      await createTable(ctx, world, space, {
        name,
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'docs', name: 'Docs', type: 'file' },
          { id: 'extra', name: 'Extra', type: 'file' },
        ],
      })
    ).id;

  /** The managed storage as the service opens it: for writing a blob the way a crashed write would. */
  let managedTarget: StorageTarget;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Reclaim')).id;
    tableId = await newTable();
    managedTarget = { store: openBlobStore(managedStoreSpec(ctx.container.config.storageUrl)), kind: 'managed', host: 'localhost' };
    return () => managedTarget.store.close();
  });

  async function ownerOf(table: number, space: number, slug = 'docs'): Promise<FileOwner> {
    const field = (await listTableFields(ctx.container.database.db, table)).find((f) => f.slug === slug)!;
    return { accountId: world.accountId, spaceId: space, tableId: table, fieldId: field.id, imageOnly: false };
  }

  /** The ledger's own write path, stopped where a crash would stop it: blob and pending row stored, nothing committed. */
  async function storeUncommitted(target: StorageTarget, owner: FileOwner, name: string): Promise<Attachment> {
    const upload = await ctx.container.services.fileLedger.storeNew(target, owner, { name, type: 'text/plain' }, { bytes: Buffer.from(name) }, (problem) => new Error(problem));
    return upload.attachment;
  }

  /** Writes a record's file field directly, as a write that committed and never settled would have left it. */
  async function writeFieldValue(table: number, record: number, owner: FileOwner, attachments: Attachment[]): Promise<void> {
    const column = fieldColumnName(owner.fieldId);
    await sql`update ${sql.table(recordTableName(table))} set ${sql.ref(column)} = ${JSON.stringify(attachments)} where id = ${record}`.execute(ctx.container.database.db);
  }

  it('every way of letting go of an attachment queues its managed file, reclaimable 30 days later', async () => {
    const released: Array<[string, string]> = [];
    const expectQueued = async (how: string, paths: string[]) => {
      const pending = await reclaim().listPending();
      for (const filePath of paths) {
        const entry = pending.find((file) => file.path === filePath);
        expect(entry, `${how}: ${filePath}`).toBeDefined();
        expect(entry!.released_at, how).toBe(formatDateTime(new Date(nowMs)));
        expect(entry!.reclaim_after, how).toBe(formatDateTime(new Date(nowMs + 30 * day)));
        expect(entry!.space_id, how).toBeGreaterThan(0);
        expect(fs.existsSync(blobFileOf(ctx.database.dataDir, filePath)), `${how}: the blob stays during the grace`).toBe(true);
        released.push([how, filePath]);
      }
    };

    // files/delete
    const r1 = await createRecord({ name: 'one' });
    const created = await post(`/api/table/${tableId}/record/${r1.id}/files/create`, { field_id: 'docs', name: 'a.txt', data: text('a') });
    const a = created.body.files[0].path as string;
    expect((await post(`/api/table/${tableId}/record/${r1.id}/files/delete`, { field_id: 'docs', path: a })).status).toBe(200);
    await expectQueued('files/delete', [a]);

    // a record update replacing the attachments: the old one queued, the new one live
    const r2 = await createRecord({ docs: [{ data: text('b'), name: 'b.txt' }] });
    const replaced = await post(`/api/table/${tableId}/record/${r2.id}/update`, { data: { docs: [{ data: text('b2'), name: 'b2.txt' }] } });
    expect(replaced.status).toBe(200);
    await expectQueued('record update', [r2.data.docs[0].path]);
    expect(await pendingPaths()).not.toContain(replaced.body.data.docs[0].path);
    expect((await fileRow(ctx, replaced.body.data.docs[0].path))?.state).toBe('live');

    // a record delete, both file fields
    const r3 = await createRecord({ docs: [{ data: text('c'), name: 'c.txt' }], extra: [{ data: text('c2'), name: 'c2.txt' }] });
    expect((await post(`/api/table/${tableId}/record/${r3.id}/delete`, {})).status).toBe(200);
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    await expectQueued('record delete', [r3.data.docs[0].path, r3.data.extra[0].path]);

    // a batch of records
    const r4 = await createRecord({ docs: [{ data: text('d'), name: 'd.txt' }] });
    const r5 = await createRecord({ docs: [{ data: text('e'), name: 'e.txt' }, { data: text('f'), name: 'f.txt' }] });
    expect((await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [r4.id, r5.id] })).body.deleted).toEqual([r4.id, r5.id]);
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    await expectQueued('delete_batch', [r4.data.docs[0].path, ...r5.data.docs.map((f) => f.path)]);

    // a file field
    const fieldTable = await newTable(spaceId, 'Field goes');
    const r6 = await createRecord({ docs: [{ data: text('g'), name: 'g.txt' }], extra: [{ data: text('keep'), name: 'keep.txt' }] }, fieldTable);
    expect((await post(`/api/table/${fieldTable}/field/docs/delete`, {})).status).toBe(200);
    await expectQueued('field delete', [r6.data.docs[0].path]);
    expect(await pendingPaths()).not.toContain(r6.data.extra[0].path);

    // a table
    const goneTable = await newTable(spaceId, 'Table goes');
    const r7 = await createRecord({ docs: [{ data: text('h'), name: 'h.txt' }], extra: [{ data: text('i'), name: 'i.txt' }] }, goneTable);
    expect((await post(`/api/table/${goneTable}/delete`, {})).status).toBe(200);
    await expectQueued('table delete', [r7.data.docs[0].path, r7.data.extra[0].path]);

    // a space, with two tables
    const goneSpace = (await createSpace(ctx, world, 'Space goes')).id;
    const t1 = await newTable(goneSpace, 'One');
    const t2 = await newTable(goneSpace, 'Two');
    const r8 = await createRecord({ docs: [{ data: text('j'), name: 'j.txt' }] }, t1);
    const r9 = await createRecord({ extra: [{ data: text('k'), name: 'k.txt' }] }, t2);
    expect((await post(`/api/space/${goneSpace}/delete`, {})).status).toBe(200);
    await expectQueued('space delete', [r8.data.docs[0].path, r9.data.extra[0].path]);

    // The sweep before the 30 days are over deletes none of them.
    nowMs += 29 * day;
    expect((await reclaim().sweep()).deleted).toBe(0);
    for (const [how, filePath] of released) {
      expect(fs.existsSync(blobFileOf(ctx.database.dataDir, filePath)), how).toBe(true);
      expect((await fileRow(ctx, filePath))?.state, how).toBe('queued');
    }

    // After them it deletes each blob from disk and its row, once.
    nowMs += 2 * day;
    const report = await reclaim().sweep();
    expect(report).toMatchObject({ deleted: released.length, failed: 0 });
    for (const [how, filePath] of released) {
      expect(fs.existsSync(blobFileOf(ctx.database.dataDir, filePath)), how).toBe(false);
      expect(await fileRow(ctx, filePath), how).toBeUndefined();
    }
    expect(await pendingPaths()).toEqual([]);
    expect(await reclaim().sweep()).toEqual({ deleted: 0, orphans: 0, adopted: 0, failed: 0 });
    // Live files were never touched.
    expect((await getFile(tableId, r2.id, replaced.body.data.docs[0].path)).body.data).toBe(text('b2'));
    expect((await getFile(fieldTable, r6.id, r6.data.extra[0].path, 'extra')).body.data).toBe(text('keep'));
  });

  it('--as-of moves the queue only: an operator can sweep released files early', async () => {
    const record = await createRecord({ docs: [{ data: text('early'), name: 'early.txt' }] });
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    const filePath = record.data.docs[0].path;
    expect((await reclaim().sweep({ asOf: new Date(nowMs + 29 * day) })).deleted).toBe(0);
    expect((await reclaim().sweep({ asOf: new Date(nowMs + 31 * day) })).deleted).toBe(1);
    expect(fs.existsSync(blobFileOf(ctx.database.dataDir, filePath))).toBe(false);
  });

  it('restore takes a file out of the queue; its attachment object goes back into a record of its space without a copy', async () => {
    const record = await createRecord({ docs: [{ data: text('precious'), name: 'precious.txt' }] });
    const original = record.data.docs[0];
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    expect(await pendingPaths()).toContain(original.path);

    const restored = await reclaim().restore(original.path);
    expect(restored).toEqual({ attachment: original, spaceId });
    expect(await pendingPaths()).not.toContain(original.path);
    expect((await reclaim().sweep({ asOf: new Date(nowMs + 365 * day) })).deleted).toBe(0);
    expect(fs.existsSync(blobFileOf(ctx.database.dataDir, original.path))).toBe(true);
    await expect(reclaim().restore(original.path)).rejects.toThrow(`No file waiting for reclaim has the path ${original.path}`);

    const blobs = blobCount(ctx.database.dataDir);
    const again = await createRecord({ name: 'again', docs: [restored.attachment] });
    expect(again.data.docs).toEqual([original]);
    expect(blobCount(ctx.database.dataDir)).toBe(blobs);
    expect((await fileRow(ctx, original.path))?.state).toBe('live');
    expect((await getFile(tableId, again.id, original.path)).body).toEqual({ name: 'precious.txt', type: 'application/octet-stream', size: 8, data: text('precious') });

    // Live again, it is released and queued like any other.
    await post(`/api/table/${tableId}/record/${again.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    expect(await pendingPaths()).toContain(original.path);
  });

  it('a restored file written to another space becomes a copy there', async () => {
    const record = await createRecord({ docs: [{ data: text('moving'), name: 'moving.txt' }] });
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    const { attachment } = await reclaim().restore(record.data.docs[0].path);
    const otherSpace = (await createSpace(ctx, world, 'Elsewhere')).id;
    const otherTable = await newTable(otherSpace, 'Elsewhere');
    const elsewhere = await createRecord({ docs: [attachment] }, otherTable);
    expect(elsewhere.data.docs[0].path).not.toBe(attachment.path);
    expect(elsewhere.data.docs[0].path.startsWith(`/s${otherSpace}/`)).toBe(true);
    expect((await getFile(otherTable, elsewhere.id, elsewhere.data.docs[0].path)).body.data).toBe(text('moving'));
  });

  it('restore of a path not queued fails with a clear message; a file a sweep holds cannot be restored until its claim goes stale', async () => {
    await expect(reclaim().restore('/s1/00000000000000000000000000000000-nope.txt')).rejects.toThrow('No file waiting for reclaim has the path /s1/00000000000000000000000000000000-nope.txt');
    const live = await createRecord({ docs: [{ data: text('live'), name: 'live.txt' }] });
    await expect(reclaim().restore(live.data.docs[0].path)).rejects.toThrow(/No file waiting for reclaim/);

    const record = await createRecord({ docs: [{ data: text('claimed'), name: 'claimed.txt' }] });
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    const filePath = record.data.docs[0].path;
    const db = ctx.container.database.db;
    await db.updateTable('stored_files').set({ claim: 'another-sweep', claimed_at: formatDateTime(new Date(nowMs)) }).where('path', '=', filePath).execute();
    await expect(reclaim().restore(filePath)).rejects.toThrow(`The file ${filePath} is being deleted by a reclaim sweep right now`);
    await db.updateTable('stored_files').set({ claimed_at: formatDateTime(new Date(nowMs - 2 * hour)) }).where('path', '=', filePath).execute();
    expect((await reclaim().restore(filePath)).attachment.path).toBe(filePath);
  });

  it('crash safety: a blob written for a write that never committed is reachable from nowhere, and the sweep removes it after an hour', async () => {
    const record = await createRecord({ name: 'target' });
    const owner = await ownerOf(tableId, spaceId);
    const orphan = await storeUncommitted(managedTarget, owner, 'orphan.txt');
    const blob = blobFileOf(ctx.database.dataDir, orphan.path);
    expect(fs.existsSync(blob)).toBe(true);
    expect((await fileRow(ctx, orphan.path))?.state).toBe('pending');

    // Not reachable: no record holds it, and its path cannot be written into one.
    expect((await getFile(tableId, record.id, orphan.path)).body.error.message).toBe('Attachment not found');
    const claimed = await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { docs: [orphan] } });
    expect(claimed.status).toBe(400);
    expect(claimed.body.error.message).toMatch(/no attachment has the path/);
    expect(await pendingPaths()).not.toContain(orphan.path);

    // Judged by the real clock, not --as-of: a write still in progress is never swept.
    expect(await reclaim().sweep({ asOf: new Date(nowMs + 365 * day) })).toMatchObject({ orphans: 0 });
    expect(fs.existsSync(blob)).toBe(true);

    nowMs += hour + 60_000;
    expect(await reclaim().sweep()).toMatchObject({ orphans: 1, adopted: 0, failed: 0 });
    expect(fs.existsSync(blob)).toBe(false);
    expect(await fileRow(ctx, orphan.path)).toBeUndefined();
  });

  it('crash safety: a pending file whose write did commit (never settled) is adopted, not deleted', async () => {
    const record = await createRecord({ docs: [{ data: text('committed'), name: 'committed.txt' }] });
    const attachment = record.data.docs[0];
    // The process stopped between the commit and settling: the row is still pending.
    await ctx.container.database.db
      .updateTable('stored_files')
      .set({ state: 'pending', reclaim_after: formatDateTime(new Date(nowMs + hour)) })
      .where('path', '=', attachment.path)
      .execute();
    // The same, written straight into a record.
    const owner = await ownerOf(tableId, spaceId, 'extra');
    const written = await storeUncommitted(managedTarget, owner, 'written.txt');
    await writeFieldValue(tableId, record.id, owner, [written]);

    nowMs += hour + 60_000;
    expect(await reclaim().sweep()).toMatchObject({ adopted: 2, orphans: 0, failed: 0 });
    for (const [field, filePath] of [['docs', attachment.path], ['extra', written.path]]) {
      expect((await fileRow(ctx, filePath))?.state).toBe('live');
      expect(fs.existsSync(blobFileOf(ctx.database.dataDir, filePath))).toBe(true);
      expect((await getFile(tableId, record.id, filePath, field)).status).toBe(200);
    }
    // Adopted files are released like any other.
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    expect(await pendingPaths()).toEqual(expect.arrayContaining([attachment.path, written.path]));
  });

  it('crash safety: a pending file of a field deleted since is an orphan', async () => {
    const table = await newTable(spaceId, 'Field deleted');
    const owner = await ownerOf(table, spaceId);
    const orphan = await storeUncommitted(managedTarget, owner, 'fieldless.txt');
    expect((await post(`/api/table/${table}/field/docs/delete`, {})).status).toBe(200);
    nowMs += hour + 60_000;
    expect(await reclaim().sweep()).toMatchObject({ orphans: 1, adopted: 0, failed: 0 });
    expect(fs.existsSync(blobFileOf(ctx.database.dataDir, orphan.path))).toBe(false);
  });

  it("customer-owned storage is never touched: its rows go on release, the sweep never calls it", async () => {
    const port = await closedPort();
    const created = await post('/api/spaces/create', { name: 'Customer', storage: { kind: 'sftp', host: '127.0.0.1', port, username: 'u', password: 'p', folder: '/upload' } });
    expect(created.status).toBe(200);
    const customerSpace = created.body.id as number;
    const table = await newTable(customerSpace, 'Theirs');
    const owner = await ownerOf(table, customerSpace);
    // Files stored on the customer's storage (a stand-in recording every call: the SFTP port is closed).
    const store = recordingStore();
    const target: StorageTarget = { store, kind: 'space', host: '127.0.0.1' };
    const live = async (name: string) => {
      const record = await createRecord({ name }, table);
      const attachment = await storeUncommitted(target, owner, name);
      await writeFieldValue(table, record.id, owner, [attachment]);
      await ctx.container.services.fileLedger.markLiveIn(ctx.container.database.db, attachment, owner);
      expect((await fileRow(ctx, attachment.path))?.store).toBe('space');
      return { record, attachment };
    };
    const first = await live('first.txt');
    const second = await live('second.txt');
    const orphan = await storeUncommitted(target, owner, 'orphan.txt');
    store.calls.length = 0;

    // Releasing works without the storage, and drops the rows instead of queueing them.
    expect((await post(`/api/table/${table}/record/${first.record.id}/delete`, {})).status).toBe(200);
    await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * day)); // deleted records keep their files until the trash is purged
    expect(await fileRow(ctx, first.attachment.path)).toBeUndefined();
    expect((await post(`/api/space/${customerSpace}/delete`, {})).status).toBe(200);
    expect(await fileRow(ctx, second.attachment.path)).toBeUndefined();
    expect(await pendingPaths()).not.toEqual(expect.arrayContaining([first.attachment.path]));

    // The orphan's row goes after its hour; its blob, on the customer's storage, stays.
    nowMs += hour + 60_000;
    const report = await reclaim().sweep({ asOf: new Date(nowMs + 365 * day) });
    expect(report).toMatchObject({ orphans: 1, failed: 0 });
    expect(await fileRow(ctx, orphan.path)).toBeUndefined();
    expect(store.calls).toEqual([]);
  });
});

describe('reclaim: several processes sweeping one database delete each file exactly once', () => {
  const nowMs = Date.parse('2024-05-01T10:00:00Z');
  const clock = { now: () => new Date(nowMs) };
  const first = useTestApp({ clock });
  const second = useSecondApp(first, { clock });
  let world: World;
  let spaceId: number;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(first);
    spaceId = (await createSpace(first, world, 'Many')).id;
    tableId = (await createTable(first, world, spaceId, { name: 'Many', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
  });

  /** `count` released files in `recordSizes` records, deleted through the first app. */
  async function releaseFiles(recordSizes: number[]): Promise<string[]> {
    const paths: string[] = [];
    for (const size of recordSizes) {
      const docs = Array.from({ length: size }, (_, index) => ({ data: text(`file ${index}`), name: `f${index}.txt` }));
      const created = await call(first, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { docs } } });
      expect(created.status).toBe(200);
      paths.push(...created.body.data.docs.map((file: Attachment) => file.path));
      expect((await call(first, 'POST', `/api/table/${tableId}/record/${created.body.id}/delete`, { key: world.accountKey })).status).toBe(200);
      await first.container.services.records.purgeTrash(new Date(Date.now() + 31 * day));
    }
    return paths;
  }

  it('two apps sweeping 250 released files at once: 250 deleted in all, every blob gone, no failure', { timeout: 120_000 }, async () => {
    const paths = await releaseFiles([100, 100, 50]);
    expect(new Set(paths).size).toBe(250);
    for (const filePath of paths) expect(fs.existsSync(blobFileOf(first.database.dataDir, filePath))).toBe(true);
    const asOf = new Date(nowMs + 31 * day);
    const reports = await Promise.all([
      first.container.services.reclaim.sweep({ asOf }),
      second.container.services.reclaim.sweep({ asOf }),
      first.container.services.reclaim.sweep({ asOf }),
      second.container.services.reclaim.sweep({ asOf }),
    ]);
    expect(reports.reduce((sum, report) => sum + report.deleted, 0)).toBe(250);
    expect(reports.reduce((sum, report) => sum + report.failed + report.orphans + report.adopted, 0)).toBe(0);
    for (const filePath of paths) expect(fs.existsSync(blobFileOf(first.database.dataDir, filePath)), filePath).toBe(false);
    expect(await first.container.database.db.selectFrom('stored_files').select('id').where('path', 'in', paths).execute()).toEqual([]);
    expect(await second.container.services.reclaim.listPending()).toEqual([]);
  });

  it('concurrent claims from both processes never share a row', { timeout: 120_000 }, async () => {
    const paths = await releaseFiles([100, 100, 50]);
    const due = { queuedDue: formatDateTime(new Date(nowMs + 31 * day)), pendingDue: formatDateTime(new Date(nowMs)) };
    const now = formatDateTime(new Date(nowMs));
    const staleBefore = formatDateTime(new Date(nowMs - hour));
    const claimed = new Map<string, string>();
    const claims = Array.from({ length: 8 }, (_, index) => `claim-${index}`);
    for (let round = 0; round < 5 && claimed.size < paths.length; round++) {
      const batches = await Promise.all(
        claims.map((claim, index) => {
          const { database } = (index % 2 === 0 ? first : second).container;
          return repository.claimDueFiles(database.db, database.dialect.name, claim, due, now, staleBefore, 40).then((rows) => {
            expect(rows.length).toBeLessThanOrEqual(40);
            return rows.map((row) => [row.id, claim] as const);
          });
        }),
      );
      for (const [id, claim] of batches.flat()) {
        expect(claimed.get(id), `row ${id} claimed twice`).toBeUndefined();
        claimed.set(id, claim);
      }
    }
    expect(claimed.size).toBe(250);
    for (const claim of claims) await repository.releaseClaim(first.container.database.db, claim);
    // Alone, one sweep takes them in batches of 100, a progress report after each.
    const progress: number[] = [];
    const report = await first.container.services.reclaim.sweep({ asOf: new Date(nowMs + 31 * day), onProgress: (sofar) => progress.push(sofar.deleted) });
    expect(report.deleted).toBe(250);
    expect(progress).toEqual([100, 200, 250]);
  });
});
