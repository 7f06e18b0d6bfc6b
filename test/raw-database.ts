import type { Kysely } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** A fresh database of this run's engine, opened as the app opens it but without the app: for tests of src/db and the migrations. */
export interface RawDatabase {
  /** The database itself: its URL (null on SQLite) and data directory. */
  database: TestDatabase;
  opened: Database;
  /** `opened.db` untyped: these tests make and read tables of their own. */
  db: Kysely<any>;
}

/** Creates and opens one; the caller closes it with `closeRawDatabase` (in its `afterAll`). */
export async function openRawDatabase(): Promise<RawDatabase> {
  const database = await createTestDatabase();
  try {
    const opened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    return { database, opened, db: opened.db as unknown as Kysely<any> };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** Closes the connections, then drops the database; either may be missing when the `beforeAll` failed. */
export async function closeRawDatabase({ opened, database }: { opened?: Database; database?: TestDatabase }): Promise<void> {
  await opened?.destroy();
  await database?.drop();
}
