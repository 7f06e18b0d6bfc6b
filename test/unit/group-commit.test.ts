import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { sqliteFileOf } from '../../src/db/existing-database.js';
import { createGroupCommit } from '../../src/modules/changes/group-commit.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

/**
 * Writes that arrive together share one commit (src/modules/changes/group-commit.ts; the write
 * unit uses it on SQLite, whose one writer commits one transaction at a time). Each write is
 * still all or nothing by itself, and none is acknowledged before the commit that holds it.
 * Run on both engines: the mechanism is plain SQL savepoints, which PostgreSQL has too.
 */
describe(`writes sharing a commit (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    await sql`create table group_parent (id integer primary key)`.execute(db);
    await sql`insert into group_parent (id) values (1)`.execute(db);
    // Checked at commit, not at the insert: a way to make a commit fail.
    await sql`create table group_rows (id integer primary key, label text not null, parent_id integer references group_parent (id) deferrable initially deferred)`.execute(db);
  });

  beforeEach(async () => {
    await sql`delete from group_rows`.execute(db);
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  /** The rows another connection sees: committed ones only. */
  async function committedRows(): Promise<number> {
    if (database.databaseUrl) {
      const client = new pg.Client({ connectionString: database.databaseUrl });
      await client.connect();
      try {
        return Number((await client.query('select count(*) as n from group_rows')).rows[0].n);
      } finally {
        await client.end();
      }
    }
    const reader = new SqliteDatabase(sqliteFileOf(database.dataDir), { readonly: true });
    try {
      return Number((reader.prepare('select count(*) as n from group_rows').get() as { n: number }).n);
    } finally {
      reader.close();
    }
  }

  /** Bounds no test reaches by its time: the outside look above takes milliseconds. */
  const unhurried = { maxWrites: 64, maxMs: 60_000 };

  const labels = async () => (await sql<{ label: string }>`select label from group_rows order by id`.execute(db)).rows.map((row) => row.label);

  it('commits writes asked for together once, each answered only after that commit', async () => {
    const inGroup = createGroupCommit(opened.db, { bounds: unhurried });
    const seenInside: number[] = [];
    const seenOutside: number[] = [];
    const writes = Array.from({ length: 20 }, (_, n) =>
      inGroup(async (trx) => {
        await sql`insert into group_rows (id, label) values (${n + 1}, ${`w${n}`})`.execute(trx);
        // Inside the group the earlier writes of the group are there already; outside, none yet.
        const { rows } = await sql<{ n: number }>`select count(*) as n from group_rows`.execute(trx);
        seenInside.push(Number(rows[0].n));
        seenOutside.push(await committedRows());
        return n;
      }),
    );
    expect(await Promise.all(writes)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(seenInside).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
    expect(seenOutside).toEqual(Array.from({ length: 20 }, () => 0));
    expect(await committedRows()).toBe(20);
  });

  it('takes into one commit a write asked on the next turn, as a create asks after its turn of reads', async () => {
    const inGroup = createGroupCommit(opened.db, { bounds: unhurried });
    const seenOutside: number[] = [];
    const write = (n: number) =>
      inGroup(async (trx) => {
        await sql`insert into group_rows (id, label) values (${n}, ${`w${n}`})`.execute(trx);
        seenOutside.push(await committedRows());
      });
    const first = write(1);
    // Asked on the turn after the first: as db/sqlite-turn-reads.ts resolves a turn's reads.
    const second = new Promise<void>((resolve, reject) => setImmediate(() => write(2).then(resolve, reject)));
    await Promise.all([first, second]);
    // Neither saw the other committed: one group, one commit (a group started on the first's next turn fails this: [0, 1]).
    expect(seenOutside).toEqual([0, 0]);
    expect(await committedRows()).toBe(2);
  });

  it('starts a new group past its number of writes', async () => {
    const inGroup = createGroupCommit(opened.db, { bounds: { maxWrites: 5, maxMs: 60_000 } });
    const seenOutside: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        inGroup(async (trx) => {
          await sql`insert into group_rows (id, label) values (${n + 1}, ${`w${n}`})`.execute(trx);
          seenOutside.push(await committedRows());
        }),
      ),
    );
    expect(seenOutside).toEqual([0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10]);
  });

  it('rolls back only the write that failed; the others of its group stand', async () => {
    const inGroup = createGroupCommit(opened.db);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, n) =>
        inGroup(async (trx) => {
          await sql`insert into group_rows (id, label) values (${n + 1}, ${`w${n}`})`.execute(trx);
          await sql`insert into group_rows (id, label) values (${n + 100}, ${`w${n} second row`})`.execute(trx);
          if (n % 3 === 1) throw new Error(`write ${n} refused`);
          return n;
        }),
      ),
    );
    outcomes.forEach((outcome, n) => {
      if (n % 3 === 1) expect(outcome).toMatchObject({ status: 'rejected', reason: { message: `write ${n} refused` } });
      else expect(outcome).toEqual({ status: 'fulfilled', value: n });
    });
    const kept = Array.from({ length: 12 }, (_, n) => n).filter((n) => n % 3 !== 1);
    expect(await labels()).toEqual([...kept.map((n) => `w${n}`), ...kept.map((n) => `w${n} second row`)]);
  });

  it('fails every write of a group whose commit fails, and stores none of them', async () => {
    // Unhurried: under load five writes' round trips can pass 20 ms and split the group in two.
    const inGroup = createGroupCommit(opened.db, { bounds: unhurried });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, n) =>
        inGroup(async (trx) => {
          // Write 3 names a parent that does not exist: refused at commit, for the whole transaction.
          await sql`insert into group_rows (id, label, parent_id) values (${n + 1}, ${`w${n}`}, ${n === 3 ? 999 : 1})`.execute(trx);
          return n;
        }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(await labels()).toEqual([]);
    // The next group commits as usual.
    expect(await inGroup(async (trx) => sql`insert into group_rows (id, label) values (1, 'after')`.execute(trx).then(() => 'ok'))).toBe('ok');
    expect(await labels()).toEqual(['after']);
  });

  it('takes a write asked for while its group runs (in that group or the next)', async () => {
    const inGroup = createGroupCommit(opened.db);
    let second: Promise<string> | undefined;
    const first = inGroup(async (trx) => {
      await sql`insert into group_rows (id, label) values (1, 'first')`.execute(trx);
      // Asked from inside the running group: it must not be lost, nor wait for ever.
      second = inGroup(async (inner) => {
        await sql`insert into group_rows (id, label) values (2, 'second')`.execute(inner);
        return 'second';
      });
      return 'first';
    });
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(await labels()).toEqual(['first', 'second']);
  });
});
