import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../src/modules/auth/actor.js';
import { type TestContext, useSecondApp, useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

const statusOptions = [{ value: 'Open' }, { value: 'Closed' }, { value: 'Pending' }];

/**
 * `records/count` answers filtered counts from a per-process cache valid while the table's
 * change counter stands still: every write, field change or write from another process must
 * show in the very next count, and `total` with it.
 */
describe('records count cache', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;

  const postTo = (target: TestContext, path: string, body: unknown) => call(target, 'POST', path, { key: world.accountKey, body });
  const post = (path: string, body: unknown) => postTo(ctx, path, body);

  async function ok(target: TestContext, path: string, body: unknown) {
    const response = await postTo(target, path, body);
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }

  const create = async (tableId: number, data: Record<string, unknown>, target = ctx): Promise<number> => (await ok(target, `/api/table/${tableId}/records/create`, { data })).id;
  const update = (tableId: number, id: number, data: Record<string, unknown>, target = ctx) => ok(target, `/api/table/${tableId}/record/${id}/update`, { data });
  const remove = (tableId: number, id: number, target = ctx) => ok(target, `/api/table/${tableId}/record/${id}/delete`, {});
  const deleteBatch = (tableId: number, ids: number[], target = ctx) => ok(target, `/api/table/${tableId}/records/delete_batch`, { record_ids: ids });

  /** The count answer through `target`. */
  async function countVia(target: TestContext, tableId: number, body: Record<string, unknown>) {
    const response = await postTo(target, `/api/table/${tableId}/records/count`, body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { count: number; total: number; total_approx: boolean; restricted: boolean };
  }

  /** Counts twice (the second answer may come from the cache) and expects `count` and `total` both times. */
  async function expectCount(tableId: number, body: Record<string, unknown>, count: number, total: number, target = ctx) {
    for (let round = 0; round < 2; round += 1) {
      expect(await countVia(target, tableId, body), `${JSON.stringify(body)} round ${round}`).toEqual({ count, total, total_approx: false, restricted: true });
    }
    // The ids of the same filter never go through the cache: they must agree.
    const ids = await postTo(target, `/api/table/${tableId}/records/ids`, body);
    expect(ids.body).toHaveLength(count);
  }

  async function newTable(name: string) {
    return (
      await createTable(ctx, world, spaceId, {
        name,
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'status', name: 'Status', type: 'select', options: statusOptions },
          { id: 'size', name: 'Size', type: 'number' },
        ],
      })
    ).id;
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Count cache')).id;
  });

  describe('within one process', () => {
    let tableId: number;
    const open = { where: { status: 'Open' } };

    beforeAll(async () => {
      tableId = await newTable('Tasks');
      for (const [name, status, size] of [
        ['a', 'Open', 1],
        ['b', 'Open', 2],
        ['c', 'Closed', 3],
        ['d', 'Pending', 4],
      ] as const) {
        await create(tableId, { name, status, size });
      }
    });

    it('a repeated count answers the same', async () => {
      await expectCount(tableId, open, 2, 4);
      await expectCount(tableId, { where: { status: 'Closed' } }, 1, 4);
    });

    it('create: a matching record raises count and total, another raises total only', async () => {
      await expectCount(tableId, open, 2, 4);
      await create(tableId, { name: 'e', status: 'Open', size: 5 });
      await expectCount(tableId, open, 3, 5);
      await create(tableId, { name: 'f', status: 'Closed', size: 6 });
      await expectCount(tableId, open, 3, 6);
      await create(tableId, { name: 'g' });
      await expectCount(tableId, open, 3, 7);
      await expectCount(tableId, { where: { status: null } }, 1, 7);
    });

    it('creates after a cached count are added to it; an update or a delete among them counts afresh', async () => {
      const table = await newTable('Creates');
      await create(table, { name: 'a', status: 'Open' });
      await expectCount(table, open, 1, 1);
      // Creates only: the cached count plus the new records that match.
      await ok(ctx, `/api/table/${table}/records/create_batch`, { records: [{ data: { status: 'Open' } }, { data: { status: 'Closed' } }, { data: { status: 'Open' } }] });
      await expectCount(table, open, 3, 4);
      // A create and an update: the changes outgrow the rows, the count is taken afresh.
      const id = await create(table, { status: 'Open' });
      const [first] = (await postTo(ctx, `/api/table/${table}/records/ids`, open)).body as number[];
      await update(table, first, { status: 'Pending' });
      await expectCount(table, open, 3, 5);
      // A delete and two creates: two more rows, three changes.
      await remove(table, id);
      await create(table, { status: 'Open' });
      await create(table, { status: 'Open' });
      await expectCount(table, open, 4, 6);
    });

    it('a restore puts a record back under the highest id a cached count read: not taken for a create', async () => {
      const table = await newTable('Restores');
      // Counted from the search table (the search alone): such a count takes inserts alone for creates above its highest id.
      const kiwi = { search: 'kiwi' };
      const first = await create(table, { name: 'kiwi one', status: 'Open' });
      await create(table, { name: 'kiwi two', status: 'Open' });
      await remove(table, first);
      await expectCount(table, kiwi, 1, 1);
      await expectCount(table, open, 1, 1);
      // One row more and one change more, as a create would be; but the record is below the highest id.
      expect(await ok(ctx, `/api/table/${table}/records/restore`, { ids: [first] })).toEqual({ restored: [first], not_found: [] });
      await expectCount(table, kiwi, 2, 2);
      await expectCount(table, open, 2, 2);
    });

    it('update: a record leaving the filter, entering it, and changing an unrelated field', async () => {
      await expectCount(tableId, open, 3, 7);
      const [first] = (await post(`/api/table/${tableId}/records/ids`, open)).body as number[];
      await update(tableId, first, { status: 'Closed' });
      await expectCount(tableId, open, 2, 7);
      await update(tableId, first, { status: 'Open' });
      await expectCount(tableId, open, 3, 7);
      await update(tableId, first, { status: null });
      await expectCount(tableId, open, 2, 7);
      await expectCount(tableId, { where: { status: null } }, 2, 7);
      await update(tableId, first, { status: 'Open' });
      await expectCount(tableId, open, 3, 7);
      // A write that leaves this filter's answer alone still answers right.
      await update(tableId, first, { name: 'renamed' });
      await expectCount(tableId, open, 3, 7);
      // A filter on the field that changed.
      await expectCount(tableId, { where: { name: 'renamed' } }, 1, 7);
      await update(tableId, first, { name: 'again' });
      await expectCount(tableId, { where: { name: 'renamed' } }, 0, 7);
    });

    it('update: a number moving across a range filter', async () => {
      const big = { filters: [{ column: 'size', compare: '>=', value: 5 }] };
      await expectCount(tableId, big, 2, 7);
      const [small] = (await post(`/api/table/${tableId}/records/ids`, { where: { size: 1 } })).body as number[];
      await update(tableId, small, { size: 50 });
      await expectCount(tableId, big, 3, 7);
      await update(tableId, small, { size: 1 });
      await expectCount(tableId, big, 2, 7);
    });

    it('search: a new or changed text shows at once', async () => {
      await expectCount(tableId, { search: 'zebra' }, 0, 7);
      const id = await create(tableId, { name: 'zebra crossing', status: 'Pending' });
      await expectCount(tableId, { search: 'zebra' }, 1, 8);
      await update(tableId, id, { name: 'crossing' });
      await expectCount(tableId, { search: 'zebra' }, 0, 8);
      await remove(tableId, id);
      await expectCount(tableId, { search: 'crossing' }, 0, 7);
    });

    it('delete: a matching and a non-matching record', async () => {
      await expectCount(tableId, open, 3, 7);
      const [openId] = (await post(`/api/table/${tableId}/records/ids`, open)).body as number[];
      await remove(tableId, openId);
      await expectCount(tableId, open, 2, 6);
      const [closedId] = (await post(`/api/table/${tableId}/records/ids`, { where: { status: 'Closed' } })).body as number[];
      await remove(tableId, closedId);
      await expectCount(tableId, open, 2, 5);
      // A delete of a missing record is refused and changes nothing.
      const missing = await post(`/api/table/${tableId}/record/${openId}/delete`, {});
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('record_not_found');
      await expectCount(tableId, open, 2, 5);
    });

    it('delete_batch: matching, non-matching and missing ids together', async () => {
      const openIds = (await post(`/api/table/${tableId}/records/ids`, open)).body as number[];
      const others = (await post(`/api/table/${tableId}/records/ids`, { where: { status: ['!=', 'Open'] } })).body as number[];
      expect(openIds).toHaveLength(2);
      await expectCount(tableId, open, 2, 5);
      const answer = await deleteBatch(tableId, [openIds[0], others[0], 2_000_000_000]);
      expect(answer).toEqual({ deleted: [openIds[0], others[0]], not_found: [2_000_000_000] });
      await expectCount(tableId, open, 1, 3);
      // Nothing found: nothing changes.
      expect(await deleteBatch(tableId, [openIds[0]])).toEqual({ deleted: [], not_found: [openIds[0]] });
      await expectCount(tableId, open, 1, 3);
      await deleteBatch(tableId, (await post(`/api/table/${tableId}/records/ids`, {})).body);
      await expectCount(tableId, open, 0, 0);
      expect((await post(`/api/table/${tableId}/records/count`, {})).body).toEqual({ count: 0, total: 0, total_approx: false, restricted: false });
    });

    it('a rejected write changes neither count nor total', async () => {
      await create(tableId, { name: 'h', status: 'Open' });
      await expectCount(tableId, open, 1, 1);
      expect((await post(`/api/table/${tableId}/records/create`, { data: { status: 'Nope' } })).status).toBe(400);
      await expectCount(tableId, open, 1, 1);
    });
  });

  describe('field changes', () => {
    let tableId: number;

    beforeAll(async () => {
      tableId = await newTable('Fields');
      for (const status of ['Open', 'Open', 'Closed', null]) await create(tableId, { name: 'x', status, size: 1 });
    });

    it('renaming an unrelated field keeps the count', async () => {
      await expectCount(tableId, { where: { status: 'Open' } }, 2, 4);
      await ok(ctx, `/api/table/${tableId}/field/name/update`, { id: 'label', name: 'Label' });
      await expectCount(tableId, { where: { status: 'Open' } }, 2, 4);
      await create(tableId, { label: 'y', status: 'Open' });
      await expectCount(tableId, { where: { status: 'Open' } }, 3, 5);
      await expectCount(tableId, { where: { label: 'y' } }, 1, 5);
    });

    it('renaming the filtered field: the old slug is refused, the new one counts the same records', async () => {
      await expectCount(tableId, { where: { status: 'Closed' } }, 1, 5);
      await ok(ctx, `/api/table/${tableId}/field/status/update`, { id: 'state', name: 'State' });
      const stale = await post(`/api/table/${tableId}/records/count`, { where: { status: 'Closed' } });
      expect(stale.status).toBe(400);
      expect(stale.body.error.message).toBe('Invalid filter: unknown field "status"');
      await expectCount(tableId, { where: { state: 'Closed' } }, 1, 5);
      await ok(ctx, `/api/table/${tableId}/field/state/update`, { id: 'status', name: 'Status' });
      await expectCount(tableId, { where: { status: 'Closed' } }, 1, 5);
    });

    it('changing the options of the filtered select', async () => {
      await expectCount(tableId, { where: { status: 'Open' } }, 3, 5);
      await ok(ctx, `/api/table/${tableId}/field/status/update`, { options: [...statusOptions, { value: 'Archived' }] });
      await expectCount(tableId, { where: { status: 'Open' } }, 3, 5);
      await expectCount(tableId, { where: { status: 'Archived' } }, 0, 5);
      await create(tableId, { status: 'Archived' });
      await expectCount(tableId, { where: { status: 'Archived' } }, 1, 6);
      await expectCount(tableId, { where: { status: 'Open' } }, 3, 6);
    });

    it('deleting and recreating the filtered field under the same slug', async () => {
      await expectCount(tableId, { where: { status: 'Open' } }, 3, 6);
      await ok(ctx, `/api/table/${tableId}/field/status/delete`, {});
      expect((await post(`/api/table/${tableId}/records/count`, { where: { status: 'Open' } })).status).toBe(400);
      await ok(ctx, `/api/table/${tableId}/fields/create`, { id: 'status', name: 'Status', type: 'select', options: statusOptions });
      // The new column is empty in every record.
      await expectCount(tableId, { where: { status: 'Open' } }, 0, 6);
      await expectCount(tableId, { where: { status: null } }, 6, 6);
      await create(tableId, { status: 'Open' });
      await expectCount(tableId, { where: { status: 'Open' } }, 1, 7);
      await expectCount(tableId, { where: { status: null } }, 6, 7);
    });

    it('deleting a searchable field rebuilds the search text: search counts follow', async () => {
      await create(tableId, { label: 'walrus', status: 'Closed' });
      await expectCount(tableId, { search: 'walrus' }, 1, 8);
      await ok(ctx, `/api/table/${tableId}/field/label/delete`, {});
      await expectCount(tableId, { search: 'walrus' }, 0, 8);
    });

    it('a table deleted after its count was cached answers Invalid Table', async () => {
      const gone = await newTable('Gone');
      await create(gone, { status: 'Open' });
      await expectCount(gone, { where: { status: 'Open' } }, 1, 1);
      await ok(ctx, `/api/table/${gone}/delete`, {});
      const response = await post(`/api/table/${gone}/records/count`, { where: { status: 'Open' } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_table');
    });
  });

  describe('across processes on the same database', () => {
    const other = useSecondApp(ctx);
    let tableId: number;
    const open = { where: { status: 'Open' } };

    beforeAll(async () => {
      tableId = await newTable('Shared');
      for (const status of ['Open', 'Open', 'Closed']) await create(tableId, { name: 'x', status, size: 1 });
    });

    it('both processes see the same table', async () => {
      await expectCount(tableId, open, 2, 3, ctx);
      await expectCount(tableId, open, 2, 3, other);
    });

    it('a create through B shows in the next count through A', async () => {
      await expectCount(tableId, open, 2, 3, ctx);
      await create(tableId, { name: 'y', status: 'Open' }, other);
      await expectCount(tableId, open, 3, 4, ctx);
      await create(tableId, { name: 'z', status: 'Closed' }, other);
      await expectCount(tableId, open, 3, 5, ctx);
    });

    it('an update through B shows in the next count through A, both ways', async () => {
      const [id] = (await post(`/api/table/${tableId}/records/ids`, open)).body as number[];
      await expectCount(tableId, open, 3, 5, ctx);
      await update(tableId, id, { status: 'Pending' }, other);
      await expectCount(tableId, open, 2, 5, ctx);
      await update(tableId, id, { status: 'Open' }, other);
      await expectCount(tableId, open, 3, 5, ctx);
    });

    it('a delete and a delete_batch through B show in the next count through A', async () => {
      const openIds = (await post(`/api/table/${tableId}/records/ids`, open)).body as number[];
      await expectCount(tableId, open, 3, 5, ctx);
      await remove(tableId, openIds[0], other);
      await expectCount(tableId, open, 2, 4, ctx);
      const closed = (await post(`/api/table/${tableId}/records/ids`, { where: { status: 'Closed' } })).body as number[];
      await deleteBatch(tableId, [openIds[1], closed[0]], other);
      await expectCount(tableId, open, 1, 2, ctx);
    });

    it('writes through A show in counts through B after B cached them', async () => {
      await expectCount(tableId, open, 1, 2, other);
      const id = await create(tableId, { status: 'Open' }, ctx);
      await expectCount(tableId, open, 2, 3, other);
      await update(tableId, id, { status: 'Closed' }, ctx);
      await expectCount(tableId, open, 1, 3, other);
      await remove(tableId, id, ctx);
      await expectCount(tableId, open, 1, 2, other);
    });

    it('a bulk import through B shows in the next count through A', async () => {
      await expectCount(tableId, open, 1, 2, ctx);
      const actor: Actor = await other.container.services.keys.authenticateKey(world.accountKey, '127.0.0.1');
      const rows = Array.from({ length: 250 }, (_, n) => ({ name: `bulk ${n}`, status: n % 5 === 0 ? 'Open' : 'Pending' }));
      expect(await other.container.services.records.importRecords(actor, tableId, rows)).toBe(250);
      await expectCount(tableId, open, 1 + 50, 252, ctx);
      await expectCount(tableId, { where: { status: 'Pending' } }, 200, 252, ctx);
    });

    it('a field deleted and recreated through B: A counts the new column', async () => {
      await expectCount(tableId, open, 51, 252, ctx);
      await ok(other, `/api/table/${tableId}/field/status/delete`, {});
      await ok(other, `/api/table/${tableId}/fields/create`, { id: 'status', name: 'Status', type: 'select', options: statusOptions });
      await expectCount(tableId, open, 0, 252, ctx);
      await create(tableId, { status: 'Open' }, other);
      await expectCount(tableId, open, 1, 253, ctx);
    });

    it('concurrent creates through A and B with counts in between: every count in range, the settled one exact', async () => {
      const start = await countVia(ctx, tableId, open);
      const writes = Array.from({ length: 30 }, (_, n) => create(tableId, { name: `race ${n}`, status: n % 2 === 0 ? 'Open' : 'Closed' }, n % 2 === 0 ? ctx : other));
      const counts = Array.from({ length: 30 }, (_, n) => countVia(n % 2 === 0 ? other : ctx, tableId, open));
      const [, answers] = await Promise.all([Promise.all(writes), Promise.all(counts)]);
      for (const answer of answers) {
        expect(answer.count).toBeGreaterThanOrEqual(start.count);
        expect(answer.count).toBeLessThanOrEqual(start.count + 15);
        expect(answer.total).toBeGreaterThanOrEqual(start.total);
        expect(answer.total).toBeLessThanOrEqual(start.total + 30);
      }
      await expectCount(tableId, open, start.count + 15, start.total + 30, ctx);
      await expectCount(tableId, open, start.count + 15, start.total + 30, other);
      await deleteBatch(tableId, (await post(`/api/table/${tableId}/records/ids`, { search: 'race' })).body, other);
      await expectCount(tableId, open, start.count, start.total, ctx);
      await expectCount(tableId, open, start.count, start.total, other);
    });

    it('a rename through B of the filtered field: A refuses the old slug', async () => {
      await expectCount(tableId, open, 1, 253, ctx);
      await ok(other, `/api/table/${tableId}/field/status/update`, { id: 'phase', name: 'Phase' });
      expect((await post(`/api/table/${tableId}/records/count`, open)).status).toBe(400);
      await expectCount(tableId, { where: { phase: 'Open' } }, 1, 253, ctx);
    });
  });

  it('the same count asked by many at once is read once: the others share its reading or the cache it filled', async () => {
    const tableId = await newTable('Crowd');
    for (let i = 0; i < 30; i += 1) await create(tableId, { name: `r${i}`, status: statusOptions[i % 3].value, size: i });
    const observed = vi.spyOn(ctx.container.services.automaticIndexes.observer, 'observe');
    try {
      // Each reading of a count not cached tells the automatic indexes its shape: one per reading.
      const answers = await Promise.all(Array.from({ length: 20 }, () => countVia(ctx, tableId, { where: { size: ['>=', 5] } })));
      expect(answers.map((answer) => answer.count)).toEqual(Array(20).fill(25));
      expect(observed.mock.calls.filter(([table]) => table === tableId).length).toBeLessThanOrEqual(2);
      // After a write the cache cannot follow (no change logged), again one reading for the crowd, exact.
      await sql`update ${sql.table(`rec_${tableId}`)} set updated_at = '2024-01-02 00:00:00' where id = (select min(id) from ${sql.table(`rec_${tableId}`)})`.execute(ctx.container.database.db);
      await update(tableId, (await create(tableId, { name: 'late', size: 1 })), { size: 99 });
      const after = await Promise.all(Array.from({ length: 20 }, () => countVia(ctx, tableId, { where: { size: ['>=', 5] } })));
      expect(after.map((answer) => answer.count)).toEqual(Array(20).fill(26));
    } finally {
      observed.mockRestore();
    }
  });

  /**
   * Proof that the tests above go through the cache: a row slipped in while the table's
   * counters are put back as they were is invisible to a cached filter (and to `total`),
   * while a filter not yet cached sees it. Any counted write then retires the entry.
   */
  /**
   * Slips an Open record into the table with its counters put back as they were: invisible to
   * a count the cache answers, seen by one taken afresh.
   */
  async function hideOpenRecord(tableId: number) {
    const { db } = ctx.container.database;
    const before = await db
      .selectFrom('table_counters')
      .select([sql<string>`sum(row_count)`.as('rows'), sql<string>`sum(change_count)`.as('changes')])
      .where('table_id', '=', tableId)
      .executeTakeFirstOrThrow();
    const status = await db.selectFrom('fields').select('id').where('table_id', '=', tableId).where('slug', '=', 'status').executeTakeFirstOrThrow();
    await db.transaction().execute(async (trx) => {
      await sql`insert into ${sql.table(`rec_${tableId}`)} (created_at, updated_at, ${sql.id(`f_${status.id}`)}) values ('2024-01-01 00:00:00', '2024-01-01 00:00:00', 'Open')`.execute(trx);
      await trx.deleteFrom('table_counters').where('table_id', '=', tableId).execute();
      await trx.insertInto('table_counters').values({ table_id: tableId, shard: 0, row_count: Number(before.rows), change_count: Number(before.changes) }).execute();
    });
  }

  it('the cache is really on the path: only the change counter retires an entry', async () => {
    const tableId = await newTable('Hidden');
    await create(tableId, { name: 'a', status: 'Open' });
    await expectCount(tableId, { where: { status: 'Open' } }, 1, 1);
    const { db } = ctx.container.database;
    await hideOpenRecord(tableId);
    expect(await countVia(ctx, tableId, { where: { status: 'Open' } })).toEqual({ count: 1, total: 1, total_approx: false, restricted: true });
    expect(await countVia(ctx, tableId, { where: { status: ['!=', 'Closed'] } })).toEqual({ count: 2, total: 1, total_approx: false, restricted: true });
    // A write the log accounts for moves the count by the records it names, and nothing else:
    // the hidden record stays uncounted, so the count was not taken again.
    await create(tableId, { name: 'b', status: 'Closed' });
    expect(await countVia(ctx, tableId, { where: { status: 'Open' } })).toEqual({ count: 1, total: 2, total_approx: false, restricted: true });
    // A write the log does not account for (the counter bumped, no change logged) retires it.
    await sql`update ${sql.table(`rec_${tableId}`)} set updated_at = '2024-01-02 00:00:00' where id = (select min(id) from ${sql.table(`rec_${tableId}`)})`.execute(db);
    expect(await countVia(ctx, tableId, { where: { status: 'Open' } })).toEqual({ count: 2, total: 2, total_approx: false, restricted: true });
  });

  // An update that changes nothing writes nothing (records-unchanged-update.test.ts): not even
  // the table's change counter, which would retire every cached count of the table.
  it('an update that changes nothing keeps the cached count: single and batch', async () => {
    const tableId = await newTable('Unchanged');
    const id = await create(tableId, { name: 'a', status: 'Open', size: 3 });
    await expectCount(tableId, { where: { status: 'Open' } }, 1, 1);
    await hideOpenRecord(tableId);
    // A number alone goes by PostgreSQL's one-statement update (record-statements.ts), a select by its transaction.
    await update(tableId, id, { size: 3 });
    await update(tableId, id, { size: 3, status: 'Open' });
    await ok(ctx, `/api/table/${tableId}/records/update_batch`, { records: [{ id, data: { name: 'a' } }] });
    expect(await countVia(ctx, tableId, { where: { status: 'Open' } })).toEqual({ count: 1, total: 1, total_approx: false, restricted: true });
    // A real change after them is followed as usual: the hidden record still uncounted.
    await update(tableId, id, { size: 4 });
    expect(await countVia(ctx, tableId, { where: { status: 'Open' } })).toEqual({ count: 1, total: 1, total_approx: false, restricted: true });
  });
});
