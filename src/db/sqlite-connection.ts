import type SqliteDatabase from 'better-sqlite3';

/** Thrown by `tabula_within_budget()` once the statement's deadline has passed. */
export class BudgetExceeded extends Error {
  constructor() {
    super('query time budget exceeded');
  }
}

/** When the statement running on this thread must stop (ms since the epoch); Infinity: never. */
let deadline = Infinity;

export function setStatementDeadline(value: number): void {
  deadline = value;
}

/** Settings and functions every connection to the database file has, on any thread. */
export function configureSqliteConnection(connection: SqliteDatabase.Database): void {
  connection.pragma('busy_timeout = 10000');
  // SQLite's lower() folds ASCII only; records search and text sort need Unicode-aware folding like PostgreSQL's.
  connection.function('unicode_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  // better-sqlite3 cannot interrupt a statement; a record query checks its deadline now and then
  // through this function instead (see Dialect.budgetGuard).
  connection.function('tabula_within_budget', { deterministic: false }, () => {
    if (Date.now() > deadline) throw new BudgetExceeded();
    return 1;
  });
}

/** Prepared statements by SQL text, the 1,000 most recently prepared. */
export function createStatementCache(connection: SqliteDatabase.Database): (source: string) => SqliteDatabase.Statement {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return (source) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = connection.prepare(source);
      if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  };
}
