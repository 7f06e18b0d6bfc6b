import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackgroundWrite } from '../../src/db/background-write.js';
import type { Database } from '../../src/db/database.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import type { TestDatabase } from '../test-database.js';
import { testEngine } from '../test-database.js';

/**
 * A write no caller waits for (the search index's catch-up, db/background-write.ts): its
 * statements in one transaction, all or none; on a SQLite server on a query worker, with the
 * server's other writes paused for it (never beside them: one writer at a time, and the paused
 * writer waits in Kysely's queue, not in SQLite's busy handler on the event loop).
 */
describe('background writes', () => {
  let testDb: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;
  beforeAll(async () => {
    ({ database: testDb, opened, db } = await openRawDatabase());
    await sql`create table scratch (id integer primary key, note text not null)`.execute(db);
  });
  afterAll(() => closeRawDatabase({ opened, database: testDb }));

  const insert = (id: number, note: string) => sql`insert into scratch (id, note) values (${id}, ${note})`.compile(db);
  const notes = async () => (await sql<{ id: number; note: string }>`select id, note from scratch order by id`.execute(db)).rows.map((row) => [Number(row.id), row.note]);

  it('write their statements in one transaction: all of them, or none when one fails', async () => {
    await runBackgroundWrite(db, [insert(1, 'one'), insert(2, 'two')]);
    expect(await notes()).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    // The second statement breaks the primary key: the first one's row is not kept.
    await expect(runBackgroundWrite(db, [insert(3, 'three'), insert(1, 'again')])).rejects.toThrow(/unique|UNIQUE/);
    expect(await notes()).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it.runIf(testEngine === 'sqlite')('on SQLite wait for the write that holds the writer, and run after it', async () => {
    const order: string[] = [];
    let release!: () => void;
    // Another write under way: Kysely's one writer connection is held until released.
    const held = db.connection().execute(() => new Promise<void>((resolve) => (release = resolve)));
    const background = runBackgroundWrite(db, [insert(4, 'four')]).then(() => order.push('background write'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('writer released');
    release();
    await Promise.all([held, background]);
    expect(order).toEqual(['writer released', 'background write']);
    expect((await notes()).at(-1)).toEqual([4, 'four']);
  });
});
