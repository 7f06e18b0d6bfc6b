import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultQuerySlots, runBoundedRead } from '../../src/db/bounded-read.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { runRead } from '../../src/db/prepared-query.js';
import { runBackgroundWrite } from '../../src/db/background-write.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-database.js';
import { startWorker } from '../../src/db/start-worker.js';

// Every worker thread the database starts, counted: the threads themselves are the real ones.
vi.mock('../../src/db/start-worker.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/db/start-worker.js')>();
  return { ...actual, startWorker: vi.fn(actual.startWorker) };
});
const queryThreadsStarted = () => vi.mocked(startWorker).mock.calls.filter(([name]) => name === 'sqlite-read-worker').length;

/**
 * How much CPU record queries may take (issue 11, heavy + light). Risks guarded against:
 * - more slots than cores by default, so heavy queries crowd out the cheap calls;
 * - PostgreSQL parallel workers on the bounded pool, which let each slot take several cores
 *   (four slow counts with one worker each made a get's p99 9× its p99 alone on two cores);
 * - PostgreSQL's JIT compilation on that pool: 15-20 ms before a cheap statement whose cost is
 *   estimated past `jit_above_cost` (a count's window over the change log).
 */
describe('bounded record queries', () => {
  it('default to one slot per usable core, at least two', () => {
    expect(defaultQuerySlots()).toBe(Math.max(2, os.availableParallelism()));
  });

  // A command streams a table through once; the server's page caches were a fifth of an
  // export's memory (docs/decisions.md, "Export memory").
  describe.runIf(testEngine === 'sqlite')('on SQLite', () => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await createTestDatabase();
    });
    afterAll(async () => {
      await testDb?.drop();
    });

    async function cacheSizes(options: { sqliteCacheKib?: number }) {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, ...options });
      try {
        const pragma = CompiledQuery.raw('pragma cache_size') as CompiledQuery<{ cache_size: number }>;
        return { reader: (await runRead(database.db, pragma))[0].cache_size, worker: (await runBoundedRead<{ cache_size: number }>(database.db, pragma, { account: '1', key: 'key:1' }))[0].cache_size };
      } finally {
        await database.destroy();
      }
    }

    it('give the read connection and each query worker 8 MiB of page cache, unless told less', async () => {
      expect(await cacheSizes({})).toEqual({ reader: -8 * 1024, worker: -8 * 1024 });
      expect(await cacheSizes({ sqliteCacheKib: 2048 })).toEqual({ reader: -2048, worker: -2048 });
    });

    it('build an index on a connection with 2 MiB of page cache, whatever the server has, and leave the writer at its own 8 MiB', async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir });
      try {
        // The build's own connection records the cache it ran with, through the statement it was given.
        await database.runLongDdl('create table ddl_cache as select cache_size from pragma_cache_size()');
        expect((await sql<{ cache_size: number }>`select cache_size from ddl_cache`.execute(database.db)).rows).toEqual([{ cache_size: -2048 }]);
        expect((await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows).toEqual([{ cache_size: -8192 }]);
        await sql`drop table ddl_cache`.execute(database.db);
      } finally {
        await database.destroy();
      }
    });

    /** Pages SQLite has in the database file itself (the WAL's not yet copied back are not counted). */
    const filePages = (dataDir = testDb.dataDir) => Math.floor(fs.statSync(path.join(dataDir, 'tabula.db')).size / 4096);

    /** Writes about 2,350 pages (9.6 MB) in one transaction: over SQLite's default checkpoint size, under the backstop. */
    async function writePages(database: Database): Promise<void> {
      await sql`create table if not exists scratch (body blob)`.execute(database.db);
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 600; i += 1) await sql`insert into scratch (body) values (randomblob(16000))`.execute(trx);
      });
    }

    it('a query worker copies the WAL back into the file in the background; the writer does not', async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteCheckpointEveryMs: 300 });
      try {
        const before = filePages();
        await writePages(database);
        // The writer's commit left the pages in the WAL (the backstop, 8,000 pages, was not reached),
        // and the worker's next turn, at most 300 ms away, copies them.
        expect(filePages() - before).toBeLessThan(100);
        await expect.poll(() => filePages() - before, { timeout: 5000, interval: 20 }).toBeGreaterThan(2300);
      } finally {
        await database.destroy();
      }
    });

    it('a query asked while a checkpoint or a background write is under way runs on a worker already open: no query waits for a thread to start', async () => {
      // Turns 5 ms apart under writes that never stop, so that each has frames to copy and a file
      // to sync; background writes (the search index's catch-up) beside them.
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteCheckpointEveryMs: 5 });
      try {
        const startedWithTheDatabase = queryThreadsStarted();
        await sql`create table if not exists scratch (body blob)`.execute(database.db);
        const until = Date.now() + 1500;
        const writing = (async () => {
          for (let n = 0; Date.now() < until; n += 1) {
            const insert = sql`insert into scratch (body) values (randomblob(16000))`;
            if (n % 4 === 0) await runBackgroundWrite(database.db, [insert.compile(database.db)]);
            else await insert.execute(database.db);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })();
        // Queries a moment apart, as a server's come: back to back, they would leave no worker
        // idle for a checkpoint to take.
        let queries = 0;
        for (; Date.now() < until; queries += 1) {
          await runBoundedRead(database.db, CompiledQuery.raw('select count(*) from scratch'), { account: '1', key: 'key:1' });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        await writing;
        expect(queries).toBeGreaterThan(50);
        // When checkpoints and background writes took an idle query worker, a query arriving
        // meanwhile started a thread and waited for it to open (60 ms: issue 32's slow counts).
        expect(queryThreadsStarted()).toBe(startedWithTheDatabase);
      } finally {
        await database.destroy();
      }
    });

    it('a query worker terminated past a query deadline: the WAL is still copied back', async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteCheckpointEveryMs: 50, queryTimeoutMs: 100 });
      try {
        // A statement that never asks for its budget (a few seconds of SQLite's own work) runs
        // past the deadline and the grace after it, and its thread is terminated once the
        // statement returns; another stands in its place.
        const endless = CompiledQuery.raw('with recursive c(x) as (select 1 union all select x + 1 from c where x < 50000000) select count(*) from c');
        await expect(runBoundedRead(database.db, endless, { account: '1', key: 'key:1' })).rejects.toThrow(/time/i);
        const before = filePages();
        await writePages(database);
        await expect.poll(() => filePages() - before, { timeout: 5000, interval: 20 }).toBeGreaterThan(2300);
      } finally {
        await database.destroy();
      }
    });

    /** How many times the WAL has started again from its beginning: its header's checkpoint sequence number (SQLite's file format, "WAL File Format"). */
    function walRestarts(): number {
      const header = Buffer.alloc(16);
      const wal = fs.openSync(path.join(testDb.dataDir, 'tabula.db-wal'), 'r');
      try {
        fs.readSync(wal, header, 0, 16, 0);
      } finally {
        fs.closeSync(wal);
      }
      return header.readUInt32BE(12);
    }

    it('under writes that never stop, the WAL starts again at its length bound, without the writer checkpointing', async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteCheckpointEveryMs: 30, sqliteRestartWalPages: 1000 });
      try {
        await sql`create table if not exists scratch (body blob)`.execute(database.db);
        const before = walRestarts();
        // Small commits about a millisecond apart, as a server's requests come: a checkpoint beside
        // them never finds the WAL's end with no write after it. About 5 pages a commit, at most
        // 20,000 pages in all: the writer's own checkpoint, at 32,000, is never reached.
        let commits = 0;
        while (walRestarts() < before + 2 && commits < 4000) {
          await sql`insert into scratch (body) values (randomblob(16000))`.execute(database.db);
          commits += 1;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        expect(walRestarts()).toBeGreaterThanOrEqual(before + 2);
        const [{ rows }] = (await sql<{ rows: number }>`select count(*) as rows from scratch`.execute(database.db)).rows;
        expect(rows).toBeGreaterThanOrEqual(commits);
      } finally {
        await database.destroy();
      }
    });

    /**
     * A database of its own, in a new file: SQLite keeps a file's locks per process, and one that
     * already has a connection to it from an earlier test takes no lock from the system again.
     */
    async function withFreshDatabase(test: (dataDir: string) => Promise<void>): Promise<void> {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-locks-'));
      try {
        await test(dataDir);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }

    /** The POSIX locks this process holds on the database file (Linux's /proc/locks: `1: POSIX ADVISORY READ <pid> <dev>:<inode> <start> <end>`). */
    function locksOnDatabaseFile(dataDir: string): string[] {
      const inode = fs.statSync(path.join(dataDir, 'tabula.db')).ino;
      return fs
        .readFileSync('/proc/locks', 'utf8')
        .split('\n')
        .filter((line) => {
          const fields = line.trim().split(/\s+/);
          return fields[4] === String(process.pid) && fields[5]?.endsWith(`:${inode}`);
        });
    }

    // POSIX drops every lock a process holds on a file when any descriptor of that file is closed
    // in it. The syncs after background checkpoints once opened and closed a descriptor of their
    // own: the connections lost their shared lock on the file, and another process's connection
    // (Debian's `sqlite3` shell), closing, took itself for the last one and deleted the WAL under
    // the server: a corrupt database (src/db/sqlite-file-descriptor.ts).
    it.runIf(process.platform === 'linux')('keeps its shared lock on the database file through the background checkpoints and the syncs after them', async () => {
      await withFreshDatabase(async (dataDir) => {
        const database = await openDatabase({ databaseUrl: null, dataDir, sqliteCheckpointEveryMs: 20 });
        try {
          await sql`select 1`.execute(database.db);
          const held = locksOnDatabaseFile(dataDir);
          expect(held.length).toBeGreaterThan(0);
          const before = filePages(dataDir);
          await writePages(database);
          // Copied back by a checkpoint and synced after it, then a few more turns.
          await expect.poll(() => filePages(dataDir) - before, { timeout: 5000, interval: 20 }).toBeGreaterThan(2300);
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(locksOnDatabaseFile(dataDir)).toEqual(held);
        } finally {
          await database.destroy();
        }
      });
    });

    it.runIf(process.platform === 'linux')('closes its descriptor of the file once the last database of the process holding it is closed, not before', async () => {
      await withFreshDatabase(async (dataDir) => {
        const descriptorsOfFile = () =>
          fs.readdirSync('/proc/self/fd').filter((fd) => {
            try {
              return fs.readlinkSync(`/proc/self/fd/${fd}`) === path.join(fs.realpathSync(dataDir), 'tabula.db');
            } catch {
              return false;
            }
          }).length;
        const first = await openDatabase({ databaseUrl: null, dataDir });
        // The same file under another spelling of its path: one descriptor held for both.
        const second = await openDatabase({ databaseUrl: null, dataDir: `${dataDir}/.` });
        await sql`select 1`.execute(second.db);
        expect(locksOnDatabaseFile(dataDir).length).toBeGreaterThan(0);
        const open = descriptorsOfFile();
        await first.destroy();
        // The second's connections keep their lock: no descriptor of the file was closed beside them.
        expect(locksOnDatabaseFile(dataDir).length).toBeGreaterThan(0);
        await second.destroy();
        expect(descriptorsOfFile()).toBeLessThan(open);
      });
    });

    it('without background checkpoints the writer checkpoints in its commit, as SQLite does by default', async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: testDb.dataDir, sqliteCheckpointEveryMs: 0 });
      try {
        const before = filePages();
        await writePages(database);
        expect(filePages() - before).toBeGreaterThan(2300);
      } finally {
        await database.destroy();
      }
    });
  });

  describe.runIf(testEngine === 'postgres')('on PostgreSQL', () => {
    let testDb: TestDatabase;
    let database: Database;
    beforeAll(async () => {
      ({ database: testDb, opened: database } = await openRawDatabase());
    });
    afterAll(() => closeRawDatabase({ opened: database, database: testDb }));

    it('run without parallel workers or JIT compilation, within the time budget', async () => {
      const settings = await runBoundedRead<{ workers: string; timeout: string; jit: string }>(
        database.db,
        CompiledQuery.raw("select current_setting('max_parallel_workers_per_gather') as workers, current_setting('statement_timeout') as timeout, current_setting('jit') as jit"),
        { account: '1', key: 'key:1' },
      );
      expect(settings).toEqual([{ workers: '0', timeout: '10s', jit: 'off' }]);
    });
  });
});
