import crypto from 'node:crypto';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import type { Clock } from '../src/shared/clock.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestContext {
  app: App;
  container: Container;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Redis key prefix; by default one of its own, so apps share counters only when given the same. */
  redisPrefix?: string;
}

/** A real app on a fresh real database (SQLite or PostgreSQL, per TABULA_TEST_DB). */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const served = await serveDatabase(database, options);
  return {
    ...served,
    async close() {
      await served.close();
      await database.drop();
    },
  };
}

/**
 * Another app on an existing test database: it stands for a second process serving the same
 * data. Closing it closes its app and connections only; the database stays for its owner.
 */
export function buildSecondApp(database: TestDatabase, options: TestAppOptions = {}): Promise<TestContext> {
  return serveDatabase(database, options);
}

async function serveDatabase(database: TestDatabase, options: TestAppOptions): Promise<TestContext> {
  const env = {
    TABULA_SECRET: 'test-secret',
    TABULA_RATE_LIMIT_PER_MINUTE: '1000000',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  };
  const container = await createContainer(loadConfig(env, { data: database.dataDir }), { clock: options.clock });
  try {
    const app = await buildApp(container, { redisPrefix: options.redisPrefix ?? `tabula-test-${crypto.randomBytes(6).toString('hex')}:` });
    await app.ready();
    return {
      app,
      container,
      database,
      async close() {
        await app.close();
        await container.close();
      },
    };
  } catch (error) {
    await container.close();
    throw error;
  }
}
