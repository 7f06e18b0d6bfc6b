import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { changeActorOf, payloadOf, type ChangeActor, type ChangeCommon, type ChangeDraft, type WriteScope } from './change.js';
import { createFreshRun } from '../../shared/fresh-runs.js';
import { createSpacedTimer } from '../../shared/spaced-timer.js';
import { createGroupCommit, type GroupDeferral } from './group-commit.js';
import { hasQueuedChanges, insertChanges, queueChanges, sequenceQueued, vacuumChangeQueue, type NewChangeRow } from './changes.repository.js';

type Db = Database['db'];

/** How long after a commit the background sequencer run starts: the commits meanwhile share it. */
const sequenceDelayMs = 5;

/**
 * At least this long between the starts of two background runs. Under steady writes each run
 * cost about 0.6 ms of database time however few changes it moved (a look at the queue, the
 * lock, a commit, a NOTIFY), and at 5 ms apart a create paid a third more database time for its
 * sequencing than for its own statement (docs/performance.md, session 43). A lone write still
 * reaches the log `sequenceDelayMs` after its commit.
 */
const sequenceSpacingMs = 25;

/** Queued changes the sequencer moves per statement. */
const sequenceBatch = 10_000;

/** Changes this process moves out of the queue between two vacuums of it (changes.repository vacuumChangeQueue). */
const movedPerVacuum = 10_000;

/**
 * The one way a record or a comment is written (docs/decisions.md, "Changes"): `work` writes its
 * rows in the unit's transaction and lists what it changed; the unit adds those changes in that
 * same transaction, so a write that rolls back leaves no change and an acknowledged write
 * always has its own. Field types' I/O (prepare, afterCommit) stays with the caller, around it.
 *
 * Commit order. SQLite's one writer appends to the log itself: seqs are drawn and committed in
 * one order. On PostgreSQL many writers commit at once, and a seq drawn early could commit late,
 * behind a higher one a reader has already seen. So writers put their changes in a queue (no
 * seq, no lock), and after their commit the sequencer moves whatever is queued into the log,
 * each change taking the next seq, in a statement of its own under the change-log lock: seqs
 * become visible only in the order they were drawn, and the lock is held by one short
 * statement for a whole batch of writes, never by the writers. A writer answers once it
 * committed (its change is durable in the queue) and does not wait for the run; a reader of the
 * log (changes/list, history) first has the queue emptied into it (`settleQueued`), so a write
 * acknowledged before a read is in that read.
 */
export function createWriteUnit(deps: {
  database: Database;
  clock: Clock;
  userName(userId: number): Promise<string | undefined>;
  /** What writes that share a commit put off to its end (SQLite: the search texts). */
  groupDeferral?: GroupDeferral;
  log?: (level: 'info' | 'warn', message: string) => void;
}) {
  const { db, dialect } = deps.database;
  const committedListeners = new Set<() => void>();
  // SQLite's one writer: writes that arrive together share a commit (group-commit.ts). PostgreSQL
  // commits concurrent transactions side by side (and groups its WAL flushes itself).
  const inTransaction: <T>(work: (trx: Db) => Promise<T>) => Promise<T> = dialect.queuesChanges ? (work) => db.transaction().execute(work) : createGroupCommit(db, { deferral: deps.groupDeferral });

  /** What every change of one write shares: where, when and who. */
  function commonOf(scope: WriteScope, who: ChangeActor): ChangeCommon {
    return {
      account_id: scope.accountId,
      space_id: scope.spaceId,
      table_id: scope.tableId,
      at: formatDateTime(deps.clock.now()),
      actor_user_id: who.user_id,
      actor_api_key_id: who.api_key_id,
      actor_name: who.name,
    };
  }

  async function add(trx: Db, scope: WriteScope, who: ChangeActor, drafts: readonly ChangeDraft[]): Promise<void> {
    const common = commonOf(scope, who);
    const rows: NewChangeRow[] = drafts.map((draft) => ({
      ...common,
      record_id: draft.recordId,
      comment_id: draft.commentId ?? null,
      kind: draft.kind,
      payload_json: payloadOf(draft),
    }));
    await (dialect.queuesChanges ? queueChanges(trx, rows) : insertChanges(trx, rows));
  }

  /**
   * One sequencer run: every queued change into the log, `sequenceBatch` at a time, each batch
   * one statement under the lock (changes.repository.ts, sequenceQueuedStatement); then, every
   * `movedPerVacuum` changes, the queue's dead rows reclaimed in the background (a few
   * milliseconds for that many; a failure is only logged: a later run tries again).
   */
  let movedSinceVacuum = 0;
  let vacuuming = false;
  async function sequenceOnce(): Promise<void> {
    for (;;) {
      const batch = await sequenceQueued(db, sequenceBatch);
      movedSinceVacuum += batch.moved;
      if (!batch.more) break;
    }
    if (movedSinceVacuum >= movedPerVacuum && !vacuuming) {
      movedSinceVacuum = 0;
      vacuuming = true;
      // Not awaited: the next run need not wait for it (the first vacuum of a queue left to grow takes seconds).
      vacuumChangeQueue(db)
        .catch((error: unknown) => deps.log?.('warn', `vacuum of the change queue failed: ${(error as Error).message}`))
        .finally(() => (vacuuming = false));
    }
  }

  // At most one run per process at a time; whoever asks during a run waits for the next one,
  // which starts after that run and so after the asker's commit.
  const sequence = createFreshRun(sequenceOnce);

  /**
   * After a commit that added changes: into the log (PostgreSQL, whose sequencer also tells
   * other processes), then this process's feeds are told.
   */
  async function committed(): Promise<void> {
    if (dialect.queuesChanges) await sequence();
    for (const listener of committedListeners) listener();
  }

  /**
   * `committed` in the background, a few milliseconds later so that one run takes the changes
   * of many writes (each run is a commit of its own): the writer has its answer already; a
   * failed run leaves the queue to the next one.
   */
  const later = createSpacedTimer(
    () => committed().catch((error: unknown) => deps.log?.('warn', `sequencing queued changes failed: ${(error as Error).message}`)),
    { delayMs: sequenceDelayMs, spacingMs: sequenceSpacingMs },
  );
  function committedLater(): void {
    if (!dialect.queuesChanges) return void committed();
    later.ask();
  }

  return {
    /**
     * Runs `work` in one transaction with the changes it lists in `changes`; answers once it
     * committed (on PostgreSQL the changes reach the log a few milliseconds later, and before
     * any later read of it). On SQLite the transaction is a savepoint of a group's, committed
     * with the writes that arrived beside it: all or nothing by itself all the same.
     */
    async run<T>(scope: WriteScope, work: (trx: Db, changes: ChangeDraft[]) => Promise<T>): Promise<T> {
      const { actor } = scope;
      // Looked up before the transaction: on SQLite a statement outside it would wait for it.
      const who = changeActorOf(actor, actor.via === 'session' ? await deps.userName(actor.userId) : undefined);
      let added = false;
      const result = await inTransaction(async (trx) => {
        const changes: ChangeDraft[] = [];
        const answer = await work(trx, changes);
        if (changes.length > 0) {
          await add(trx, scope, who, changes);
          added = true;
        }
        return answer;
      });
      if (added) committedLater();
      return result;
    },

    /**
     * A write that is one statement queueing its own change (PostgreSQL only, `queuesChanges`:
     * an update as one CTE, records/record-update-statement.ts): no transaction around it, the
     * statement is atomic by itself, one round trip instead of five. `statement` gets the
     * columns its change shares with every change of the write and answers whether it queued
     * one; the sequencer then runs as after `run`.
     */
    async runQueuedStatement<T>(scope: WriteScope, statement: (db: Db, common: ChangeCommon) => Promise<{ result: T; queued: boolean }>, options: { transaction?: boolean } = {}): Promise<T> {
      if (!dialect.queuesChanges) throw new Error('runQueuedStatement: only where changes are queued (PostgreSQL)');
      const { actor } = scope;
      const who = changeActorOf(actor, actor.via === 'session' ? await deps.userName(actor.userId) : undefined);
      // `transaction`: for a statement whose result the caller checks before it may stand (a
      // delete whose rows must be as read before it): a throw in `statement` rolls it back.
      const { result, queued } = options.transaction ? await db.transaction().execute((trx) => statement(trx, commonOf(scope, who))) : await statement(db, commonOf(scope, who));
      if (queued) committedLater();
      return result;
    },

    /**
     * A unit over a transaction its caller commits (CSV import: a file is one write): `run`
     * works on that transaction and adds its changes there; `committed`, called after the
     * caller's commit, puts them in the log and tells the feeds.
     */
    within(trx: Db) {
      let added = false;
      return {
        async run<T>(scope: WriteScope, work: (trx: Db, changes: ChangeDraft[]) => Promise<T>): Promise<T> {
          // No session writes through here (the command line acts with a key of its own): no look-up inside the transaction.
          const who = changeActorOf(scope.actor, undefined);
          const changes: ChangeDraft[] = [];
          const answer = await work(trx, changes);
          if (changes.length > 0) {
            await add(trx, scope, who, changes);
            added = true;
          }
          return answer;
        },
        async committed(): Promise<void> {
          if (added) await committed();
        },
      };
    },

    /**
     * Puts in the log what a process left queued when it stopped between a commit and its
     * sequencer run (nothing is lost: the queue is in the database). `tabula serve` calls it now
     * and then; a no-op on SQLite.
     */
    async sequencePending(): Promise<void> {
      if (dialect.queuesChanges) await committed();
    },

    /**
     * Before a read of the log: whatever is queued (committed by any process) goes into it
     * first, so that the read sees every write acknowledged before it. One cheap look at the
     * queue when it is empty; a no-op on SQLite.
     */
    async settleQueued(): Promise<void> {
      if (dialect.queuesChanges && (await hasQueuedChanges(db))) await committed();
    },

    /** Runs the background sequencing still due (a process about to close its database puts its writes' changes in the log first). */
    async drain(): Promise<void> {
      if (later.cancel()) await committed();
    },

    /** Hears of every commit that added changes in this process, once they are in the log (the feed's in-process wake-up). */
    onCommitted(listener: () => void): () => void {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
  };
}

export type WriteUnit = ReturnType<typeof createWriteUnit>;
