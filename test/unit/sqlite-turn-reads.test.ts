import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStatementCache } from '../../src/db/sqlite-connection.js';
import { createTurnReads } from '../../src/db/sqlite-turn-reads.js';

/** The direct reader's reads of one turn, in one read transaction (sqlite-turn-reads.ts). */
describe('reads of one turn', () => {
  let dir: string;
  let writer: SqliteDatabase.Database;
  let reader: SqliteDatabase.Database;
  let read: ReturnType<typeof createTurnReads>;
  /** Whether each `select in_transaction()` ran inside an explicit transaction. */
  let seen: boolean[];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-turn-reads-'));
    writer = new SqliteDatabase(path.join(dir, 'db.sqlite'));
    writer.pragma('journal_mode = WAL');
    writer.exec('create table t (id integer primary key, v text)');
    writer.prepare('insert into t (v) values (?)').run('first');
    reader = new SqliteDatabase(path.join(dir, 'db.sqlite'));
    seen = [];
    reader.function('in_transaction', () => {
      seen.push(reader.inTransaction);
      return 1;
    });
    read = createTurnReads(reader, createStatementCache(reader));
  });
  afterEach(() => {
    reader.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('run together in one read transaction, each answered with its own rows', async () => {
    const answers = await Promise.all([read('select in_transaction() as x', []), read('select v from t where id = ?', [1]), read('select count(*) as n from t', [])]);
    expect(answers).toEqual([[{ x: 1 }], [{ v: 'first' }], [{ n: 1 }]]);
    expect(seen).toEqual([true]);
    expect(reader.inTransaction).toBe(false);
  });

  it('a read alone runs as it is, without a transaction of its own', async () => {
    await read('select in_transaction() as x', []);
    expect(seen).toEqual([false]);
  });

  it('begin after they were asked: a read sees a write committed after it was asked', async () => {
    const asked = read('select v from t order by id', []);
    writer.prepare('insert into t (v) values (?)').run('second');
    expect(await asked).toEqual([{ v: 'first' }, { v: 'second' }]);
  });

  it('a read failing as it runs fails alone; the others answer and the transaction ends', async () => {
    const results = await Promise.allSettled([read('select v from t', []), read('select json_extract(?, ?) as x', ['not json', '$']), read('select in_transaction() as x', [])]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/malformed JSON/);
    expect(seen).toEqual([true]);
    expect(reader.inTransaction).toBe(false);
    // The next turn's reads run as before.
    expect(await read('select v from t', [])).toEqual([{ v: 'first' }]);
  });

  it('a transaction that cannot begin fails the turn\'s reads instead of the process', async () => {
    reader.exec('begin'); // a transaction left open: the turn's own begin fails
    const results = await Promise.allSettled([read('select v from t', []), read('select v from t', [])]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/within a transaction/);
    reader.exec('commit');
    expect(await Promise.all([read('select v from t', []), read('select in_transaction() as x', [])])).toEqual([[{ v: 'first' }], [{ x: 1 }]]);
  });

  it('a statement that cannot be prepared fails at once, before the turn', async () => {
    await expect(read('select v from missing', [])).rejects.toThrow(/no such table: missing/);
  });
});
