import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, type Database } from '../../src/db/database.js';
import {
  createMetadataCache,
  createMetadataReads,
  readMetadataVersion,
  StaleMetadataError,
  versionOfRows,
} from '../../src/db/metadata-cache.js';
import { closeRawDatabase, openRawDatabase } from '../raw-database.js';
import { testEngine, type TestDatabase } from '../test-database.js';

/**
 * The per-process metadata cache (src/db/metadata-cache.ts) and the version counter it trusts.
 * Risks guarded against:
 * - the cache serving an entry read at an older metadata version once a newer one was seen
 *   (a revoked key or a removed membership still honoured), or keeping a late, older read;
 * - the cache growing without bound (LRU eviction);
 * - one request reading the same metadata twice, or confirming cached entries that disagree
 *   with the version its own statement saw (mixed snapshots across processes);
 * - a PostgreSQL bigint version (a string) compared as text instead of as a number;
 * - the trigger-maintained counter not moving on a metadata write, or versionOfRows not
 *   falling back to a fresh read;
 * - on PostgreSQL, the counter row turning two metadata writers into a deadlock (the bump is
 *   a deferred constraint trigger so that row is always the last lock a transaction takes).
 */

const value = (name: string) => ({ name });

/** A promise with its resolve exposed, to hold a read open while a second load starts. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createMetadataCache', () => {
  it('get returns an entry while no newer version has been observed', () => {
    const cache = createMetadataCache();
    cache.set('k', 3, value('a'));
    expect(cache.get('k')).toEqual({ version: 3, value: value('a') });
    cache.observe(3);
    cache.observe(2);
    expect(cache.get('k')).toEqual({ version: 3, value: value('a') });
    expect(cache.get('missing')).toBeUndefined();
  });

  it('observe(newer) drops every older entry', () => {
    const cache = createMetadataCache();
    cache.set('a', 3, value('a'));
    cache.set('b', 3, value('b'));
    cache.observe(4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    // Gone, not merely hidden: observing the old version again does not bring them back.
    cache.observe(3);
    expect(cache.get('a')).toBeUndefined();
  });

  it('set with a version older than the newest seen stores nothing', () => {
    const cache = createMetadataCache();
    cache.observe(10);
    cache.set('k', 9, value('late'));
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', 10, value('current'));
    cache.set('k', 9, value('late'));
    expect(cache.get('k')).toEqual({ version: 10, value: value('current') });
  });

  it('set with a newer version drops older entries and stores', () => {
    const cache = createMetadataCache();
    cache.set('a', 1, value('a1'));
    cache.set('b', 1, value('b1'));
    cache.set('c', 2, value('c2'));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toEqual({ version: 2, value: value('c2') });
  });

  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = createMetadataCache(3);
    cache.set('a', 1, value('a'));
    cache.set('b', 1, value('b'));
    cache.set('c', 1, value('c'));
    expect(cache.get('a')).toBeDefined(); // a is now more recent than b
    cache.set('d', 1, value('d'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual({ version: 1, value: value('a') });
    expect(cache.get('c')).toEqual({ version: 1, value: value('c') });
    expect(cache.get('d')).toEqual({ version: 1, value: value('d') });
  });
});

describe('createMetadataReads', () => {
  it('cached: a hit is served without calling read', async () => {
    const cache = createMetadataCache();
    cache.set('k', 5, value('cached'));
    const reads = createMetadataReads(cache, true);
    const read = vi.fn(async () => ({ version: 5, value: value('fresh') }));
    expect(await reads.load('k', read)).toEqual(value('cached'));
    expect(read).not.toHaveBeenCalled();
  });

  it('cached: a miss calls read once and stores the entry', async () => {
    const cache = createMetadataCache();
    const reads = createMetadataReads(cache, true);
    const read = vi.fn(async () => ({ version: 5, value: value('fresh') }));
    expect(await reads.load('k', read)).toEqual(value('fresh'));
    expect(read).toHaveBeenCalledTimes(1);
    expect(cache.get('k')).toEqual({ version: 5, value: value('fresh') });
    // The next attempt is served from the cache.
    const next = vi.fn(async () => ({ version: 5, value: value('other') }));
    expect(await createMetadataReads(cache, true).load('k', next)).toEqual(value('fresh'));
    expect(next).not.toHaveBeenCalled();
  });

  it('uncached: reads despite a cache entry, and refreshes the cache', async () => {
    const cache = createMetadataCache();
    cache.set('k', 5, value('old'));
    const reads = createMetadataReads(cache, false);
    const read = vi.fn(async () => ({ version: 6, value: value('new') }));
    expect(await reads.load('k', read)).toEqual(value('new'));
    expect(read).toHaveBeenCalledTimes(1);
    expect(cache.get('k')).toEqual({ version: 6, value: value('new') });
  });

  it.each([true, false])('two loads of one key in one attempt call read once (cached: %s)', async (cached) => {
    const reads = createMetadataReads(createMetadataCache(), cached);
    const read = vi.fn(async () => ({ version: 1, value: value('v') }));
    expect(await reads.load('k', read)).toEqual(value('v'));
    expect(await reads.load('k', read)).toEqual(value('v'));
    expect(read).toHaveBeenCalledTimes(1);
  });

  it.each([true, false])('a second load started before the first resolves shares its read (cached: %s)', async (cached) => {
    const reads = createMetadataReads(createMetadataCache(), cached);
    const gate = deferred<{ version: number; value: object }>();
    const read = vi.fn(() => gate.promise);
    const first = reads.load('k', read);
    const second = reads.load('k', read);
    expect(read).toHaveBeenCalledTimes(1);
    gate.resolve({ version: 2, value: value('v') });
    expect(await Promise.all([first, second])).toEqual([value('v'), value('v')]);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('different keys are read separately', async () => {
    const reads = createMetadataReads(createMetadataCache(), false);
    const read = vi.fn(async () => ({ version: 1, value: value('v') }));
    await reads.load('a', read);
    await reads.load('b', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('confirm(v) passes when every version used equals v and sets confirmed', async () => {
    const cache = createMetadataCache();
    cache.set('a', 4, value('a'));
    const reads = createMetadataReads(cache, true);
    await reads.load('a', async () => ({ version: 4, value: value('x') }));
    await reads.load('b', async () => ({ version: 4, value: value('b') }));
    reads.use(4);
    expect(reads.confirmed).toBe(false);
    reads.confirm(4);
    expect(reads.confirmed).toBe(true);
  });

  it('confirm with nothing used passes', () => {
    const reads = createMetadataReads(createMetadataCache(), true);
    reads.confirm(9);
    expect(reads.confirmed).toBe(true);
  });

  it('confirm throws StaleMetadataError when a loaded version differs, leaving confirmed false', async () => {
    const cache = createMetadataCache();
    cache.set('a', 4, value('a'));
    const reads = createMetadataReads(cache, true);
    await reads.load('a', async () => ({ version: 4, value: value('x') }));
    expect(() => reads.confirm(5)).toThrow(StaleMetadataError);
    expect(reads.confirmed).toBe(false);
    // Still unconfirmed, so a retry of confirm checks again.
    expect(() => reads.confirm(5)).toThrow(StaleMetadataError);
  });

  it('confirm throws when a version added by use(n) differs', async () => {
    const cache = createMetadataCache();
    const reads = createMetadataReads(cache, true);
    await reads.load('a', async () => ({ version: 4, value: value('a') }));
    reads.use(3);
    expect(() => reads.confirm(4)).toThrow(StaleMetadataError);
    expect(reads.confirmed).toBe(false);
  });

  it('confirm throws when the statement saw an older version than a loaded entry', async () => {
    const reads = createMetadataReads(createMetadataCache(), true);
    await reads.load('a', async () => ({ version: 6, value: value('a') }));
    expect(() => reads.confirm(5)).toThrow(StaleMetadataError);
  });

  it('use(undefined) is ignored', async () => {
    const reads = createMetadataReads(createMetadataCache(), true);
    await reads.load('a', async () => ({ version: 4, value: value('a') }));
    reads.use(undefined);
    reads.confirm(4);
    expect(reads.confirmed).toBe(true);
  });

  it('after a successful confirm, a later confirm with another version does not throw', async () => {
    const reads = createMetadataReads(createMetadataCache(), true);
    await reads.load('a', async () => ({ version: 4, value: value('a') }));
    reads.confirm(4);
    expect(() => reads.confirm(7)).not.toThrow();
    expect(reads.confirmed).toBe(true);
  });

  it('uncached: confirm never throws', async () => {
    const reads = createMetadataReads(createMetadataCache(), false);
    await reads.load('a', async () => ({ version: 4, value: value('a') }));
    reads.use(2);
    expect(() => reads.confirm(9)).not.toThrow();
    expect(reads.confirmed).toBe(true);
  });

  it('confirm accepts a string version (PostgreSQL bigint) and compares numerically', async () => {
    const reads = createMetadataReads(createMetadataCache(), true);
    await reads.load('a', async () => ({ version: 12, value: value('a') }));
    expect(() => reads.confirm('13')).toThrow(StaleMetadataError);
    reads.confirm('12');
    expect(reads.confirmed).toBe(true);
    // Numeric, not text: '012' is 12.
    const other = createMetadataReads(createMetadataCache(), true);
    other.use(12);
    other.confirm('012');
    expect(other.confirmed).toBe(true);
  });

  it('confirm makes the cache observe the version, dropping older entries', () => {
    const cache = createMetadataCache();
    cache.set('a', 5, value('a'));
    createMetadataReads(cache, false).confirm('6');
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 6, value('b'));
    expect(cache.get('b')).toBeDefined();
  });

  it('a confirm that throws still makes the cache observe the newer version', async () => {
    const cache = createMetadataCache();
    cache.set('a', 5, value('a'));
    const reads = createMetadataReads(cache, true);
    await reads.load('a', async () => ({ version: 5, value: value('unused') }));
    expect(() => reads.confirm(6)).toThrow(StaleMetadataError);
    expect(cache.get('a')).toBeUndefined();
  });
});

const stamp = '2024-01-01 00:00:00';

describe(`metadata version counter (${testEngine})`, () => {
  let database: TestDatabase;
  let opened: Database;
  let db: Kysely<any>;
  let accountId: number;
  let spaceId: number;
  let tableA: number;
  let tableB: number;
  let fieldB: number;

  async function insertTable(name: string): Promise<number> {
    const row = await db
      .insertInto('tables')
      .values({ account_id: accountId, space_id: spaceId, name, title_field_id: null, schema_version: 1, created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(async () => {
    ({ database, opened, db } = await openRawDatabase());
    await migrateToLatest(opened);
    accountId = (await db.insertInto('accounts').values({ name: 'Meta', owner_user_id: null, created_at: stamp }).returning('id').executeTakeFirstOrThrow()).id;
    spaceId = (
      await db
        .insertInto('spaces')
        .values({ account_id: accountId, name: 'Space', storage_json: JSON.stringify({ kind: 'managed', settings: {}, sealed: null }), created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    tableA = await insertTable('A');
    tableB = await insertTable('B');
    fieldB = (
      await db
        .insertInto('fields')
        .values({ table_id: tableB, slug: 'name', name: 'Name', type: 'text', settings_json: JSON.stringify({ multiple: false, required: false, editable_by: 'members', hidden: null }), position: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  afterAll(() => closeRawDatabase({ opened, database }));

  it('readMetadataVersion returns a number', async () => {
    const version = await readMetadataVersion(db);
    expect(typeof version).toBe('number');
    expect(Number.isInteger(version)).toBe(true);
    expect(version).toBeGreaterThan(1);
  });

  it('grows after inserting an account', async () => {
    const before = await readMetadataVersion(db);
    await db.insertInto('accounts').values({ name: 'Another', owner_user_id: null, created_at: stamp }).execute();
    expect(await readMetadataVersion(db)).toBeGreaterThan(before);
  });

  it('grows after updating a tables row', async () => {
    const before = await readMetadataVersion(db);
    await db.updateTable('tables').set({ name: 'A renamed' }).where('id', '=', tableA).execute();
    expect(await readMetadataVersion(db)).toBeGreaterThan(before);
  });

  it('does not move on a write to a non-metadata table', async () => {
    const before = await readMetadataVersion(db);
    await db.insertInto('table_indexes').values({ table_id: tableA, name: 'probe', field_ids_json: '[]' }).execute();
    expect(await readMetadataVersion(db)).toBe(before);
  });

  it('versionOfRows: no rows is a fresh read; otherwise the first row’s version, as a number', async () => {
    expect(await versionOfRows(db, [])).toBe(await readMetadataVersion(db));
    expect(await versionOfRows(db, [{ metadata_version: '7' }])).toBe(7);
    expect(await versionOfRows(db, [{ metadata_version: 8 }, { metadata_version: 9 }])).toBe(8);
  });

  describe.skipIf(testEngine !== 'postgres')('two metadata writers in opposite orders (PostgreSQL)', () => {
    /**
     * The scenario that deadlocks when the version bump runs immediately:
     *   T1 updates tables row A        (immediate: T1 now holds the counter row)
     *   T2 updates the probe row       (T2 holds the probe row)
     *   T1 updates the probe row       → waits for T2
     *   T2 updates fields row B        (immediate: waits for the counter row held by T1 → deadlock)
     * The two touch different metadata rows; the only lock both need besides the counter row
     * is the plain, non-metadata probe row. With the deferred trigger the counter row is taken
     * at commit, after everything else, so T2 commits and then T1 does.
     */
    beforeAll(async () => {
      await sql`create table deadlock_probe (id integer primary key, n integer not null)`.execute(db);
      await sql`insert into deadlock_probe (id, n) values (1, 0)`.execute(db);
    });

    /** Resolves once some backend of this database is waiting on a lock. */
    async function someoneWaitsOnALock(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        if (rows[0].n > 0) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('no transaction ever waited on a lock');
    }

    async function runWriters(immediate: boolean) {
      const t1 = await db.startTransaction().execute();
      const t2 = await db.startTransaction().execute();
      if (immediate) {
        await sql`set constraints all immediate`.execute(t1);
        await sql`set constraints all immediate`.execute(t2);
      }
      let t1UpdatedA!: () => void;
      const aUpdated = new Promise<void>((r) => (t1UpdatedA = r));
      let t2HoldsProbe!: () => void;
      const probeHeld = new Promise<void>((r) => (t2HoldsProbe = r));
      const guarded = async (trx: typeof t1, steps: () => Promise<void>) => {
        try {
          await steps();
          await trx.commit().execute();
        } catch (error) {
          await trx.rollback().execute();
          throw error;
        }
      };
      const first = guarded(t1, async () => {
        await t1.updateTable('tables').set({ name: `A ${immediate}` }).where('id', '=', tableA).execute();
        t1UpdatedA();
        await probeHeld;
        await sql`update deadlock_probe set n = n + 1 where id = 1`.execute(t1);
      });
      const second = guarded(t2, async () => {
        await aUpdated;
        await sql`update deadlock_probe set n = n + 1 where id = 1`.execute(t2);
        t2HoldsProbe();
        await someoneWaitsOnALock(); // T1 is now blocked on the probe row
        await t2.updateTable('fields').set({ name: `B ${immediate}` }).where('id', '=', fieldB).execute();
      });
      return { first, second };
    }

    it('both commit with the deferred trigger, and the version grows by at least 2', async () => {
      const before = await readMetadataVersion(db);
      const { first, second } = await runWriters(false);
      await expect(Promise.all([first, second])).resolves.toBeDefined();
      expect(await readMetadataVersion(db)).toBeGreaterThanOrEqual(before + 2);
      const names = await db.selectFrom('tables').select('name').where('id', 'in', [tableA, tableB]).orderBy('id').execute();
      expect(names[0].name).toBe('A false');
      expect((await db.selectFrom('fields').select('name').where('id', '=', fieldB).executeTakeFirstOrThrow()).name).toBe('B false');
    });

    it('control: the same writers deadlock when the bump is made immediate', async () => {
      const { first, second } = await runWriters(true);
      const results = await Promise.allSettled([first, second]);
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(failures).toHaveLength(1);
      expect((failures[0].reason as { code?: string }).code).toBe('40P01');
    });
  });
});
