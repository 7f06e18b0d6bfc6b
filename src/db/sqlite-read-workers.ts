import type { Worker } from 'node:worker_threads';
import type { CompiledQuery, Kysely } from 'kysely';
import { writeInTransaction, type BackgroundWriter } from './background-write.js';
import { QueryTimeoutError } from '../shared/errors.js';
import { slotsOf, type BoundedReader, type QuerySlots } from './bounded-read.js';
import { QueryGate, type QueryCaller } from './query-gate.js';
import { startWorker } from './start-worker.js';
import type { ReadReply, ReadRequest, ReadWorkerData, SyncRequest, WriteRequest, readyMessage } from './sqlite-read-worker.js';


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
    return this.send((id) => ({ id, sql, parameters, deadline }) satisfies ReadRequest);
  }

  /** Settles when the statements were written in one transaction, or failed (none written). */
  async write(statements: WriteRequest['statements']): Promise<void> {
    await this.send((id) => ({ id, statements }) satisfies WriteRequest);
  }

  /** Settles once the database file is synced to disk, through the process's descriptor of it. */
  async syncFile(descriptor: number): Promise<void> {
    await this.send((id) => ({ id, syncDescriptor: descriptor }) satisfies SyncRequest);
  }

  /** Posts one request (the thread runs one at a time) and settles with its reply. */
  private send(request: (id: number) => ReadRequest | WriteRequest | SyncRequest): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const id = (this.nextId += 1);
      this.pending = { id, resolve, reject };
      this.worker.postMessage(request(id));
    });
  }

  async terminate(): Promise<void> {
    this.stopped = true;
    await this.started;
    await this.worker.terminate();
  }
}

/** What `pragma wal_checkpoint` answers: frames in the WAL, and how many of them are copied back. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** The query workers: bounded reads, and the background writes they run with the writer paused. */
export interface SqliteWorkers extends BoundedReader {
  write: BackgroundWriter;
}

/**
 * Record queries on SQLite run on worker threads, each with its own read-only connection:
 * better-sqlite3 runs a statement on the calling thread, so on the main thread one long query
 * would hold every other request. A statement checks its deadline through
 * `tabula_within_budget()` (Dialect.budgetGuard) and stops itself; one that does not is
 * terminated a little later, and its slot stays taken until its thread has really ended.
 *
 * With `checkpointEveryMs`, a worker of its own (the maintenance worker, never a query's) also
 * checkpoints the WAL that often, off the writer's thread (docs/decisions.md, "The WAL restarts
 * without the writer's checkpoint"): a passive checkpoint beside the writes, then, once the WAL
 * holds `restartWalPages`, a second one with the writer paused through `pauseWrites` (its
 * commits wait; reads go on), which copies the frames written meanwhile, so that the next write
 * starts the WAL again. Background writes (`write`) run on it the same way, with the writer paused.
 */
export function createSqliteReadWorkers(
  file: string,
  options: QuerySlots & {
    cacheKib: number;
    checkpointEveryMs: number;
    restartWalPages: number;
    /** The process's descriptor of the file, for its syncs (sqlite-file-descriptor.ts). */
    syncDescriptor: number;
    /** Runs `during` while no other write runs, handing it the paused writer. */
    pauseWrites: (during: (writer: Kysely<any>) => Promise<void>) => Promise<void>;
  },
): SqliteWorkers {
  const gate = new QueryGate(options.share, slotsOf(options), options.queueTimeoutMs);
  const idle: ReadWorker[] = [];
  const all = new Set<ReadWorker>();
  let closing = false;
  const background = options.checkpointEveryMs > 0;

  function startReadWorker(): ReadWorker {
    const worker = new ReadWorker({ file, cacheKib: options.cacheKib }, forget);
    all.add(worker);
    return worker;
  }

  function forget(worker: ReadWorker): void {
    all.delete(worker);
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
    // The last worker terminated past a query's deadline: another stands ready in its place.
    if (background && all.size === 0 && !closing) idle.push(startReadWorker());
  }

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

  /**
   * The checkpoints, the file's syncs and the background writes run on a worker of their own,
   * one after another, never on a query's: a query that arrived while one of them held the only
   * idle worker started a thread and waited for it to open its connection, 60 ms on this machine
   * (docs/performance.md, session 46). Started with the database; a thread that ended is
   * replaced at the next use. It costs a server 12-15 MB of memory from its start, which one
   * serving queries paid anyway after the first such wait.
   */
  let maintenance: ReadWorker | undefined;
  let maintenanceQueue: Promise<unknown> = Promise.resolve();

  function maintenanceWorker(): ReadWorker {
    if (!maintenance || maintenance.exited) maintenance = new ReadWorker({ file, cacheKib: options.cacheKib }, () => undefined);
    return maintenance;
  }

  /** `work` on the maintenance worker once what was asked of it before has settled; undefined while closing. */
  function onMaintenanceWorker<T>(work: (worker: ReadWorker) => Promise<T>): Promise<T | undefined> {
    const done = maintenanceQueue.then(() => (closing ? undefined : work(maintenanceWorker())));
    maintenanceQueue = done.catch(() => undefined);
    return done;
  }

  /** A passive checkpoint: it reads nothing a caller waits for, and never waits for a reader. */
  async function checkpoint(): Promise<CheckpointResult | undefined> {
    return onMaintenanceWorker(async (worker) => ((await worker.run('pragma wal_checkpoint(PASSIVE)', [], Infinity)) as CheckpointResult[])[0]);
  }

  let turn: Promise<void> | null = null;
  /** The WAL's frames when the last turn ended: the same again, nothing was written since, and nothing needs a pause. */
  let walFramesSeen = 0;
  async function checkpointTurn(): Promise<void> {
    try {
      // It copies the WAL as it was when it began; under steady writes more follows meanwhile, and
      // the WAL restarts only when a write begins with every frame copied back.
      let seen = await checkpoint();
      if (!seen) return;
      if (seen.log > 0 && seen.log !== walFramesSeen) {
        // SQLite syncs the file only after a checkpoint that found no write after it: the pages
        // copied beside the writes are synced here, on a worker, so that the paused checkpoint
        // has only its own few to sync (about 20 µs a scattered page on this disk).
        await onMaintenanceWorker((worker) => worker.syncFile(options.syncDescriptor));
        // The pause may wait for a long write (an index build holds the writer): the maintenance
        // worker is not held meanwhile, and a background write waiting for it may go first.
        if (seen.log >= options.restartWalPages) await options.pauseWrites(async () => void (seen = (await checkpoint()) ?? seen));
      }
      walFramesSeen = seen.log;
    } catch {
      // The file busy or gone, or the worker ended: the next turn tries again, and the writer's own checkpoints are the backstop.
    }
  }

  let checkpoints: NodeJS.Timeout | undefined;
  if (background) {
    // The maintenance worker and a query worker start with the database, before anything asks for them.
    maintenanceWorker();
    idle.push(startReadWorker());
    checkpoints = setInterval(() => {
      if (!turn && !closing) turn = checkpointTurn().finally(() => (turn = null));
    }, options.checkpointEveryMs);
    checkpoints.unref();
  }

  return {
    read<Row>(query: CompiledQuery<Row>, caller: QueryCaller): Promise<Row[]> {
      // The budget starts once the query has its slot: its wait in the queue is bounded apart.
      return gate.run(caller, () => execute(query.sql, query.parameters, Date.now() + options.budgetMs)) as Promise<Row[]>;
    },
    /**
     * Statements in one transaction on the maintenance worker, with the other writes paused:
     * their work holds no request's event loop. While closing, on the paused writer itself.
     */
    write(statements) {
      return options.pauseWrites(async (writer) => {
        const written = await onMaintenanceWorker(async (worker) => {
          await worker.write(statements);
          return true;
        });
        if (!written) await writeInTransaction(writer, statements);
      });
    },
    async close() {
      closing = true;
      clearInterval(checkpoints);
      await turn;
      await Promise.all([...all, ...(maintenance ? [maintenance] : [])].map((worker) => worker.terminate()));
    },
  };
}
