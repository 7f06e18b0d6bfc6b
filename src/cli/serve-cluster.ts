import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';

/** A worker that dies this soon after it started is not restarted again (a crash at start would loop). */
const restartGraceMs = 10_000;

/**
 * The primary of `tabula serve --processes N`: it has already migrated and bootstrapped (once,
 * before any worker exists), and now forks N workers that each run the whole server on the same
 * port (node:cluster hands the connections round). It serves nothing itself and holds no database
 * connection. It prints the one `listening on` line once every worker listens, restarts a worker
 * that dies (unless it died at once after starting), and on SIGTERM/SIGINT passes the signal on,
 * waits for every worker's graceful stop, and exits 0. Workers share its stdout and stderr.
 */
export function runClusterPrimary(config: Config, processes: number): Promise<void> {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = new Set<number>();
  const startedAt = new Map<number, number>();
  // Workers whose process has not exited. Not cluster.workers: node removes a worker from it only
  // once both its exit and its IPC disconnect were seen, in either order, so at the last worker's
  // 'exit' it may still be listed and the primary would wait for an event that never comes.
  const alive = new Map<number, Worker>();
  let stopping = false;
  let announced = false;

  const fork = (): Worker => {
    // The workers' own `serve` sees this and skips the port check, the migrations' bootstrap and the listening line.
    const worker = cluster.fork({ TABULA_CLUSTER_WORKER: '1' });
    startedAt.set(worker.id, Date.now());
    alive.set(worker.id, worker);
    return worker;
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    if (!announced && listening.size >= processes) {
      announced = true;
      process.stdout.write(`listening on http://${host}:${address.port}\n`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    alive.delete(worker.id);
    if (stopping) {
      if (alive.size === 0) process.exit(0);
      return;
    }
    const livedMs = Date.now() - (startedAt.get(worker.id) ?? 0);
    process.stderr.write(`tabula serve: worker ${worker.process.pid} ended (${signal ?? `code ${code}`})${livedMs < restartGraceMs ? '; not restarted: it ended right after starting' : '; starting another'}\n`);
    if (livedMs >= restartGraceMs) fork();
    else if (alive.size === 0) process.exit(1);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') process.exit(130);
      return;
    }
    stopping = true;
    if (alive.size === 0) process.exit(0);
    for (const worker of alive.values()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let index = 0; index < processes; index++) fork();
  return new Promise(() => undefined);
}

/** Whether this process is a worker of `serve --processes N`. */
export const isClusterWorker = () => cluster.isWorker && process.env.TABULA_CLUSTER_WORKER === '1';
