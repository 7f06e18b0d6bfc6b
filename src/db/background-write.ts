import { CompiledQuery, type Kysely } from 'kysely';

/** A statement of a background write: its SQL text and parameters. */
export interface WrittenStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** Runs statements in one write transaction somewhere other than the event loop's writer (sqlite-database.ts). */
export type BackgroundWriter = (statements: readonly WrittenStatement[]) => Promise<void>;

const backgroundWriters = new WeakMap<Kysely<any>, BackgroundWriter>();

export function registerBackgroundWriter(db: Kysely<any>, write: BackgroundWriter): void {
  backgroundWriters.set(db, write);
}

/** Runs `statements` on `db` in one transaction, the way a write looks like to the other writes. */
export async function writeInTransaction(db: Kysely<any>, statements: readonly WrittenStatement[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const statement of statements) await trx.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters]));
  });
}

/**
 * A write no caller waits for (the search index's catch-up), in one transaction: on a SQLite
 * server on a worker thread with the other writes paused, so that its work never holds the event
 * loop (docs/decisions.md, "The search index catches up on a worker"); elsewhere (a command) on
 * `db`'s writer as any write.
 */
export function runBackgroundWrite(db: Kysely<any>, statements: readonly CompiledQuery[]): Promise<void> {
  const written = statements.map((statement) => ({ sql: statement.sql, parameters: statement.parameters }));
  const write = backgroundWriters.get(db);
  return write ? write(written) : writeInTransaction(db, written);
}
