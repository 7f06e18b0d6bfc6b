import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fieldColumnName, recordTableName } from '../../src/modules/fields/physical-names.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * A write answers the records as it left them, read by the write itself before its commit
 * (docs/decisions.md, "An update answers from its own write"). Here another writer changes the
 * records right after each commit, before the caller's code goes on (the write unit's `run` and
 * `runQueuedStatement` are wrapped): an answer read after the commit would show that writer's
 * values, or leave out (or 400 on) a record it deleted.
 */
describe('a write answers what it wrote, whatever lands just after its commit', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  let amountColumn: string;
  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const restores: Array<() => void> = [];

  /** After each commit of the write unit, `meddle` runs first, before the write's caller goes on. */
  function afterEachCommit(meddle: () => Promise<void>) {
    const unit = ctx.container.services.unit as unknown as Record<'run' | 'runQueuedStatement', (...args: unknown[]) => Promise<unknown>>;
    for (const name of ['run', 'runQueuedStatement'] as const) {
      const original = unit[name];
      unit[name] = async (...args: unknown[]) => {
        const result = await original.apply(unit, args);
        await meddle();
        return result;
      };
      restores.push(() => void (unit[name] = original));
    }
  }

  afterEach(() => {
    for (const restore of restores.splice(0)) restore();
  });

  /** Another writer's statements, straight on the database. */
  const deleteRecord = (id: number) => async () => void (await sql`delete from ${sql.table(recordTableName(tableId))} where id = ${id}`.execute(ctx.container.database.db));
  const setEveryAmount = (amount: number) => async () => void (await sql`update ${sql.table(recordTableName(tableId))} set ${sql.ref(amountColumn)} = ${amount}`.execute(ctx.container.database.db));

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Answers')).id;
    const table = await createTable(ctx, world, spaceId, {
      name: 'Answers',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'email', name: 'Email', type: 'email' },
        { id: 'amount', name: 'Amount', type: 'number' },
      ],
    });
    tableId = table.id;
    const [row] = (await sql<{ id: number }>`select id from fields where table_id = ${tableId} and slug = 'amount'`.execute(ctx.container.database.db)).rows;
    amountColumn = fieldColumnName(Number(row.id));
  });

  const createRecords = async (count: number) =>
    ((await post(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: count }, (_, n) => ({ data: { name: `r${n}`, email: `r${n}-${Math.random()}@example.com`, amount: 0 } })) })).body as Array<{ id: number; data: { email: string } }>);

  it('record/update of a value the database writes in one statement (PostgreSQL) or in the transaction', async () => {
    const [record] = await createRecords(1);
    afterEachCommit(setEveryAmount(999));
    const answer = await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { amount: 5 } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.amount).toBe(5);
  });

  it('record/update of a searchable value (the transaction on both engines)', async () => {
    const [record] = await createRecords(1);
    afterEachCommit(deleteRecord(record.id));
    const answer = await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'renamed', amount: 6 } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: record.id, title: 'renamed', data: { name: 'renamed', amount: 6 } });
  });

  it('record/update of a record deleted right after it answers 200 with the record it wrote', async () => {
    const [record] = await createRecords(1);
    afterEachCommit(deleteRecord(record.id));
    const answer = await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { amount: 7 } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.amount).toBe(7);
  });

  it('update_batch answers every record it updated, with its own values', async () => {
    const records = await createRecords(3);
    afterEachCommit(deleteRecord(records[1].id));
    const answer = await post(`/api/table/${tableId}/records/update_batch`, { records: records.map((r, n) => ({ id: r.id, data: { amount: 10 + n } })) });
    expect(answer.status).toBe(200);
    expect(answer.body.map((r: { id: number; data: { amount: number } }) => [r.id, r.data.amount])).toEqual(records.map((r, n) => [r.id, 10 + n]));
  });

  it('upsert_batch answers every record it updated or created, with its own values', async () => {
    const records = await createRecords(2);
    afterEachCommit(setEveryAmount(-1));
    const answer = await post(`/api/table/${tableId}/records/upsert_batch`, {
      match_on: ['email'],
      records: [...records.map((r) => ({ data: { email: r.data.email, amount: 20 } })), { data: { email: `new-${Math.random()}@example.com`, amount: 21 } }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.map((r: { data: { amount: number } }) => r.data.amount)).toEqual([20, 20, 21]);
    expect(answer.body.slice(0, 2).map((r: { id: number }) => r.id)).toEqual(records.map((r) => r.id));
  });
});
