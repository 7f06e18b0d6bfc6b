import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Database } from '../../src/db/database.js';
import { createGroupCommit } from '../../src/modules/changes/group-commit.js';
import { recordSearchOf } from '../../src/modules/records/search/index.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

/**
 * The search texts of a group commit's writes (src/modules/records/search/deferred-texts.ts):
 * on SQLite they are written once at the group's end, and what is stored must be what writing
 * each at once would have stored — the last text each record was given, none for a record
 * deleted later in the group or for a write rolled back. On PostgreSQL (no group commit in the
 * app, no deferral) the same writes in the same group must leave the same texts.
 */
describe(`a group's search texts (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;
  const table = 'rec_9001';
  const search = recordSearchOf(testEngine);

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    // PostgreSQL's search needs pg_trgm and the delete trigger's function (migrations 0002, 0011).
    await migrateToLatest(opened);
    await sql`create table ${sql.table(table)} (id integer primary key)`.execute(db);
    await search.createIndex(db, table);
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  const texts = async () => (await sql<{ id: number; text: string }>`select id, text from ${sql.table(`${table}_search`)} order by id`.execute(db)).rows.map((row) => [Number(row.id), row.text]);
  const found = async (term: string) =>
    (await sql<{ id: number }>`select id from ${sql.table(table)} where ${search.condition(table, [term])} order by id`.execute(db)).rows.map((row) => Number(row.id));
  const insertRecord = (trx: Kysely<any>, id: number) => sql`insert into ${sql.table(table)} (id) values (${id})`.execute(trx);

  it('stores the last text each record was given, none for a record deleted or a write rolled back', async () => {
    const inGroup = createGroupCommit(db, { deferral: search.groupDeferral, bounds: { maxWrites: 64, maxMs: 60_000 } });
    const refused = new Error('refused after writing its text');
    const writes = [
      inGroup(async (trx) => {
        await insertRecord(trx, 1);
        await search.insertText(trx, table, [{ id: 1, text: 'alpha first' }]);
      }),
      inGroup(async (trx) => {
        await insertRecord(trx, 2);
        await search.insertText(trx, table, [{ id: 2, text: 'beta rolled back' }]);
        throw refused;
      }),
      inGroup(async (trx) => {
        await insertRecord(trx, 3);
        await search.insertText(trx, table, [{ id: 3, text: 'gamma before' }]);
      }),
      inGroup((trx) => search.writeText(trx, table, [{ id: 3, text: 'gamma after' }])),
      // A rolled-back write's text for a record that stays: the text given before it stands.
      inGroup(async (trx) => {
        await search.writeText(trx, table, [{ id: 3, text: 'iota refused' }]);
        throw refused;
      }),
      // Record 1's delete trigger removes its text; the one given earlier in the group must not come back.
      inGroup((trx) => sql`delete from ${sql.table(table)} where id = 1`.execute(trx)),
      inGroup(async (trx) => {
        await insertRecord(trx, 4);
        await search.insertText(trx, table, [{ id: 4, text: 'delta emptied' }]);
        await search.writeText(trx, table, [{ id: 4, text: null }]);
      }),
      inGroup(async (trx) => {
        await insertRecord(trx, 5);
        await search.insertText(trx, table, [{ id: 5, text: 'epsilon kept' }]);
      }),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBe(refused);

    expect(await texts()).toEqual([
      [3, 'gamma after'],
      [5, 'epsilon kept'],
    ]);
    expect(await found('gamma')).toEqual([3]);
    expect(await found('after')).toEqual([3]);
    expect(await found('before')).toEqual([]);
    expect(await found('alpha')).toEqual([]);
    expect(await found('beta')).toEqual([]);
    expect(await found('delta')).toEqual([]);
    expect(await found('iota')).toEqual([]);
    expect(await found('epsilon')).toEqual([5]);
    // SQLite: the FTS5 index agrees with the texts it indexes (it fails on a stale or missing entry).
    if (testEngine === 'sqlite') await sql`insert into ${sql.table(`${table}_fts`)} (${sql.table(`${table}_fts`)}) values ('integrity-check')`.execute(db);
  });

  it('writes texts at once outside a group', async () => {
    await insertRecord(db, 10);
    await search.insertText(db, table, [{ id: 10, text: 'zeta alone' }]);
    expect(await found('zeta')).toEqual([10]);
  });
});
