import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { QueryTimeoutError } from '../shared/errors.js';
import { slotsOf, type BoundedReader, type QuerySlots } from './bounded-read.js';
import { QueryGate, type QueryCaller } from './query-gate.js';
import { startWorker } from './start-worker.js';
import type { ReadReply, ReadRequest, ReadWorkerData, readyMessage } from './sqlite-read-worker.js';


/**
 * A statement the budget function did not stop (one that spends its time in SQLite's C code,
 * such as a huge sort) is given this long past its deadline, then its thread is terminated.
 */
const terminateGraceMs = 2000;

class ReadWorker {
  private readonly worker: Worker;
  private pending: { id: number; resolve: (rows: unknown[]) => void; reject: (error: Error) => void } | null = null;
  private nextId = 0;
  exited = false;
  /** Terminated by us, past its deadline (not crashed). */
  stopped = false;
  /**
   * Settles once the thread has opened its connection (or ended). A thread terminated while it
   * still loads better-sqlite3 can take the whole process down (N-API's "FatalError" while the
   * addon registers in an environment being stopped): it is only ever terminated after this.
   */
  private readonly started: Promise<void>;

  constructor(data: ReadWorkerData, onExit: (worker: ReadWorker) => void) {
    this.worker = startWorker('sqlite-read-worker', data);
    this.worker.unref();
    let markStarted!: () => void;
    this.started = new Promise((resolve) => (markStarted = resolve));
    this.worker.on('message', (reply: ReadReply | typeof readyMessage) => {
      if ('ready' in reply) return markStarted();
      const pending = this.pending;
      if (!pending || pending.id !== reply.id) return;
      this.pending = null;
      if ('rows' in reply) pending.resolve(reply.rows);
      else pending.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code, overBudget: reply.error.overBudget }));
    });
    const exit = (error?: Error) => {
      markStarted();
      if (this.exited) return;
      this.exited = true;
      this.pending?.reject(error ?? new Error('SQLite read worker exited'));
      this.pending = null;
      onExit(this);
    };
    this.worker.on('error', exit);
    this.worker.on('exit', () => exit());
  }

  /** Settles when the statement answered, or once the thread is gone after it was terminated. */
  run(sql: string, parameters: readonly unknown[], deadline: number): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const id = (this.nextId += 1);
      this.pending = { id, resolve, reject };
      this.worker.postMessage({ id, sql, parameters, deadline } satisfies ReadRequest);
    });
  }

  async terminate(): Promise<void> {
    this.stopped = true;
    await this.started;
    await this.worker.terminate();
  }
}

/**
 * Record queries on SQLite run on worker threads, each with its own read-only connection:
 * better-sqlite3 runs a statement on the calling thread, so on the main thread one long query
 * would hold every other request. A statement checks its deadline through
 * `tabula_within_budget()` (Dialect.budgetGuard) and stops itself; one that does not is
 * terminated a little later, and its slot stays taken until its thread has really ended.
 */
export function createSqliteReadWorkers(file: string, options: QuerySlots & { cacheKib: number; checkpointEveryMs: number }): BoundedReader {
  const gate = new QueryGate(options.share, slotsOf(options), options.queueTimeoutMs);
  const idle: ReadWorker[] = [];
  const all = new Set<ReadWorker>();
  /** The worker that checkpoints the WAL in its idle time (one at a time), when checkpoints are on. */
  let checkpointer: ReadWorker | null = null;
  let closing = false;

  function startReadWorker(): ReadWorker {
    const checkpoints = options.checkpointEveryMs > 0 && checkpointer === null;
    const worker = new ReadWorker({ file, cacheKib: options.cacheKib, checkpointEveryMs: checkpoints ? options.checkpointEveryMs : 0 }, forget);
    if (checkpoints) checkpointer = worker;
    all.add(worker);
    return worker;
  }

  function forget(worker: ReadWorker): void {
    all.delete(worker);
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
    if (worker !== checkpointer) return;
    // A checkpointer terminated past a query's deadline hands its turn to a new worker.
    checkpointer = null;
    if (!closing) idle.push(startReadWorker());
  }

  // The checkpointer starts with the database, before any query asks for a worker.
  if (options.checkpointEveryMs > 0) idle.push(startReadWorker());

  async function execute(sql: string, parameters: readonly unknown[], deadline: number): Promise<unknown[]> {
    let worker = idle.pop();
    worker ??= startReadWorker();
    const stuck = setTimeout(() => void worker.terminate(), Math.max(0, deadline - Date.now()) + terminateGraceMs);
    try {
      return await worker.run(sql, parameters, deadline);
    } catch (error) {
      if ((error as { overBudget?: boolean }).overBudget || worker.stopped) throw new QueryTimeoutError(options.budgetMs);
      throw error;
    } finally {
      clearTimeout(stuck);
      if (!worker.exited) idle.push(worker);
    }
  }

  return {
    read<Row>(query: CompiledQuery<Row>, caller: QueryCaller): Promise<Row[]> {
      // The budget starts once the query has its slot: its wait in the queue is bounded apart.
      return gate.run(caller, () => execute(query.sql, query.parameters, Date.now() + options.budgetMs)) as Promise<Row[]>;
    },
    async close() {
      closing = true;
      await Promise.all([...all].map((worker) => worker.terminate()));
    },
  };
}
