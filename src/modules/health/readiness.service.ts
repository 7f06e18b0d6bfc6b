import { pendingMigrations, type Database } from '../../db/database.js';
import type { Lifecycle } from '../../shared/lifecycle.js';

export type Readiness = { ready: true } | { ready: false; reason: 'draining' | 'database_unavailable' | 'migrations_pending'; message: string };

/** Longest the readiness check waits for the database: a load balancer's probe has its own short timeout. */
const databaseCheckTimeoutMs = 2000;

/**
 * Whether this process should get traffic: not stopping, its database answering, and every
 * migration it knows applied. One small query per check (the migrations table), no cache: a
 * probe every few seconds costs nothing and sees a database that went away at once.
 */
export function createReadiness(deps: { database: Database; lifecycle: Lifecycle }) {
  return {
    async check(): Promise<Readiness> {
      if (deps.lifecycle.draining) return { ready: false, reason: 'draining', message: 'The process is stopping; send requests to another one' };
      let pending: string[];
      try {
        pending = await withTimeout(pendingMigrations(deps.database), databaseCheckTimeoutMs);
      } catch (error) {
        return { ready: false, reason: 'database_unavailable', message: `The database does not answer: ${(error as Error).message}` };
      }
      if (pending.length > 0) return { ready: false, reason: 'migrations_pending', message: `Migrations not applied yet: ${pending.join(', ')} (run tabula migrate)` };
      return { ready: true };
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
