import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { prepareQuery } from '../../db/prepared-query.js';
import { turnAfterNext } from '../../shared/fresh-runs.js';

type Db = Database['db'];

// Compiled once: each write of a group runs two or three of them.
const savepoint = prepareQuery((db: Db) => ({ compile: () => sql`savepoint tabula_write`.compile(db) }));
const rollbackTo = prepareQuery((db: Db) => ({ compile: () => sql`rollback to tabula_write`.compile(db) }));
const release = prepareQuery((db: Db) => ({ compile: () => sql`release tabula_write`.compile(db) }));

/** At most this many writes share one commit, and none joins a group that has run this long. */
const groupBounds = { maxWrites: 64, maxMs: 20 };

/**
 * Work a group's writes put off until the group's end, done once for all of them just before the
 * commit (records/search/deferred-texts.ts: the search texts). `open` is called as the group's
 * transaction begins; a write rolled back to its savepoint takes back what it put off.
 */
export interface GroupDeferral {
  open(trx: Db): { mark(): number; rollbackTo(mark: number): void; flush(): Promise<void> };
}

interface Pending {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * SQLite's one writer commits the writes waiting for it together (docs/decisions.md, "Writes
 * share a commit on SQLite"). A commit is most of a small write's cost: the pages it dirtied go
 * to the WAL, the search index writes a segment, and every thousand pages or so a checkpoint
 * syncs the file — measured on one create of the bench table, 300 µs of commit against 60 of
 * statements. So writes that arrive together run one after another in one transaction, each in
 * a savepoint of its own, and one commit makes them all durable:
 *
 * - each write is all or nothing by itself: one that fails is rolled back to its savepoint, and
 *   only its caller hears of it; the others stand;
 * - no write is acknowledged before the commit that holds it: every caller waits for it, and if
 *   the commit fails, every write of the group fails with it (nothing of them is stored);
 * - writes that depend on each other never share a group: a caller sends the second only after
 *   the first answered, which is after its commit.
 *
 * A group starts two turns of the event loop after its first write asked, and takes what is
 * waiting then and while it runs, up to `maxWrites` or `maxMs`; the next group starts right after
 * its commit. Two turns, because requests read together reach their write a turn apart: a create
 * reads its lookups' titles first, through the reads run together at the end of a turn
 * (db/sqlite-turn-reads.ts), so its write is asked in the turn after its request was read,
 * behind a group scheduled for that turn by the requests before it. Waiting one turn more puts
 * both waves in one commit: 6.6 creates a commit instead of 4.2 under 10 connections, 9-14 % less
 * CPU a create and an update (docs/performance.md, session 36). A write alone waits two turns,
 * microseconds on an idle server.
 */
export function createGroupCommit(db: Db, options: { deferral?: GroupDeferral; bounds?: typeof groupBounds } = {}) {
  const { deferral, bounds = groupBounds } = options;
  const waiting: Pending[] = [];
  let scheduled = false;

  async function runGroup(): Promise<void> {
    const done: Array<{ pending: Pending; value: unknown }> = [];
    let current: Pending | undefined;
    let began = false;
    const started = performance.now();
    try {
      await db.transaction().execute(async (trx) => {
        began = true;
        const deferred = deferral?.open(trx);
        while (waiting.length > 0 && done.length < bounds.maxWrites && performance.now() - started < bounds.maxMs) {
          current = waiting.shift()!;
          const mark = deferred?.mark() ?? 0;
          await savepoint(trx);
          let value: unknown;
          try {
            value = await current.work(trx);
          } catch (error) {
            // A failure to roll back leaves the transaction unusable: it fails the whole group below.
            await rollbackTo(trx);
            await release(trx);
            deferred?.rollbackTo(mark);
            current.reject(error);
            current = undefined;
            continue;
          }
          await release(trx);
          done.push({ pending: current, value });
          current = undefined;
        }
        // A failure here fails the whole group, as a failed commit does.
        await deferred?.flush();
      });
    } catch (error) {
      // Nothing of the group is stored. A transaction that could not even begin fails the writes
      // waiting for it too, rather than trying again at once for ever.
      const failed = [...done.map((entry) => entry.pending), ...(current ? [current] : []), ...(began ? [] : waiting.splice(0))];
      for (const pending of failed) pending.reject(error);
      return;
    }
    for (const { pending, value } of done) pending.resolve(value);
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    void turnAfterNext()
      .then(runGroup)
      .finally(() => {
        scheduled = false;
        if (waiting.length > 0) schedule();
      });
  }

  /** Runs `work` in the current group's transaction, in a savepoint; answers once its group committed. */
  return function runInGroup<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });
  };
}
