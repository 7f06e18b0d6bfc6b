import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { classifyDatabaseError, describeDriverError, isUniqueViolation, translateDatabaseError } from '../../src/db/db-errors.js';
import { ConflictError, DatabaseBusyError, DatabaseUnavailableError, QueryTimeoutError } from '../../src/shared/errors.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

const options = { queryTimeoutMs: 2500 };

/** The error `work` fails with; fails the test if it succeeds. */
async function failure(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/**
 * Real errors from the real drivers, provoked on the test database of this run's engine, and
 * what db-errors.ts makes of them: the error a client or an operator sees, with the driver's
 * error as its cause.
 */
describe(`driver errors translated once per engine (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    await sql`create table errs_parent (id integer primary key, n integer not null default 0)`.execute(db);
    await sql`create table errs_child (id integer primary key, parent_id integer not null references errs_parent (id), name text unique)`.execute(db);
    await sql`insert into errs_parent (id) values (1), (2)`.execute(db);
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  const translate = (error: unknown) => translateDatabaseError(error, testEngine, options);

  it('answers a unique violation 409 conflict', async () => {
    const error = await failure(() => sql`insert into errs_parent (id) values (1)`.execute(db));
    expect(classifyDatabaseError(error, testEngine)).toBe('unique_violation');
    expect(isUniqueViolation(error, testEngine)).toBe(true);
    const translated = translate(error);
    expect(translated).toBeInstanceOf(ConflictError);
    expect(translated).toMatchObject({ status: 409, code: 'conflict', message: expect.stringMatching(/^Conflict: a value that must be unique is already in use/) });
    expect(translated!.cause).toBe(error);

    await sql`insert into errs_child (id, parent_id, name) values (1, 1, 'a')`.execute(db);
    const secondary = await failure(() => sql`insert into errs_child (id, parent_id, name) values (2, 1, 'a')`.execute(db));
    expect(translate(secondary)).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('answers a foreign-key violation 409 conflict', async () => {
    const error = await failure(() => sql`insert into errs_child (id, parent_id) values (10, 99)`.execute(db));
    expect(classifyDatabaseError(error, testEngine)).toBe('foreign_key_violation');
    expect(isUniqueViolation(error, testEngine)).toBe(false);
    expect(translate(error)).toMatchObject({ status: 409, code: 'conflict', message: expect.stringMatching(/^Conflict: the change refers to something that no longer exists/) });
  });

  it('leaves other statement errors alone: they stay 500s', async () => {
    for (const statement of [sql`select nonsense from nowhere_at_all`, sql`selec 1`]) {
      const error = await failure(() => statement.execute(db));
      expect(classifyDatabaseError(error, testEngine)).toBeNull();
      expect(translate(error)).toBeUndefined();
    }
    expect(translate(new Error('boom'))).toBeUndefined();
    expect(translate(new TypeError('x is not a function'))).toBeUndefined();
    expect(translate('a string')).toBeUndefined();
    expect(translate(null)).toBeUndefined();
  });

  describe.runIf(testEngine === 'sqlite')('SQLite', () => {
    const file = () => path.join(database.dataDir, 'tabula.db');

    it('answers SQLITE_BUSY 503 database_busy with Retry-After', async () => {
      const holder = new SqliteDatabase(file());
      const other = new SqliteDatabase(file());
      other.pragma('busy_timeout = 0');
      try {
        holder.exec('begin immediate');
        const error = await failure(() => other.exec('begin immediate'));
        expect((error as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
        const translated = translate(error);
        expect(translated).toBeInstanceOf(DatabaseBusyError);
        expect(translated).toMatchObject({ status: 503, code: 'database_busy', retryAfterSeconds: 1, message: 'Database busy: the request met a concurrent change and was not applied; try again' });
      } finally {
        holder.exec('rollback');
        holder.close();
        other.close();
      }
    });

    it('answers a database file that cannot be opened 503 database_unavailable', async () => {
      const directory = path.join(database.dataDir, 'not-a-file.db');
      fs.mkdirSync(directory);
      const error = await failure(() => new SqliteDatabase(directory));
      expect((error as { code?: string }).code).toBe('SQLITE_CANTOPEN');
      expect(translate(error)).toMatchObject({ status: 503, code: 'database_unavailable', message: 'Database unavailable; try again later' });
      expect(describeDriverError(error)).toBe('unable to open database file (SQLITE_CANTOPEN)');
    });

    it('does not read a PostgreSQL code on SQLite', () => {
      expect(classifyDatabaseError(Object.assign(new Error('x'), { code: '23505' }), 'sqlite')).toBeNull();
    });
  });

  describe.runIf(testEngine === 'postgres')('PostgreSQL', () => {
    const clients: pg.Client[] = [];
    async function client(): Promise<pg.Client> {
      const opened = new pg.Client({ connectionString: database.databaseUrl! });
      await opened.connect();
      clients.push(opened);
      return opened;
    }
    afterAll(async () => {
      await Promise.all(clients.map((opened) => opened.end().catch(() => undefined)));
    });

    it('answers a serialization failure (40001) 503 database_busy', async () => {
      const [first, second] = [await client(), await client()];
      await first.query('begin isolation level repeatable read');
      try {
        await first.query('select n from errs_parent where id = 1');
        await second.query('update errs_parent set n = n + 1 where id = 1');
        const error = await failure(() => first.query('update errs_parent set n = n + 1 where id = 1'));
        expect((error as { code?: string }).code).toBe('40001');
        expect(translate(error)).toMatchObject({ status: 503, code: 'database_busy', retryAfterSeconds: 1 });
      } finally {
        await first.query('rollback');
      }
    });

    it('answers a deadlock (40P01) 503 database_busy', async () => {
      const [first, second] = [await client(), await client()];
      await first.query('begin');
      await second.query('begin');
      try {
        await first.query('update errs_parent set n = n + 1 where id = 1');
        await second.query('update errs_parent set n = n + 1 where id = 2');
        // Each now waits for the other; PostgreSQL ends one of them after deadlock_timeout (1 s).
        const outcomes = await Promise.allSettled([first.query('update errs_parent set n = n + 1 where id = 2'), second.query('update errs_parent set n = n + 1 where id = 1')]);
        const errors = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason);
        expect(errors).toHaveLength(1);
        expect(errors[0].code).toBe('40P01');
        expect(translate(errors[0])).toMatchObject({ status: 503, code: 'database_busy' });
      } finally {
        await first.query('rollback');
        await second.query('rollback');
      }
    });

    it('answers a statement timeout (57014) 503 query_timeout naming the budget', async () => {
      const session = await client();
      await session.query('set statement_timeout = 50');
      const error = await failure(() => session.query('select pg_sleep(5)'));
      expect((error as { code?: string }).code).toBe('57014');
      const translated = translate(error);
      expect(translated).toBeInstanceOf(QueryTimeoutError);
      expect(translated).toMatchObject({ status: 503, code: 'query_timeout', message: expect.stringContaining('the 2.5 s time budget') });
    });

    it('answers a refused connection 503 database_unavailable, through Kysely too', async () => {
      const refused = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/nothing', connectionTimeoutMillis: 5000 });
      const error = await failure(() => refused.connect());
      expect(classifyDatabaseError(error, 'postgres')).toBe('unavailable');
      expect(translate(error)).toBeInstanceOf(DatabaseUnavailableError);
      expect(translate(error)).toMatchObject({ status: 503, code: 'database_unavailable', message: 'Database unavailable; try again later' });
      expect(describeDriverError(error)).toBe('connect ECONNREFUSED 127.0.0.1:1');

      const unreachable = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/nothing', dataDir: database.dataDir });
      try {
        const viaKysely = await failure(() => sql`select 1`.execute(unreachable.db));
        expect(translate(viaKysely)).toMatchObject({ status: 503, code: 'database_unavailable' });
      } finally {
        await unreachable.destroy();
      }
    });

    it('answers a database that does not exist (3D000) 503 database_unavailable', async () => {
      const url = new URL(database.databaseUrl!);
      url.pathname = '/tabula_test_no_such_database';
      const missing = new pg.Client({ connectionString: url.toString() });
      const error = await failure(() => missing.connect());
      expect((error as { code?: string }).code).toBe('3D000');
      expect(translate(error)).toMatchObject({ status: 503, code: 'database_unavailable' });
    });

    it('answers a connection ended by the server (57P01) 503 database_unavailable', async () => {
      // Not among `clients`: the server ends it.
      const victim = new pg.Client({ connectionString: database.databaseUrl! });
      await victim.connect();
      const admin = await client();
      const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
      victim.on('error', () => undefined);
      await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
      const error = await failure(() => victim.query('select 1'));
      expect(classifyDatabaseError(error, 'postgres')).toBe('unavailable');
      expect(translate(error)).toMatchObject({ status: 503, code: 'database_unavailable' });
    });

    it('fails a transaction whose pooled connection the server ends, and the process lives on', async () => {
      const admin = await client();
      const error = await failure(() =>
        db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          // Between two statements the client is checked out and idle: the server's FATAL message
          // arrives as an 'error' event with no query to reject (unheard, an uncaught exception).
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 1`.execute(trx);
        }),
      );
      expect(translate(error)).toMatchObject({ status: 503, code: 'database_unavailable' });
      // The pool dropped the dead client: the next statement gets a live one.
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    });

    it('does not read an SQLite code on PostgreSQL', () => {
      expect(classifyDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }), 'postgres')).toBeNull();
    });
  });
});
