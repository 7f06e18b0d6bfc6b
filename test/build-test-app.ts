import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import type { FeedSettings } from '../src/modules/changes/change-feed.js';
import type { DeliveryOptions } from '../src/modules/webhooks/webhook-delivery.js';
import type { Clock } from '../src/shared/clock.js';
import type { Lifecycle } from '../src/shared/lifecycle.js';
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
  /** The change feed's intervals and bounds (tests make them tiny). */
  feed?: Partial<FeedSettings>;
  /** Serve a built web console from this folder, as `tabula serve` does. */
  consoleDir?: string;
  /** Shared with `/readyz`, as `tabula serve` shares it with its graceful stop. */
  lifecycle?: Lifecycle;

  /** Where the app logs, as `tabula serve`'s LOG_LEVEL logger; absent, nothing is logged. */
  logger?: Logger;

  /** Deliver webhooks, as `tabula serve` does, with these settings (tests make them tiny); absent, nothing is delivered. */
  webhooks?: DeliveryOptions;
}

/** Options, or a function giving them when the app is built (for values known only then, like a free port). */
export type TestAppSetup = TestAppOptions | (() => TestAppOptions | Promise<TestAppOptions>);

/**
 * The app of a test file or `describe` block: built in a `beforeAll` registered here, closed with
 * its database in the matching `afterAll`. Hooks and tests registered after this call see it
 * built; the file's own `afterAll`s run before it closes. Reading the handle outside hooks and
 * tests (at collection time) throws.
 */
export function useTestApp(setup: TestAppSetup = {}): TestContext {
  return useApp(async () => buildTestApp(await optionsOf(setup)));
}

/** Like `useTestApp`, but a second process serving the database of `first` (see `buildSecondApp`). */
export function useSecondApp(first: TestContext, setup: TestAppSetup = {}): TestContext {
  return useApp(async () => buildSecondApp(first.database, await optionsOf(setup)));
}

function optionsOf(setup: TestAppSetup): TestAppOptions | Promise<TestAppOptions> {
  return typeof setup === 'function' ? setup() : setup;
}

function useApp(build: () => Promise<TestContext>): TestContext {
  let built: TestContext | undefined;
  const current = () => {
    if (!built) throw new Error('The test app exists from its beforeAll to its afterAll: use it inside hooks and tests');
    return built;
  };
  const close = async () => {
    const closing = built;
    built = undefined;
    await closing?.close();
  };
  beforeAll(async () => {
    built = await build();
  });
  afterAll(close);
  return {
    get app() {
      return current().app;
    },
    get container() {
      return current().container;
    },
    get database() {
      return current().database;
    },
    close,
  };
}

/** A real app on a fresh real database (SQLite or PostgreSQL, per TABULA_TEST_DB). */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  let served: TestContext;
  try {
    served = await serveDatabase(database, options);
  } catch (error) {
    await database.drop();
    throw error;
  }
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
  const container = await createContainer(loadConfig(env, { data: database.dataDir }), { clock: options.clock, feed: options.feed, webhooks: options.webhooks });
  try {
    const app = await buildApp(container, { redisPrefix: options.redisPrefix ?? `tabula-test-${crypto.randomBytes(6).toString('hex')}:`, consoleDir: options.consoleDir, lifecycle: options.lifecycle, logger: options.logger });
    await app.ready();
    if (options.webhooks) await container.services.webhookDelivery.start();
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
