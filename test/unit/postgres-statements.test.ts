import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { arrayBound, arrayLiteral, arrayRows } from '../../src/db/postgres-arrays.js';
import { maxStatementsPerConnection } from '../../src/db/postgres-pool.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

/**
 * Statements through the PostgreSQL pool are prepared by name (src/db/postgres-pool.ts): parsed
 * and planned once per connection. What must hold besides: the prepared statements of a
 * connection stay bounded, a statement whose result columns changed under it fails once and not
 * for ever, and a statement that fails to prepare is prepared again on its next run.
 * SQLite has no such pool: its statements are prepared by better-sqlite3.
 */
describe.runIf(testEngine === 'postgres')('statements prepared by name on PostgreSQL', () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    await sql`create table named_rows (id integer primary key, label text not null)`.execute(db);
    await sql`insert into named_rows (id, label) values (1, 'one'), (2, 'two')`.execute(db);
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  /** Runs `work` on one pooled connection, with that connection's backend pid. */
  function onOneConnection<T>(work: (connection: Kysely<any>, pid: number) => Promise<T>): Promise<T> {
    return db.connection().execute(async (connection) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
      return work(connection, rows[0].pid);
    });
  }

  /** Whether the server still has the backend `pid`, asked until it is gone (pg-pool ends a connection as it is released) or a second has passed. */
  async function backendAlive(pid: number): Promise<boolean> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const { rows } = await sql<{ alive: number }>`select count(*)::int as alive from pg_stat_activity where pid = ${pid}`.execute(db);
      if (rows[0].alive === 0) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  }

  const preparedTexts = async (connection: Kysely<any>) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)).rows.map((row) => row.statement);

  it('prepares a statement once per connection and runs it with new values', async () => {
    await onOneConnection(async (connection) => {
      const read = (id: number) => connection.selectFrom('named_rows').select('label').where('id', '=', id).executeTakeFirst();
      expect(await read(1)).toEqual({ label: 'one' });
      expect(await read(2)).toEqual({ label: 'two' });
      expect(await read(3)).toBeUndefined();
      const texts = await preparedTexts(connection);
      expect(texts.filter((text) => text.includes('from "named_rows"'))).toHaveLength(1);
    });
  });

  it('names no transaction control or schema statement', async () => {
    await db.transaction().execute(async (trx) => {
      await sql`create table named_ddl_probe (id integer)`.execute(trx);
      const texts = await preparedTexts(trx);
      expect(texts.some((text) => /^\s*(begin|create)/i.test(text))).toBe(false);
    });
  });

  it('prepares again a statement that failed to prepare (a table made after its first run)', async () => {
    await onOneConnection(async (connection) => {
      const read = () => sql`select count(*)::int as n from named_late`.execute(connection);
      await expect(read()).rejects.toThrow(/relation "named_late" does not exist/);
      await expect(read()).rejects.toThrow(/relation "named_late" does not exist/);
      await sql`create table named_late (id integer)`.execute(connection);
      expect((await read()).rows).toEqual([{ n: 0 }]);
    });
  });

  it('fails once, not for ever, when a statement’s result columns change under it', async () => {
    await sql`create table named_widening (id integer)`.execute(db);
    await sql`insert into named_widening (id) values (1)`.execute(db);
    const readAll = (connection: Kysely<any>) => connection.selectFrom('named_widening').selectAll().execute();
    const firstPid = await onOneConnection(async (connection, pid) => {
      expect(await readAll(connection)).toEqual([{ id: 1 }]);
      // Another process's migration, in effect: the table gains a column.
      await sql`alter table named_widening add column extra text`.execute(db);
      await expect(readAll(connection)).rejects.toThrow(/cached plan must not change result type/);
      return pid;
    });
    // That connection was closed on release: whichever connection serves next prepares afresh.
    for (let round = 0; round < 12; round += 1) expect(await readAll(db)).toEqual([{ id: 1, extra: null }]);
    expect(await backendAlive(firstPid)).toBe(false);
  });

  it(`closes a connection that has prepared ${maxStatementsPerConnection} statements when it is released`, async () => {
    const pid = await onOneConnection(async (connection, pid) => {
      for (let n = 0; n < maxStatementsPerConnection; n += 1) await sql`select ${sql.lit(n)}::int as n, label from named_rows where id = ${1}`.execute(connection);
      expect((await preparedTexts(connection)).length).toBeGreaterThanOrEqual(maxStatementsPerConnection);
      return pid;
    });
    expect(await backendAlive(pid)).toBe(false);
    expect(await db.selectFrom('named_rows').select('label').where('id', '=', 2).executeTakeFirst()).toEqual({ label: 'two' });
  });

  it('plans a statement over an array parameter once: with its bound, PostgreSQL keeps the generic plan', async () => {
    await onOneConnection(async (connection) => {
      const read = (ids: number[]) =>
        connection
          .selectFrom(sql<{ want: number }>`${arrayRows(arrayLiteral(ids), 'bigint', 'want', arrayBound(ids.length))}`.as('w'))
          .innerJoin('named_rows as r', (join) => join.onRef('r.id', '=', 'w.want'))
          .select('r.label')
          .execute();
      for (let run = 0; run < 8; run += 1) expect(await read([1 + (run % 2)])).toEqual([{ label: run % 2 === 0 ? 'one' : 'two' }]);
      const { rows } = await sql<{ generic_plans: number }>`select generic_plans::int from pg_prepared_statements where statement like '%unnest%named_rows%' and statement not like '%pg_prepared_statements%'`.execute(connection);
      expect(rows).toHaveLength(1);
      expect(rows[0].generic_plans).toBeGreaterThan(0);
    });
  });
});
