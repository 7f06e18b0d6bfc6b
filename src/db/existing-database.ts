import fs from 'node:fs';
import path from 'node:path';

/** The SQLite file of a data directory. */
export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, 'tabula.db');
}

/**
 * Why the configured database is not an existing Tabula database, or null when it is: for the
 * commands that must work on one (`keys`, `users`, …), so that a mistyped `--data` or
 * DATABASE_URL is an error naming it rather than a new, empty database. Opens nothing it would
 * create: the SQLite file is only looked for; PostgreSQL is asked for the migrations table.
 */
export async function describeMissingDatabase(options: { databaseUrl: string | null; dataDir: string }): Promise<string | null> {
  if (!options.databaseUrl) {
    const file = sqliteFileOf(options.dataDir);
    if (fs.existsSync(file)) return null;
    const where = fs.existsSync(options.dataDir) ? `No Tabula database in ${options.dataDir} (no ${path.basename(file)})` : `No data directory ${options.dataDir}`;
    return `${where}: check --data or TABULA_DATA_DIR; \`tabula init\` or \`tabula serve\` creates a new one`;
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const result = await client.query<{ present: boolean }>(`select to_regclass('kysely_migration') is not null as present`);
    if (result.rows[0]?.present) return null;
  } finally {
    await client.end();
  }
  return `The PostgreSQL database ${describePostgresUrl(options.databaseUrl)} has no Tabula schema: check DATABASE_URL; \`tabula init\`, \`tabula serve\` or \`tabula migrate\` sets one up`;
}

/** `postgres://user@host:5432/name`, never the password. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return 'of DATABASE_URL';
  }
}
