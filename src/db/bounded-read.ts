import os from 'node:os';
import type { CompiledQuery, Kysely } from 'kysely';
import type { QueryCaller } from './query-gate.js';

/**
 * Runs record queries (pages, filtered counts, id lists), whose cost the caller decides,
 * within the query time budget and a fair share of a few slots kept apart from the cheap
 * calls: SQLite runs them on worker threads, PostgreSQL on a pool of their own with a
 * `statement_timeout`. Over budget, they fail with `QueryTimeoutError`.
 */
export interface BoundedReader {
  read<Row>(query: CompiledQuery<Row>, caller: QueryCaller): Promise<Row[]>;
  close(): Promise<void>;
}

const boundedReaders = new WeakMap<Kysely<any>, BoundedReader>();

export function registerBoundedReader(db: Kysely<any>, reader: BoundedReader): void {
  boundedReaders.set(db, reader);
}

/** Runs a record query of `caller` (its account and key) on `db`'s bounded reader. */
export function runBoundedRead<Row>(db: Kysely<any>, query: CompiledQuery<Row>, caller: QueryCaller): Promise<Row[]> {
  const reader = boundedReaders.get(db);
  if (!reader) throw new Error('runBoundedRead: no bounded reader registered for this database');
  return reader.read(query, caller);
}

/**
 * How a bounded reader shares its slots: one account runs at most `share` queries (the
 * concurrency setting), and one slot more is kept, so that another account's query finds a
 * slot free however many heavy queries the first one sends (query-gate.ts).
 */
export interface QuerySlots {
  share: number;
  budgetMs: number;
  queueTimeoutMs: number;
}

/** Connections or threads a reader keeps: the share of one account plus the one kept for the others. */
export function slotsOf(slots: QuerySlots): number {
  return slots.share + 1;
}

/**
 * Slots by default: one per core this process may use, at least two. A record query is CPU
 * work (a scan, a sort); more of them at once than there are cores adds no throughput, only
 * latency for everyone, the cheap calls included (issue 11, "heavy + light").
 */
export function defaultQuerySlots(): number {
  return Math.max(2, os.availableParallelism());
}
