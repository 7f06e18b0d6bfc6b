import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type TestEngine = 'sqlite' | 'postgres';

/** Which engine this run tests; `npm test` runs every file once per engine. */
export const testEngine: TestEngine = process.env.TABULA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** null on SQLite. */
  databaseUrl: string | null;
  /** Temporary data directory (SQLite file, secret, files). */
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temp SQLite file, or a new PostgreSQL database dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-test-'));
  if (testEngine === 'sqlite') {
    return { databaseUrl: null, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `tabula_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  await runAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      await runAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function runAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
