import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { changeActorOf, payloadOf, type ChangeActor, type ChangeDraft, type WriteScope } from './change.js';
import { insertChanges, type NewChangeRow } from './changes.repository.js';

type Db = Database['db'];

/**
 * The one way a record or a comment is written (docs/decisions.md, "Changes"): `work` writes its
 * rows in the unit's transaction and lists what it changed; the unit appends those changes to
 * the log in that same transaction, so a write that rolls back leaves no change and an
 * acknowledged write always has its own. Field types' I/O (prepare, afterCommit) stays with the
 * caller, around the unit, as before.
 *
 * Commit order: the append comes last and first takes the dialect's change-log lock (PostgreSQL),
 * which it holds until the commit; no other transaction can draw a seq until this one has
 * committed, so seqs become visible in the order they were drawn. A reader that has seen seq N
 * never later finds a new change below N. SQLite's one writer gives the same order.
 */
export function createWriteUnit(deps: { database: Database; clock: Clock; userName(userId: number): Promise<string | undefined> }) {
  const { db, dialect } = deps.database;
  const committedListeners = new Set<() => void>();

  async function append(trx: Db, scope: WriteScope, who: ChangeActor, drafts: readonly ChangeDraft[]): Promise<void> {
    const at = formatDateTime(deps.clock.now());
    const rows: NewChangeRow[] = drafts.map((draft) => ({
      account_id: scope.accountId,
      space_id: scope.spaceId,
      table_id: scope.tableId,
      record_id: draft.recordId,
      comment_id: draft.commentId ?? null,
      kind: draft.kind,
      at,
      actor_user_id: who.user_id,
      actor_api_key_id: who.api_key_id,
      actor_name: who.name,
      payload_json: payloadOf(draft),
    }));
    if (dialect.changeLogLock) await dialect.changeLogLock.execute(trx);
    await insertChanges(trx, rows);
    if (dialect.changeLogWakeUp) await dialect.changeLogWakeUp.execute(trx);
  }

  return {
    /**
     * Runs `work` in one transaction with the append of the changes it lists in `changes`;
     * tells the feed of this process once it committed.
     */
    async run<T>(scope: WriteScope, work: (trx: Db, changes: ChangeDraft[]) => Promise<T>): Promise<T> {
      const { actor } = scope;
      // Looked up before the transaction: on SQLite a statement outside it would wait for it.
      const who = changeActorOf(actor, actor.via === 'session' ? await deps.userName(actor.userId) : undefined);
      let appended = false;
      const result = await db.transaction().execute(async (trx) => {
        const changes: ChangeDraft[] = [];
        const answer = await work(trx, changes);
        if (changes.length > 0) {
          await append(trx, scope, who, changes);
          appended = true;
        }
        return answer;
      });
      if (appended) for (const listener of committedListeners) listener();
      return result;
    },

    /**
     * A unit over a transaction its caller commits (CSV import: a file is one write). `run` works
     * on that transaction and keeps the changes; `finish`, called last inside it, appends them
     * all (taking the change-log lock only then, so other writers wait for the final append and
     * commit, never for the whole import); `committed` wakes the feed after the caller's commit.
     * The changes wait in memory until `finish` (a few hundred bytes a record).
     */
    within(trx: Db) {
      const pending: Array<{ scope: WriteScope; who: ChangeActor; changes: ChangeDraft[] }> = [];
      return {
        async run<T>(scope: WriteScope, work: (trx: Db, changes: ChangeDraft[]) => Promise<T>): Promise<T> {
          // No session writes through here (the command line acts with a key of its own): no look-up inside the transaction.
          const who = changeActorOf(scope.actor, undefined);
          const changes: ChangeDraft[] = [];
          const answer = await work(trx, changes);
          if (changes.length > 0) pending.push({ scope, who, changes });
          return answer;
        },
        async finish(): Promise<void> {
          for (const { scope, who, changes } of pending) await append(trx, scope, who, changes);
        },
        committed(): void {
          if (pending.length > 0) for (const listener of committedListeners) listener();
        },
      };
    },

    /** Hears of every commit that appended changes in this process (the feed's in-process wake-up). */
    onCommitted(listener: () => void): () => void {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
  };
}

export type WriteUnit = ReturnType<typeof createWriteUnit>;
