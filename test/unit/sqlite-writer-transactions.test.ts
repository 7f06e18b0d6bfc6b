import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { sqliteFileOf } from '../../src/db/existing-database.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-database.js';

/**
 * SQLite: the writer's transactions take the write lock at their start (BEGIN IMMEDIATE), so a
 * transaction that reads before it writes is never refused at its write because another
 * connection (another process: a CLI command's search catch-up) committed in between. With a
 * deferred BEGIN the write below fails with SQLITE_BUSY_SNAPSHOT, which no busy timeout retries.
 * PostgreSQL has no such failure: its row locks wait.
 */
describe.runIf(testEngine === 'sqlite')('the SQLite writer\'s transactions', () => {
  let testDb: TestDatabase;
  let database: Database;
  let other: SqliteDatabase.Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir });
    await sql`create table writer_probe (id integer primary key, value text)`.execute(database.db);
    await sql`insert into writer_probe (id, value) values (1, 'first')`.execute(database.db);
    // Another process's connection: it does not wait for the lock, so that it cannot block this thread.
    other = new SqliteDatabase(sqliteFileOf(testDb.dataDir));
    other.pragma('busy_timeout = 0');
  });
  afterAll(async () => {
    other?.close();
    await database?.destroy();
    await testDb?.drop();
  });

  it('hold the write lock from their begin: a read, another connection\'s write, then the transaction\'s own write', async () => {
    let othersWrite: unknown;
    await database.db.transaction().execute(async (trx) => {
      const row = await sql<{ value: string }>`select value from writer_probe where id = 1`.execute(trx);
      expect(row.rows[0].value).toBe('first');
      try {
        other.prepare(`insert into writer_probe (id, value) values (2, 'other')`).run();
      } catch (error) {
        othersWrite = error;
      }
      await sql`update writer_probe set value = 'written' where id = 1`.execute(trx);
    });
    // The other connection met the lock and would retry; the transaction's write stood.
    expect((othersWrite as { code?: string } | undefined)?.code).toBe('SQLITE_BUSY');
    expect(other.prepare('select id, value from writer_probe order by id').all()).toEqual([{ id: 1, value: 'written' }]);
  });

  it('runs with a server\'s page cache (8 MiB, as its readers\'), and a command\'s with better-sqlite3\'s 16 MB', async () => {
    const cacheOf = async (db: Database['db']) => (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0].cache_size;
    expect(await cacheOf(database.db)).toBe(-8192);
    const command = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteWriterCacheKib: 0, sqliteCheckpointEveryMs: 0 });
    try {
      expect(await cacheOf(command.db)).toBe(-16000);
    } finally {
      await command.destroy();
    }
  });
});

