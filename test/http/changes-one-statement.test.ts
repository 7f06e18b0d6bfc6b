import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldColumnName } from '../../src/modules/fields/physical-names.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { fieldIds } from '../schema-inspection.js';
import { testEngine } from '../test-database.js';

/** Resolves once some backend of this database waits on a lock (PostgreSQL). */
async function someoneWaitsOnALock(db: Kysely<any>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no statement ever waited on a lock');
}

/**
 * The changes of single-record updates. On PostgreSQL an update of numbers, checkboxes, dates,
 * times and selects is one statement that makes its change in SQL (record-update-statement.ts);
 * other updates, and all of them on SQLite, go through the write unit's transaction and make it
 * in JavaScript. Both must give the same change: read-form values, only the fields that changed,
 * empty values (null, '') alike, nothing for a no-op or a missing record. A delete of records
 * presented before it is one statement on PostgreSQL too (every delete there): trash, change, restore.
 */

interface Change {
  kind: string;
  record_id: number;
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

describe('changes of a single update or delete, whichever way it is written', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;

  const post = (url: string, body: unknown = {}) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const lastSeq = async () => (await ctx.container.services.unit.settleQueued(), Number((await ctx.container.database.db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0));
  const changesAfter = async (after: number): Promise<Change[]> => (await post(`/api/table/${tableId}/changes/list`, { after, limit: 1000 })).body.changes;
  const update = async (id: number, data: Record<string, unknown>) => post(`/api/table/${tableId}/record/${id}/update`, { data });
  /** The changes one update appends, with its response. */
  const changesOf = async (id: number, data: Record<string, unknown>) => {
    const before = await lastSeq();
    const response = await update(id, data);
    return { response, changes: await changesAfter(before) };
  };

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Updates')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Jobs',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'amount', name: 'Amount', type: 'number', decimals: 2 },
          { id: 'count', name: 'Count', type: 'number' },
          { id: 'done', name: 'Done', type: 'checkbox' },
          { id: 'due', name: 'Due', type: 'date' },
          { id: 'at', name: 'At', type: 'datetime' },
          { id: 'slot', name: 'Slot', type: 'time' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'x' }, { value: 'y' }] },
          // A user field reads other rows: a delete presents its records before its statement.
          { id: 'owner', name: 'Owner', type: 'user' },
        ],
      })
    ).id;
  });

  const create = async (data: Record<string, unknown>) => (await post(`/api/table/${tableId}/records/create`, { data })).body as { id: number };

  it('holds only the fields that changed, before and after in read form', async () => {
    const { id } = await create({ name: 'a', amount: 1.5, count: 3, due: '2026-01-02', slot: '10:00:00' });
    const { response, changes } = await changesOf(id, { amount: 2.25, count: 3, done: true, due: '2026-01-03', at: '2026-01-03 04:05:06', slot: '10:00:00' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ amount: 2.25, count: 3, done: true, due: '2026-01-03', at: '2026-01-03 04:05:06', slot: '10:00:00' });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: 'record.updated', record_id: id, fields: ['amount', 'done', 'due', 'at'] });
    expect(changes[0].before).toEqual({ amount: 1.5, done: false, due: '2026-01-02', at: null });
    expect(changes[0].after).toEqual({ amount: 2.25, done: true, due: '2026-01-03', at: '2026-01-03 04:05:06' });
  });

  it('a value cleared shows as null after; a number keeps its exact value', async () => {
    const { id } = await create({ amount: 0.1, count: 123456789.125, due: '2026-05-06' });
    const { changes } = await changesOf(id, { amount: null, count: 0.30000000000000004, due: '' });
    expect(changes).toHaveLength(1);
    expect(changes[0].fields).toEqual(['amount', 'count', 'due']);
    expect(changes[0].before).toEqual({ amount: 0.1, count: 123456789.125, due: '2026-05-06' });
    expect(changes[0].after).toEqual({ amount: null, count: 0.30000000000000004, due: null });
  });

  it('appends nothing for an update that changes no value (an unchecked box set to false, an empty date cleared, a number rewritten)', async () => {
    const { id } = await create({ amount: 7, stage: 'won' });
    for (const data of [{ done: false }, { due: null }, { due: '' }, { amount: 7 }, { amount: 7, done: false, stage: 'won' }]) {
      const { response, changes } = await changesOf(id, data);
      expect(response.status).toBe(200);
      expect(changes).toEqual([]);
    }
  });

  it('a missing record: 400 Record not found and no change; a bad value: 400, no change and the record unchanged', async () => {
    const before = await lastSeq();
    const missing = await update(99_999_999, { amount: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Record not found');
    const { id } = await create({ amount: 4 });
    const afterCreate = await lastSeq();
    expect((await update(id, { amount: 'four' })).status).toBe(400);
    expect(await changesAfter(afterCreate)).toEqual([]);
    expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body.data.amount).toBe(4);
    expect((await changesAfter(before)).map((c) => c.kind)).toEqual(['record.created']);
  });

  it('a searchable field among the written ones (the transaction way) gives the same change', async () => {
    const { id } = await create({ name: 'old', count: 1 });
    const { changes } = await changesOf(id, { name: 'new', count: 2, done: false });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ fields: ['name', 'count'], before: { name: 'old', count: 1 }, after: { name: 'new', count: 2 } });
  });

  it('concurrent updates of one number: one change each, each before the value it replaced', async () => {
    const { id } = await create({ count: 0 });
    const before = await lastSeq();
    const responses = await Promise.all(Array.from({ length: 12 }, (_, n) => update(id, { count: n + 1 })));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    const changes = await changesAfter(before);
    expect(changes).toHaveLength(12);
    // Each change's before is the previous change's after: a chain from 0 to the final value.
    let value: unknown = 0;
    for (const change of changes) {
      expect(change.before).toEqual({ count: value });
      value = change.after.count;
    }
    expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body.data.count).toBe(value);
  });

  it.skipIf(testEngine !== 'postgres')('an update that waited for another writer of its row: its change is from the value that writer left', async () => {
    const { id } = await create({ count: 0, amount: 1 });
    const before = await lastSeq();
    const db = ctx.container.database.db;
    // Another writer (outside the API) holds the row, having changed it; the update reads the
    // version before that write, then waits for the row.
    const other = await db.startTransaction().execute();
    try {
      await sql`update ${sql.table(`rec_${tableId}`)} set ${sql.ref(fieldColumnName((await fieldIds(ctx, tableId)).count))} = 5 where id = ${id}`.execute(other);
      const updating = update(id, { count: 7 });
      await someoneWaitsOnALock(db);
      await other.commit().execute();
      expect((await updating).status).toBe(200);
    } catch (error) {
      await other.rollback().execute();
      throw error;
    }
    const changes = await changesAfter(before);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ fields: ['count'], before: { count: 5 }, after: { count: 7 } });
  });

  it('a delete moves the record to the trash with its change; a restore brings it back whole', async () => {
    const data = { name: 'keep', amount: 12.5, count: 2, done: true, due: '2026-02-03', at: '2026-02-03 01:02:03', slot: '04:05:06', stage: 'won', tags: ['x', 'y'], owner: world.ownerId };
    const { id } = await create(data);
    const { id: other } = await create({ name: 'other' });
    const before = await lastSeq();
    const deleted = await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [id, other, 99_999_999] });
    expect(deleted.body).toEqual({ deleted: [id, other], not_found: [99_999_999] });
    const changes = await changesAfter(before);
    expect(changes.map((c) => [c.kind, c.record_id])).toEqual([
      ['record.deleted', id],
      ['record.deleted', other],
    ]);
    expect(changes[0].before).toMatchObject({ ...data, owner: expect.objectContaining({ id: world.ownerId }) });
    expect(changes[0].after).toEqual({});
    const trash = (await post(`/api/table/${tableId}/records/trash`)).body;
    expect(trash.map((entry: { id: number }) => entry.id).sort()).toEqual([id, other].sort());
    const restoredAt = await lastSeq();
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [id] })).body).toEqual({ restored: [id], not_found: [] });
    const record = (await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body;
    expect(record.data).toMatchObject({ ...data, owner: expect.objectContaining({ id: world.ownerId }) });
    const [restored] = await changesAfter(restoredAt);
    expect(restored).toMatchObject({ kind: 'record.restored', record_id: id, after: changes[0].before });
  });

  it('a delete racing updates of its record: one change each, the delete last, its before the value the last update wrote', async () => {
    // The delete's change is made from the record read before it; it deletes the row only as
    // read (on PostgreSQL its row version, on SQLite checked in its transaction), and a lost
    // race runs it again from a new read.
    for (let round = 0; round < 3; round++) {
      const { id } = await create({ count: 0, owner: world.ownerId });
      const before = await lastSeq();
      const updates = Array.from({ length: 10 }, (_, n) => update(id, { count: n + 1 }));
      const deleted = await post(`/api/table/${tableId}/record/${id}/delete`);
      const answers = await Promise.all(updates);
      expect(deleted.status).toBe(200);
      for (const answer of answers) expect([200, 400]).toContain(answer.status);
      const changes = await changesAfter(before);
      const updated = changes.filter((change) => change.kind === 'record.updated');
      // An update answers from its own write, never from a read after it that the delete could
      // beat: 200 with the record as it left it for each one applied, 400 for the others.
      const ok = answers.flatMap((answer, n) => (answer.status === 200 ? [n + 1] : []));
      for (const answer of answers) if (answer.status === 200) expect(answer.body.data.count).toBe(answers.indexOf(answer) + 1);
      expect(updated.map((change) => change.after.count).sort((a, b) => Number(a) - Number(b))).toEqual(ok);
      expect(changes.map((change) => change.kind)).toEqual([...updated.map(() => 'record.updated'), 'record.deleted']);
      // The chain holds through the delete: each before is the value the change before it left.
      let value: unknown = 0;
      for (const change of updated) {
        expect(change.before).toEqual({ count: value });
        value = change.after.count;
      }
      expect(changes.at(-1)!.before).toMatchObject({ count: value, owner: expect.objectContaining({ id: world.ownerId }) });
      expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).status).toBe(400);
    }
  });

  it('an update answers the record as it left it, with a lookup to itself titled by the value just written', async () => {
    // The one statement reads lookup titles from its own snapshot, from before its write: a
    // table with a lookup to itself takes the transaction, whose read sees its own write.
    const spaceId = (await createSpace(ctx, world, 'Parts')).id;
    const parts = (await createTable(ctx, world, spaceId, { name: 'Parts', fields: [{ id: 'code', name: 'Code', type: 'number' }], title_field: 'code' })).id;
    expect((await post(`/api/table/${parts}/fields/create`, { id: 'parent', name: 'Parent', type: 'lookup', table_id: parts })).status).toBe(200);
    const { id } = (await post(`/api/table/${parts}/records/create`, { data: { code: 1 } })).body as { id: number };
    expect((await post(`/api/table/${parts}/record/${id}/update`, { data: { parent: id } })).body.data.parent).toEqual({ id, title: '1' });
    const answer = await post(`/api/table/${parts}/record/${id}/update`, { data: { code: 2 } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id, title: '2', data: { code: 2, parent: { id, title: '2' } } });
    expect((await call(ctx, 'GET', `/api/table/${parts}/record/${id}/get`, { key: world.accountKey })).body).toEqual(answer.body);
    // Its title and the lookup to itself written together: the title is the new one, not the one the lookup was checked against.
    const both = await post(`/api/table/${parts}/record/${id}/update`, { data: { code: 3, parent: id } });
    expect(both.body).toMatchObject({ id, title: '3', data: { code: 3, parent: { id, title: '3' } } });
    expect((await call(ctx, 'GET', `/api/table/${parts}/record/${id}/get`, { key: world.accountKey })).body).toEqual(both.body);
  });

  it('a batch delete racing updates of its records: every record deleted once, each delete after its record\'s updates, its before the last value written', async () => {
    // A row updated between the batch's read and its statement is not deleted by it (another
    // row version): the batch's transaction rolls back and it runs again from a new read.
    for (let round = 0; round < 3; round++) {
      const ids = [];
      for (let n = 0; n < 4; n++) ids.push((await create({ count: 0, owner: world.ownerId })).id);
      const before = await lastSeq();
      const updates = ids.flatMap((id) => Array.from({ length: 4 }, (_, n) => update(id, { count: n + 1 })));
      const deleted = await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: ids });
      const answers = await Promise.all(updates);
      expect(deleted.body).toEqual({ deleted: ids, not_found: [] });
      for (const answer of answers) expect([200, 400]).toContain(answer.status);
      const changes = await changesAfter(before);
      for (const id of ids) {
        const own = changes.filter((change) => change.record_id === id);
        expect(own.at(-1)!.kind).toBe('record.deleted');
        expect(own.filter((change) => change.kind === 'record.deleted')).toHaveLength(1);
        const last = own.filter((change) => change.kind === 'record.updated').at(-1);
        expect(own.at(-1)!.before).toMatchObject({ count: last ? last.after.count : 0 });
      }
    }
  });
});
