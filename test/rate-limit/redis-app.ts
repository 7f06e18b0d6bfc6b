import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import type { TestContext } from '../build-test-app.js';
import { createTestDatabase } from '../test-database.js';

/**
 * Like buildTestApp, but with a Redis key prefix the test chooses, so that it can look at
 * its counters in Redis and delete them afterwards.
 */
export async function buildAppWithPrefix(options: { env: Record<string, string>; redisPrefix: string }): Promise<TestContext> {
  const database = await createTestDatabase();
  const env = {
    TABULA_SECRET: 'test-secret',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  };
  let container;
  try {
    container = await createContainer(loadConfig(env, { data: database.dataDir }));
    const app = await buildApp(container, { redisPrefix: options.redisPrefix });
    await app.ready();
    const built = container;
    return {
      app,
      container: built,
      database,
      async close() {
        await app.close();
        await built.close();
        await database.drop();
      },
    };
  } catch (error) {
    await container?.close();
    await database.drop();
    throw error;
  }
}
