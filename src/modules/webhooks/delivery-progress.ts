import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { insertDeliveries, updateClaimed, type NewDeliveryRow } from './webhooks.repository.js';

type Trx = Parameters<Parameters<ReturnType<Database['db']['transaction']>['execute']>[0]>[0];

/**
 * What a webhook's worker has done and not yet written: its successes (delivery log rows) and
 * how far its cursor moved. Written in one transaction with a renewed lease, at most `flushMs`
 * after the first of them (also while a request is in flight), or at `maxPending`, or when the
 * worker stops. One write per batch instead of one per delivery keeps a busy webhook from
 * competing with the writes it reports on; a process that dies sends the unwritten last few
 * again (at least once, same `webhook-id`).
 */
export function createDeliveryProgress(deps: { database: Database; clock: Clock; webhookId: number; owner: string; leaseMs: number; flushMs: number; maxPending: number; onError(error: unknown): void }) {
  const { db } = deps.database;
  let pending: NewDeliveryRow[] = [];
  let cursor: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<boolean> = Promise.resolve(true);
  let leaseUntilMs = deps.clock.now().getTime() + deps.leaseMs;

  function schedule(): void {
    if (pending.length >= deps.maxPending) void flush();
    else timer ??= setTimeout(() => void flush(), deps.flushMs);
  }

  /**
   * Writes what is pending, renews the lease, then runs `after` in the same transaction (a
   * failure's record). Resolves false once the claim was lost: the worker must stop.
   */
  function flush(after?: (trx: Trx) => Promise<void>, renew = false): Promise<boolean> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0 && cursor === null && !after && !renew) return writing;
    const rows = pending;
    const through = cursor;
    pending = [];
    cursor = null;
    writing = writing.then(async (held) => {
      if (!held) return false;
      const renewedUntil = deps.clock.now().getTime() + deps.leaseMs;
      try {
        const kept = await db.transaction().execute(async (trx) => {
          const moved = through === null ? {} : { cursor: through, attempt: 0, failing_since: null, next_attempt_at: null };
          // The claim first: a webhook deleted (or taken over) meanwhile gets nothing written.
          if (!(await updateClaimed(trx, deps.webhookId, deps.owner, { ...moved, lease_until: new Date(renewedUntil).toISOString() }))) return false;
          if (rows.length > 0) await insertDeliveries(trx, rows);
          if (after) await after(trx);
          return true;
        });
        if (kept) leaseUntilMs = renewedUntil;
        return kept;
      } catch (error) {
        // Never thrown (a timer may have started this): the worker stops, and the next claim goes on from the cursor written last.
        deps.onError(error);
        return false;
      }
    });
    return writing;
  }

  return {
    /** A change delivered: its log row, and the cursor past it. */
    succeeded(row: NewDeliveryRow): void {
      pending.push(row);
      cursor = Number(row.seq);
      schedule();
    },
    /** Changes up to `seq` are not for this webhook (its events and fields): the cursor moves past them. */
    skipTo(seq: number): void {
      if (cursor === null || seq > cursor) cursor = seq;
      schedule();
    },
    /** Writes what is pending and renews the lease; false once the claim was lost. */
    renew: () => flush(undefined, true),
    /** Whether the lease ends within `ms` (a request must not outlive it). */
    leaseEndsWithin(ms: number): boolean {
      return leaseUntilMs - deps.clock.now().getTime() < ms;
    },
    flush,
  };
}

export type DeliveryProgress = ReturnType<typeof createDeliveryProgress>;
