import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { insertDeliveries, updateClaimed, type NewDeliveryRow } from './webhooks.repository.js';

type Trx = Parameters<Parameters<ReturnType<Database['db']['transaction']>['execute']>[0]>[0];

/** What one worker hands the writer: its successes, how far its cursor moved, and a failure's record to write with them. */
interface Entry {
  webhookId: number;
  rows: NewDeliveryRow[];
  cursor: number | null;
  after?: (trx: Trx) => Promise<void>;
  done(kept: boolean, leaseUntilMs: number): void;
}

/**
 * Writes the delivery engine's bookkeeping for every webhook of a process: the successes
 * (delivery log rows), the cursors and renewed leases of all workers with something to write,
 * in one transaction, at most `flushMs` after the first of them. One transaction for all
 * webhooks instead of one per webhook keeps a process delivering to many webhooks from
 * competing with the writes it reports on (on SQLite, every transaction takes the one write
 * lock). A worker with a failure to record (`after`) gets a transaction of its own, so that it
 * cannot undo the others' bookkeeping. A process that dies sends the unwritten last few again
 * (at least once, same `webhook-id`).
 */
export function createDeliveryWriter(deps: { database: Database; clock: Clock; owner: string; leaseMs: number; flushMs: number; onError(error: unknown): void }) {
  const { db } = deps.database;
  const waiting = new Set<() => Entry | null>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  async function write(entries: readonly Entry[]): Promise<void> {
    const leaseUntilMs = deps.clock.now().getTime() + deps.leaseMs;
    try {
      const kept = await db.transaction().execute(async (trx) => {
        const held: Entry[] = [];
        for (const entry of entries) {
          const moved = entry.cursor === null ? {} : { cursor: entry.cursor, attempt: 0, failing_since: null, next_attempt_at: null };
          // The claim first: a webhook deleted (or taken over) meanwhile gets nothing written.
          if (await updateClaimed(trx, entry.webhookId, deps.owner, { ...moved, lease_until: new Date(leaseUntilMs).toISOString() })) held.push(entry);
        }
        const rows = held.flatMap((entry) => entry.rows);
        if (rows.length > 0) await insertDeliveries(trx, rows);
        for (const entry of held) await entry.after?.(trx);
        return new Set(held);
      });
      for (const entry of entries) entry.done(kept.has(entry), leaseUntilMs);
    } catch (error) {
      // Never thrown (a timer may have started this): the workers stop, and the next claims go on from the cursors written last.
      deps.onError(error);
      for (const entry of entries) entry.done(false, 0);
    }
  }

  /** Writes what every worker has waiting, now; resolves once it is written. */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const entries = [...waiting].flatMap((take) => take() ?? []);
    waiting.clear();
    if (entries.length === 0) return writing;
    const alone = entries.filter((entry) => entry.after);
    const together = entries.filter((entry) => !entry.after);
    writing = writing.then(async () => {
      if (together.length > 0) await write(together);
      for (const entry of alone) await write([entry]);
    });
    return writing;
  }

  return {
    /** `take` has something to write: written with the others' within `flushMs`, or at once when `now`. */
    offer(take: () => Entry | null, now: boolean): Promise<void> {
      waiting.add(take);
      if (now) return flush();
      timer ??= setTimeout(() => void flush(), deps.flushMs);
      return writing;
    },
    /** Writes what is waiting (the engine stopping). */
    flush,
  };
}

export type DeliveryWriter = ReturnType<typeof createDeliveryWriter>;

/**
 * What one webhook's worker has done and not yet written (its successes and how far its cursor
 * moved), handed to the process's writer: within `flushMs` of the first, at `maxPending`, or when
 * the worker stops, renews its lease or records a failure.
 */
export function createDeliveryProgress(deps: { writer: DeliveryWriter; clock: Clock; webhookId: number; leaseMs: number; maxPending: number }) {
  let pending: NewDeliveryRow[] = [];
  let cursor: number | null = null;
  let after: Entry['after'];
  let held = true;
  let leaseUntilMs = deps.clock.now().getTime() + deps.leaseMs;
  /** Resolves with `held` once the last entry taken is written. */
  let written: Promise<boolean> = Promise.resolve(true);
  let renewing = false;

  /** The entry to write now, or null when there is nothing (or the claim is lost). */
  function take(): Entry | null {
    if (!held || (pending.length === 0 && cursor === null && !after && !renewing)) return null;
    let resolve!: (kept: boolean) => void;
    written = new Promise((settle) => (resolve = settle));
    const entry: Entry = {
      webhookId: deps.webhookId,
      rows: pending,
      cursor,
      after,
      done(kept, until) {
        held &&= kept;
        if (kept) leaseUntilMs = until;
        resolve(held);
      },
    };
    pending = [];
    cursor = null;
    after = undefined;
    renewing = false;
    return entry;
  }

  /** Hands what is pending to the writer; resolves false once the claim was lost (the worker must stop). */
  async function flush(failure?: Entry['after'], renew = false): Promise<boolean> {
    if (failure) after = failure;
    renewing ||= renew;
    await deps.writer.offer(take, true);
    return written;
  }

  function offer(): void {
    void deps.writer.offer(take, pending.length >= deps.maxPending);
  }

  return {
    /** A change delivered: its log row, and the cursor past it. */
    succeeded(row: NewDeliveryRow): void {
      pending.push(row);
      cursor = Number(row.seq);
      offer();
    },
    /** Changes up to `seq` are not for this webhook (its events and fields): the cursor moves past them. */
    skipTo(seq: number): void {
      if (cursor === null || seq > cursor) cursor = seq;
      offer();
    },
    /** Writes what is pending and renews the lease; false once the claim was lost. */
    renew: () => flush(undefined, true),
    /** Whether the lease ends within `ms` (a request must not outlive it). */
    leaseEndsWithin(ms: number): boolean {
      return leaseUntilMs - deps.clock.now().getTime() < ms;
    },
    /** Writes what is pending, then `failure` (a failed attempt's record) in the same transaction. */
    flush,
  };
}

export type DeliveryProgress = ReturnType<typeof createDeliveryProgress>;
