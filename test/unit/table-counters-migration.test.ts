import crypto from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondApp, type TestContext } from '../build-test-app.js';
import { migrateToLatest, openDatabase, type Database } from '../../src/db/database.js';
import { createMigrationProvider } from '../../src/db/migrations/index.js';
import { recordSearchOf } from '../../src/modules/records/search/index.js';
import { indexPending } from '../../src/modules/records/search/search-catch-up.js';
import { recordTableSignature, systemSchemaSignature } from '../schema-inspection.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-database.js';

const stamp = '2024-01-01 00:00:00';

/**
 * A database migrated one step at a time from 0001, holding record tables made as each release
 * made them (two at 0002, one at 0005), ends with the schema of a fresh one. Migration 0003 on
 * the tables of 0002: `table_row_counts` becomes `table_counters` (same counts, change_count
 * 0), and every existing record table gets the triggers that keep the counters from then on.
 */
describe(`table counters migration (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;
  let accountId: number;
  let migrator: Migrator;
  /** Made at 0002: a table with three records, and an empty one. */
  let fullId: number;
  let emptyId: number;
  /** Made at 0005, with search index and counter triggers as that release made them. */
  let countedId: number;
  let spaceId: number;
  /** The name field's column of the full table. */
  let nameColumn: string;
  /** Each table's name column, by table id. */
  const nameColumns = new Map<number, string>();
  /** From 0011 on, the search text lives in `rec_<id>_search`, no longer in the `_search` column. */
  let textBeside = false;

  const recordTable = (tableId: number) => sql.table(`rec_${tableId}`);

  async function counters(tableId: number) {
    const rows = await db.selectFrom('table_counters').select(['shard', 'row_count', 'change_count']).where('table_id', '=', tableId).execute();
    return {
      rows: rows.reduce((sum, r) => sum + Number(r.row_count), 0),
      changes: rows.reduce((sum, r) => sum + Number(r.change_count), 0),
      shards: rows.length,
    };
  }

  async function realCount(tableId: number): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${recordTable(tableId)}`.execute(db);
    return Number(rows[0].n);
  }

  /** The FTS5 automerge setting of a SQLite search index (undefined: the default, 4). */
  async function automerge(tableId: number): Promise<number | undefined> {
    const { rows } = await sql<{ v: number }>`select v from ${sql.table(`rec_${tableId}_fts_config`)} where k = 'automerge'`.execute(db);
    return rows.length === 0 ? undefined : Number(rows[0].v);
  }

  async function tableNames(): Promise<string[]> {
    return (await db.introspection.getTables()).map((t) => t.name);
  }

  /**
   * A record table as createRecordTable made it at 0002 (columns and search index) or at 0005
   * (also the counter triggers, and an FTS5 index merging at 8), in the DDL those releases ran:
   * the SQLite index still kept trigram positions. Never today's code, which may have moved on.
   */
  async function createRecordTableAsReleased(level: '0002' | '0005', tableId: number, fieldId: number) {
    const table = `rec_${tableId}`;
    const base = sql.table(table);
    await db.schema
      .createTable(table)
      .addColumn('id', testEngine === 'sqlite' ? 'integer' : 'serial', (c) => (testEngine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('_search', 'text')
      .addColumn(`f_${fieldId}`, 'text')
      .execute();
    if (testEngine === 'sqlite') {
      const fts = sql.table(`${table}_fts`);
      await sql`create virtual table ${fts} using fts5(_search, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(db);
      if (level === '0005') await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
      await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${base} begin
        insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
      await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${base} begin
        insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search); end`.execute(db);
      await sql`create trigger ${sql.id(`${table}_search_update`)} after update of _search on ${base} begin
        insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search);
        insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
    } else {
      await sql`create index ${sql.id(`${table}_search`)} on ${base} using gin (_search gin_trgm_ops)`.execute(db);
    }
    if (level === '0002') return;
    if (testEngine === 'sqlite') {
      for (const [event, delta] of [['insert', 1], ['delete', -1], ['update', 0]] as const) {
        await sql`create trigger ${sql.id(`${table}_count_${event}`)} after ${sql.raw(event)} on ${base} begin
          update table_counters set row_count = row_count + ${sql.lit(delta)}, change_count = change_count + 1
          where table_id = ${sql.lit(tableId)} and shard = 0; end`.execute(db);
      }
    } else {
      const argument = sql.lit(String(tableId));
      await sql`create trigger ${sql.id(`${table}_count_insert`)} after insert on ${base}
        referencing new table as new_rows for each statement execute function tabula_count_rows(${argument})`.execute(db);
      await sql`create trigger ${sql.id(`${table}_count_delete`)} after delete on ${base}
        referencing old table as old_rows for each statement execute function tabula_count_rows(${argument})`.execute(db);
      await sql`create trigger ${sql.id(`${table}_count_update`)} after update on ${base}
        for each statement execute function tabula_count_rows(${argument})`.execute(db);
    }
    await db.insertInto('table_counters').values({ table_id: tableId, shard: 0, row_count: 0, change_count: 0 }).execute();
  }

  /** Applies the next migration only, which must be `name`. */
  async function migrateOneStep(name: string) {
    const { error, results } = await migrator.migrateUp();
    if (error) throw error;
    expect(results?.map((r) => [r.migrationName, r.status])).toEqual([[name, 'Success']]);
  }

  async function insertTable(level: '0002' | '0005', name: string) {
    const table = await db
      .insertInto('tables')
      .values({ account_id: accountId, space_id: spaceId, name, title_field_id: null, schema_version: 1, created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    const field = await db
      .insertInto('fields')
      .values({
        table_id: table.id,
        slug: 'name',
        name: 'Name',
        type: 'text',
        settings_json: JSON.stringify({ multiple: false, required: false, editable_by: 'members', hidden: null }),
        position: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('tables').set({ title_field_id: field.id }).where('id', '=', table.id).execute();
    await createRecordTableAsReleased(level, table.id, field.id);
    nameColumns.set(table.id, `f_${field.id}`);
    return { tableId: table.id as number, fieldId: field.id as number };
  }

  async function insertRecords(tableId: number, names: string[]) {
    const column = nameColumns.get(tableId)!;
    const values = names.map((name) => ({ created_at: stamp, updated_at: stamp, created_by: null, [column]: name, ...(textBeside ? {} : { _search: name.toLowerCase() }) }));
    const inserted = await db.insertInto(`rec_${tableId}`).values(values).returning(['id', column]).execute();
    if (textBeside) await db.insertInto(`rec_${tableId}_search`).values(inserted.map((row) => ({ id: row.id, text: String(row[column]).toLowerCase() }))).execute();
  }

  /** Search terms of every length, some matching nothing. */
  const probeTerms = ['gamma', 'lambd', 'a', 'ta', 'et', 'pp', 'kappa lambda', 'zz', 'alpha'];

  /** The ids each probe term finds, asked as a release before 0011 asked (`_search` in the row). */
  async function searchAsReleased(tableId: number): Promise<number[][]> {
    const answers: number[][] = [];
    for (const probe of probeTerms) {
      const terms = probe.split(' ');
      const holds = sql.join(
        terms.map((term) => (testEngine === 'sqlite' ? sql`instr(_search, ${term}) > 0` : sql`_search like ${`%${term}%`}`)),
        sql` and `,
      );
      const { rows } = await sql<{ id: number }>`select id from ${recordTable(tableId)} where ${holds} order by id`.execute(db);
      answers.push(rows.map((row) => Number(row.id)));
    }
    return answers;
  }

  /** The same through today's search condition, whole and stopped at the first matches. */
  async function searchNow(tableId: number, firstMatches?: number): Promise<number[][]> {
    const search = recordSearchOf(testEngine);
    const answers: number[][] = [];
    for (const probe of probeTerms) {
      const { rows } = await sql<{ id: number }>`select id from ${recordTable(tableId)} where ${search.condition(`rec_${tableId}`, probe.split(' '), firstMatches)} order by id`.execute(db);
      answers.push(rows.map((row) => Number(row.id)));
    }
    return answers;
  }

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    migrator = new Migrator({ db, provider: createMigrationProvider(opened.dialect.name) });
    await migrateOneStep('0001-foundation');
    await migrateOneStep('0002-search');

    // What a 0002 database held: an account with its owner, a space, two tables with their row counts.
    accountId = (await db.insertInto('accounts').values({ name: 'Old', owner_user_id: null, created_at: stamp }).returning('id').executeTakeFirstOrThrow()).id;
    const user = await db
      .insertInto('users')
      .values({ account_id: accountId, email: `old-${crypto.randomBytes(4).toString('hex')}@example.com`, name: 'Old Owner', password_hash: 'x', created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('accounts').set({ owner_user_id: user.id }).where('id', '=', accountId).execute();
    const space = await db
      .insertInto('spaces')
      .values({ account_id: accountId, name: 'Old space', storage_json: JSON.stringify({ kind: 'managed', settings: {}, sealed: null }), created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    spaceId = space.id;
    const full = await insertTable('0002', 'Full');
    fullId = full.tableId;
    nameColumn = `f_${full.fieldId}`;
    await insertRecords(fullId, ['Alpha', 'Beta', 'Gamma']);
    await db.insertInto('table_row_counts').values({ table_id: fullId, row_count: 3 }).execute();
    const empty = await insertTable('0002', 'Empty');
    emptyId = empty.tableId;
    await db.insertInto('table_row_counts').values({ table_id: emptyId, row_count: 0 }).execute();
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  it('at 0002 the database has table_row_counts and no table_counters', async () => {
    const names = await tableNames();
    expect(names).toContain('table_row_counts');
    expect(names).not.toContain('table_counters');
    expect(await realCount(fullId)).toBe(3);
    if (testEngine === 'sqlite') {
      expect(await automerge(fullId)).toBeUndefined();
      const fts = sql.table(`rec_${fullId}_fts`);
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${fts} where ${fts} match ${'"gamma"'}`.execute(db);
      expect(Number(rows[0].n)).toBe(1);
    }
  });

  it('migrating one step at a time applies 0003 to 0020, with a table made at 0005 in between; search answers the same after 0011', async () => {
    await migrateOneStep('0003-table-counters');
    await migrateOneStep('0004-search-merging');
    await migrateOneStep('0005-metadata-version');
    countedId = (await insertTable('0005', 'Counted')).tableId;
    await insertRecords(countedId, ['Kappa', 'Lambda']);
    expect((await counters(countedId)).rows).toBe(2);
    await migrateOneStep('0006-search-index-without-positions');
    await migrateOneStep('0007-stored-files');
    await migrateOneStep('0008-views');
    await migrateOneStep('0009-comments');
    // Index rows made before 0010: a calendar's and one made by hand.
    await db.insertInto('table_indexes').values([
      { table_id: countedId, name: 'idx_layout_due', field_ids_json: '[1]' },
      { table_id: countedId, name: 'by_hand', field_ids_json: '[1]' },
    ]).execute();
    await migrateOneStep('0010-index-origins');
    const origins = await db.selectFrom('table_indexes').select(['name', 'origin', 'direction']).where('table_id', '=', countedId).orderBy('name').execute();
    expect(origins).toEqual([
      { name: 'by_hand', origin: 'manual', direction: null },
      { name: 'idx_layout_due', origin: 'calendar', direction: null },
    ]);
    const before = new Map<number, number[][]>();
    for (const tableId of [fullId, emptyId, countedId]) before.set(tableId, await searchAsReleased(tableId));
    expect(before.get(fullId)!.flat().length).toBeGreaterThan(3);
    expect(before.get(countedId)!.flat().length).toBeGreaterThan(2);
    await migrateOneStep('0011-search-text-beside-records');
    textBeside = true;
    await migrateOneStep('0012-key-expiry-and-last-use');
    // 0013 on a database with records: an empty change log and trash beside them, records untouched.
    await migrateOneStep('0013-changes-and-trash');
    expect((await db.selectFrom('change_log_state').selectAll().execute()).map((row) => [row.id, Number(row.purged_through)])).toEqual([[1, 0]]);
    expect(await db.selectFrom('changes').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('record_trash').selectAll().execute()).toEqual([]);
    expect((await counters(countedId)).rows).toBe(2);
    await migrateOneStep('0014-change-queue');
    expect(await db.selectFrom('change_queue').selectAll().execute()).toEqual([]);
    // 0015: webhooks and their delivery log, empty; nothing else touched.
    await migrateOneStep('0015-webhooks');
    expect(await db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
    // 0016: background job leases and their runs, empty.
    await migrateOneStep('0016-job-leases');
    expect(await db.selectFrom('job_leases').selectAll().execute()).toEqual([]);
    // 0017: a change queued before it (PostgreSQL; SQLite never queues, and makes its empty queue
    // again) stays one change, as the sequencer reads it.
    const queuedBefore = { account_id: 1, space_id: 1, table_id: countedId, record_id: 1, comment_id: null, kind: 'record.created', at: '2026-12-01 00:00:00', actor_user_id: null, actor_api_key_id: null, actor_name: 'CLI', payload_json: '{"fields":[],"before":{},"after":{}}' };
    if (testEngine === 'postgres') await db.insertInto('change_queue').values(queuedBefore).execute();
    await migrateOneStep('0017-change-queue-batches');
    const queuedAfter = await db.selectFrom('change_queue').select(['record_id', 'kind', 'payload_json', 'record_ids', 'payloads', 'change_count']).execute();
    expect(queuedAfter).toEqual(testEngine === 'postgres' ? [{ record_id: 1, kind: 'record.created', payload_json: queuedBefore.payload_json, record_ids: null, payloads: null, change_count: 1 }] : []);
    await db.deleteFrom('change_queue').execute();
    // 0018 (SQLite): nothing pending (every index held its texts), and an old table's triggers now
    // note a changed text as pending, with the text its index holds, for the catch-up to index.
    await migrateOneStep('0018-search-index-catch-up');
    if (testEngine === 'sqlite') {
      const pending = () => sql<{ table_name: string; id: number; indexed_text: string | null }>`select * from search_index_pending`.execute(db);
      expect((await pending()).rows).toEqual([]);
      const texts = sql.table(`rec_${countedId}_search`);
      const { rows } = await sql<{ id: number; text: string }>`select id, text from ${texts} order by id limit 1`.execute(db);
      await sql`update ${texts} set text = ${`${rows[0].text} changed`} where id = ${rows[0].id}`.execute(db);
      expect((await pending()).rows).toEqual([{ table_name: `rec_${countedId}`, id: rows[0].id, indexed_text: rows[0].text }]);
      expect(await indexPending(db)).toBe(1);
      expect((await pending()).rows).toEqual([]);
      await sql`update ${texts} set text = ${rows[0].text} where id = ${rows[0].id}`.execute(db);
      expect(await indexPending(db)).toBe(1);
      const fts = sql.table(`rec_${countedId}_fts`);
      await sql`insert into ${fts} (${fts}, rank) values ('integrity-check', 1)`.execute(db);
    }
    // 0019: an update, a delete and an insert that wrote no row (PostgreSQL fired their statement
    // triggers anyway) leave the counters of an old table alone; an update of a row still counts.
    const column = nameColumns.get(countedId)!;
    const noRowUpdated = async () => {
      await db.updateTable(`rec_${countedId}`).set({ [column]: 'nobody' }).where('id', '=', -1).execute();
      await db.deleteFrom(`rec_${countedId}`).where('id', '=', -1).execute();
      await sql`insert into ${recordTable(countedId)} (created_at, updated_at) select ${stamp}, ${stamp} where false`.execute(db);
    };
    const unchanged = await counters(countedId);
    await noRowUpdated();
    expect((await counters(countedId)).changes).toBe(testEngine === 'postgres' ? unchanged.changes + 3 : unchanged.changes);
    await migrateOneStep('0019-counters-count-written-rows');
    const migrated = await counters(countedId);
    await noRowUpdated();
    expect(await counters(countedId)).toEqual(migrated);
    await db.updateTable(`rec_${countedId}`).set({ [column]: sql`${sql.ref(column)}` }).where('id', '=', (await db.selectFrom(`rec_${countedId}`).select('id').limit(1).executeTakeFirstOrThrow()).id).execute();
    expect((await counters(countedId)).changes).toBe(migrated.changes + 1);
    // 0020: a statement of several rows counts each of them as a change (SQLite's per-row
    // triggers always did); one that wrote none still counts nothing.
    const twoRowsWritten = async () => {
      await sql`insert into ${recordTable(countedId)} (created_at, updated_at) values (${stamp}, ${stamp}), (${stamp}, ${stamp})`.execute(db);
      await db.updateTable(`rec_${countedId}`).set({ [column]: 'both' }).where('id', 'in', db.selectFrom(`rec_${countedId}`).select('id').orderBy('id', 'desc').limit(2)).execute();
      await db.deleteFrom(`rec_${countedId}`).where('id', 'in', db.selectFrom(`rec_${countedId}`).select('id').orderBy('id', 'desc').limit(2)).execute();
    };
    const beforeEachRow = await counters(countedId);
    await twoRowsWritten();
    expect(await counters(countedId)).toMatchObject({ rows: beforeEachRow.rows, changes: beforeEachRow.changes + (testEngine === 'postgres' ? 3 : 6) });
    await migrateOneStep('0020-counters-count-each-row');
    const eachRow = await counters(countedId);
    await twoRowsWritten();
    expect(await counters(countedId)).toMatchObject({ rows: eachRow.rows, changes: eachRow.changes + 6 });
    await noRowUpdated();
    expect((await counters(countedId)).changes).toBe(eachRow.changes + 6);
    expect(await migrateToLatest(opened)).toEqual([]);
    for (const tableId of [fullId, emptyId, countedId]) {
      expect(await searchNow(tableId)).toEqual(before.get(tableId));
      expect(await searchNow(tableId, 1)).toEqual(before.get(tableId)!.map((ids) => ids.slice(0, 1)));
    }
  });

  it('the database migrated step by step from 0001 has exactly the system schema of a fresh one', async () => {
    const freshDatabase = await createTestDatabase();
    const fresh = await openDatabase({ databaseUrl: freshDatabase.databaseUrl, dataDir: freshDatabase.dataDir });
    try {
      await migrateToLatest(fresh);
      const migrated = await systemSchemaSignature(db, testEngine);
      expect(migrated.length).toBeGreaterThan(20);
      expect(migrated).toEqual(await systemSchemaSignature(fresh.db as unknown as Kysely<any>, testEngine));
    } finally {
      await fresh.destroy();
      await freshDatabase.drop();
    }
  });

  it('table_row_counts is gone; table_counters holds the old counts on shard 0 with change_count 0', async () => {
    const names = await tableNames();
    expect(names).not.toContain('table_row_counts');
    expect(names).toContain('table_counters');
    const rows = await db.selectFrom('table_counters').selectAll().where('table_id', 'in', [fullId, emptyId]).orderBy('table_id').execute();
    expect(rows.map((r) => ({ table_id: r.table_id, shard: r.shard, row_count: Number(r.row_count), change_count: Number(r.change_count) }))).toEqual([
      { table_id: fullId, shard: 0, row_count: 3, change_count: 0 },
      { table_id: emptyId, shard: 0, row_count: 0, change_count: 0 },
    ]);
  });

  it('the migration installed counter triggers on every existing record table', async () => {
    const expected = (tableId: number) => ['delete', 'insert', 'update'].map((event) => `rec_${tableId}_count_${event}`);
    for (const tableId of [fullId, emptyId]) {
      const { rows } =
        testEngine === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name = ${`rec_${tableId}`} and name like '%_count_%' order by name`.execute(db)
          : await sql<{ name: string }>`select tgname as name from pg_trigger where tgrelid = ${`rec_${tableId}`}::regclass and not tgisinternal and tgname like '%_count_%' order by tgname`.execute(db);
      expect(rows.map((r) => r.name)).toEqual(expected(tableId));
    }
  });

  it('an insert moves the summed row_count by +1 and change_count up', async () => {
    const before = await counters(fullId);
    await insertRecords(fullId, ['Delta']);
    const after = await counters(fullId);
    expect(after.rows).toBe(before.rows + 1);
    expect(after.rows).toBe(await realCount(fullId));
    expect(after.changes).toBeGreaterThan(before.changes);
  });

  it('a multi-row insert moves row_count by the rows inserted', async () => {
    const before = await counters(fullId);
    await insertRecords(fullId, ['Epsilon', 'Zeta', 'Eta']);
    const after = await counters(fullId);
    expect(after.rows).toBe(before.rows + 3);
    expect(after.rows).toBe(await realCount(fullId));
    expect(after.changes).toBeGreaterThan(before.changes);
  });

  it('a delete moves the summed row_count by -1 and change_count up', async () => {
    const before = await counters(fullId);
    await db.deleteFrom(`rec_${fullId}`).where(nameColumn, '=', 'Alpha').execute();
    const after = await counters(fullId);
    expect(after.rows).toBe(before.rows - 1);
    expect(after.rows).toBe(await realCount(fullId));
    expect(after.changes).toBeGreaterThan(before.changes);
  });

  it('an update keeps row_count and moves change_count up', async () => {
    const before = await counters(fullId);
    await db.updateTable(`rec_${fullId}`).set({ [nameColumn]: 'Beta 2' }).where(nameColumn, '=', 'Beta').execute();
    const after = await counters(fullId);
    expect(after.rows).toBe(before.rows);
    expect(after.changes).toBeGreaterThan(before.changes);
  });

  it('writes to one table leave the counters of the other table alone', async () => {
    expect(await counters(emptyId)).toEqual({ rows: 0, changes: 0, shards: 1 });
    await insertRecords(emptyId, ['Only']);
    const after = await counters(emptyId);
    expect(after.rows).toBe(1);
    expect(after.changes).toBeGreaterThan(0);
    await db.deleteFrom(`rec_${emptyId}`).execute();
    expect((await counters(emptyId)).rows).toBe(0);
    expect((await counters(fullId)).rows).toBe(await realCount(fullId));
  });

  it('every old table keeps its search text beside it after 0011 (SQLite: indexed without positions, merging at 8), without the _search column, and still finds its rows', async () => {
    for (const tableId of [fullId, emptyId, countedId]) {
      const { rows: columns } =
        testEngine === 'sqlite'
          ? await sql<{ name: string }>`select name from pragma_table_info(${`rec_${tableId}`})`.execute(db)
          : await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${`rec_${tableId}`}`.execute(db);
      expect(columns.map((c) => c.name)).not.toContain('_search');
      if (testEngine === 'sqlite') {
        expect(await automerge(tableId)).toBe(8);
        const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = ${`rec_${tableId}_fts`}`.execute(db);
        expect(rows[0].sql).toMatch(/detail=none/);
        expect(rows[0].sql).toContain(`content='rec_${tableId}_search'`);
      } else {
        const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${`rec_${tableId}_search`} and indexname = ${`rec_${tableId}_search_text`}`.execute(db);
        expect(rows).toHaveLength(1);
      }
    }
    const search = recordSearchOf(testEngine);
    for (const [tableId, term] of [[fullId, 'gamma'], [countedId, 'lambd']] as const) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${recordTable(tableId)} where ${search.condition(`rec_${tableId}`, [term])}`.execute(db);
      expect(Number(rows[0].n)).toBe(1);
    }
  });

  describe('the migrated database behind the app', () => {
    let served: TestContext;
    let key: string;

    const post = async (url: string, body: unknown) => {
      const response = await served.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      return { status: response.statusCode, body: response.json() };
    };

    beforeAll(async () => {
      served = await buildSecondApp(database);
      key = (await served.container.services.keys.createKey({ accountId, name: 'migrated' })).key;
    });
    afterAll(async () => {
      await served?.close();
    });

    it('counts, filtered counts and writes through HTTP agree with the table', async () => {
      const rows = await realCount(fullId);
      expect((await post(`/api/table/${fullId}/records/count`, {})).body).toEqual({ count: rows, total: rows, total_approx: false, restricted: false });
      expect((await post(`/api/table/${fullId}/records/count`, { where: { name: 'Gamma' } })).body).toEqual({ count: 1, total: rows, total_approx: false, restricted: true });
      const created = await post(`/api/table/${fullId}/records/create`, { data: { name: 'Gamma' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect((await post(`/api/table/${fullId}/records/count`, { where: { name: 'Gamma' } })).body).toEqual({ count: 2, total: rows + 1, total_approx: false, restricted: true });
      expect((await post(`/api/table/${fullId}/records/count`, { search: 'gamm' })).body).toEqual({ count: 2, total: rows + 1, total_approx: false, restricted: true });
      expect((await post(`/api/table/${fullId}/record/${created.body.id}/delete`, {})).status).toBe(200);
      expect((await post(`/api/table/${fullId}/records/count`, { where: { name: 'Gamma' } })).body).toEqual({ count: 1, total: rows, total_approx: false, restricted: true });
      expect((await post(`/api/table/${emptyId}/records/count`, {})).body).toEqual({ count: 0, total: 0, total_approx: false, restricted: false });
    });

    it('record tables made at 0002 and at 0005, migrated step by step, have exactly the schema of one made today', async () => {
      const fresh = await post(`/api/space/${spaceId}/tables/create`, { name: 'Fresh', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
      const today = await recordTableSignature(db, testEngine, fresh.body.id);
      expect(today.length).toBeGreaterThan(3);
      expect(await recordTableSignature(db, testEngine, fullId)).toEqual(today);
      expect(await recordTableSignature(db, testEngine, countedId)).toEqual(today);
    });
  });
});
