import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { createAccount, createSpace, createTable, type World } from '../factories.js';
import { insertAndQueueChange, updateAndQueueChange } from '../../src/modules/records/record-statements.js';
import { describeSelection } from '../../src/modules/records/records.repository.js';
import type { ChangeCommon } from '../../src/modules/changes/change.js';
import { testEngine } from '../test-database.js';

/**
 * PostgreSQL: the creates, and the one-statement updates, of a table that arrive together are
 * one statement (record-statements.ts; db/turn-gathering.ts, createTurnBatching). The statement
 * keeps each record's own conditions: a record relying on a metadata version that has moved on
 * is not written while the others are, and a record the database refuses fails alone. SQLite's
 * writes share a commit instead (changes/group-commit.ts) and never go through here.
 */
describe.runIf(testEngine === 'postgres')('writes arriving together (PostgreSQL)', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  let columns: { name: string; n: string };
  let types: Map<string, string>;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Together')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Rows', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'n', name: 'N', type: 'number' }] })).id;
    const { rows } = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns where table_name = ${`rec_${tableId}`} order by ordinal_position`.execute(ctx.container.database.db);
    types = new Map(rows.map((row) => [row.column_name, row.data_type]));
    const fieldColumns = rows.map((row) => row.column_name).filter((name) => name.startsWith('f_'));
    columns = { name: fieldColumns[0], n: fieldColumns[1] };
  });

  const common = (): ChangeCommon => ({ account_id: world.accountId, space_id: 1, table_id: tableId, at: '2026-12-07 10:00:00', actor_user_id: null, actor_api_key_id: null, actor_name: 'test' });
  const version = async () => Number((await ctx.container.database.db.selectFrom('metadata_version').select('version').executeTakeFirstOrThrow()).version);
  const row = (name: string, n: unknown) => ({ [columns.name]: name, [columns.n]: n, created_at: '2026-12-07 10:00:00', updated_at: '2026-12-07 10:00:00', created_by: null });
  const create = (name: string, n: unknown, expected: number | null) => insertAndQueueChange(ctx.container.database.db, tableId, row(name, n), types, name, `{"name":"${name}"}`, common(), expected);
  const stored = async () => (await sql<{ id: number; name: string; text: string | null }>`select r.id, r.${sql.ref(columns.name)} as name, s.text from ${sql.table(`rec_${tableId}`)} as r left join ${sql.table(`rec_${tableId}_search`)} as s on s.id = r.id order by r.id`.execute(ctx.container.database.db)).rows;

  it('writes the records that rely on the version now and not the one relying on an older version; each learns the version', async () => {
    const now = await version();
    const [first, stale, third] = await Promise.all([create('first', 1, now), create('stale', 2, now - 1), create('third', 3, null)]);
    expect(first).toEqual({ id: expect.any(Number), version: now });
    expect(stale).toEqual({ id: undefined, version: now });
    expect(third).toEqual({ id: expect.any(Number), version: now });
    expect(await stored()).toEqual([
      { id: first.id, name: 'first', text: 'first' },
      { id: third.id, name: 'third', text: 'third' },
    ]);
    const { rows } = await sql<{ record_id: number; payload_json: string }>`select record_id, payload_json from change_queue where table_id = ${tableId} union all select record_id, payload_json from changes where table_id = ${tableId} order by record_id`.execute(ctx.container.database.db);
    expect(rows).toEqual([
      { record_id: first.id, payload_json: '{"name":"first"}' },
      { record_id: third.id, payload_json: '{"name":"third"}' },
    ]);
  });

  it('writes again one by one the records of a statement the database refused: only the refused one fails', async () => {
    const before = (await stored()).length;
    const outcomes = await Promise.allSettled([create('good', 4, null), create('bad', 'not a number', null), create('also good', 5, null)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toMatch(/invalid input syntax/);
    const names = (await stored()).slice(before).map((record) => record.name);
    expect(names.sort()).toEqual(['also good', 'good']);
  });

  it('updates the records that rely on the version now and not the one relying on an older version; each answers its own row', async () => {
    const [a, b, c] = await Promise.all([create('a', 1, null), create('b', 2, null), create('c', 3, null)]);
    const fields = [{ id: Number(columns.n.slice(2)), slug: 'n', type: 'number', name: 'N', settings: {} }] as never;
    const selection = describeSelection(tableId, [columns.name, columns.n], []);
    const now = await version();
    const write = (id: number, n: number, expected: number | null) => updateAndQueueChange(ctx.container.database.db, tableId, id, fields, types, [n], selection, '2026-12-07 11:00:00', common(), expected);
    const [first, stale, missing, third] = await Promise.all([write(a.id!, 10, now), write(b.id!, 20, now - 1), write(999_999, 5, null), write(c.id!, 3, null)]);
    expect(first).toMatchObject({ row: { id: a.id, [columns.n]: 10, updated_at: '2026-12-07 11:00:00' }, queued: true, version: now });
    expect(stale).toEqual({ row: undefined, queued: false, version: now });
    expect(missing).toEqual({ row: undefined, queued: false, version: now });
    // Written again with the value it holds: found, nothing changed, nothing queued.
    expect(third).toMatchObject({ row: { id: c.id, [columns.n]: 3, updated_at: '2026-12-07 10:00:00' }, queued: false, version: now });
    const { rows } = await sql<{ id: number; n: number }>`select id, ${sql.ref(columns.n)} as n from ${sql.table(`rec_${tableId}`)} where id in (${sql.join([a.id, b.id, c.id])}) order by id`.execute(ctx.container.database.db);
    expect(rows).toEqual([
      { id: a.id, n: 10 },
      { id: b.id, n: 2 },
      { id: c.id, n: 3 },
    ]);
  });
});
