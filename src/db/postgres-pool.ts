import pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * The pool Kysely is given: pg's own, with each client's statements prepared by name and each
 * client's queries made through pg's callback form of `client.query` instead of its promise form.
 *
 * Prepared by name: PostgreSQL then parses and plans a statement once per connection and after
 * five runs may keep a generic plan, where an unnamed statement is parsed and planned on every
 * run. A get's statement (a join carrying the metadata version) cost more to plan than to run:
 * named, a get went from 37 % to 66–69 % of a bare server's throughput (docs/performance.md).
 * Only statements through this pool are named: the record queries whose plan depends on the
 * caller's filters run on the bounded reader's own connections (postgres-bounded-reader.ts),
 * unnamed, planned for their values each time.
 *
 * The query is handed to pg as its own `Query`, made from the text, the values and the callback:
 * given a config object, pg copies it through its property descriptors first, on every query
 * (1.3 µs a query against 0.07 µs for the text form, measured alone: about 1 % of a get).
 *
 * The callback form: results are the same as the promise form's; what differs is how long
 * they live. With the promise form, pg's `Query` is made first and the callback that resolves the
 * promise is attached to it afterwards; rows then survive V8's young collections and are promoted
 * (a script reading 100 records a statement: about 1.2 MB promoted a collection against 45 KB
 * with the callback form), so a long export grew the old generation by 100 MB between full
 * collections (docs/decisions.md, "Export memory").
 */
export function kyselyPoolOf(pool: pg.Pool): PostgresPool {
  const adapters = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let adapter = adapters.get(client);
      if (!adapter) {
        adapter = adaptClient(client);
        adapters.set(client, adapter);
      }
      return adapter;
    },
    end: () => pool.end(),
  };
}

/** Longer texts (a batch's insert of many rows) are parsed on every run: their plans would weigh on every connection. */
const maxNamedText = 8 * 1024;
/** A connection that has prepared this many statements is closed on release, so that each server process's prepared statements stay bounded. */
export const maxStatementsPerConnection = 500;

/**
 * The name of each statement text: never given to another text, so a connection can never hold a
 * name for a different statement (pg refuses that). A text dropped from the cache and seen again
 * gets a new name; the connections that had the old one count it against their bound.
 */
const statementNames = new LRUCache<string, string>({ max: 2_000 });
let namesGiven = 0;

/** Planned statements only: `begin`, `commit` and DDL gain nothing from a name. */
const plannedStatement = /^\s*(select|insert|update|delete|with)\b/i;

function statementName(text: string): string | undefined {
  if (text.length > maxNamedText || !plannedStatement.test(text)) return undefined;
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tabula_${(namesGiven += 1).toString(36)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A prepared statement whose result columns changed under it (a system table's `select *` after
 * a newer process's migration added a column) fails with this on every run on that connection.
 */
function isStaleStatement(error: Error & { code?: string }): boolean {
  return error.code === '0A000' && /cached plan must not change result type/.test(error.message);
}

function adaptClient(client: pg.PoolClient): PostgresPoolClient {
  // pg-pool listens for a client's 'error' only while the client is idle. A checked-out client
  // whose connection the server ends (a restart, a dropped database, a terminated backend) emits
  // 'error' too, and unheard that would end the process. The error is not lost: a query running
  // then is rejected with it, and the next query on the dead client fails, so the request answers
  // 503 database_unavailable, and pg-pool drops the client on release.
  client.on('error', () => undefined);
  const prepared = new Set<string>();
  let discard = false;
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const name = statementName(sql);
    if (name !== undefined) prepared.add(name);
    if (prepared.size >= maxStatementsPerConnection) discard = true;
    return new Promise((resolve, reject) => {
      const statement = new pg.Query(sql, parameters as unknown[], (error: Error | undefined, result: pg.QueryResult) => {
        if (!error) return resolve(result as unknown as PostgresQueryResult<R>);
        if (isStaleStatement(error)) discard = true;
        reject(error);
      });
      // A field of every pg Query (its config's `name`), which pg's types leave out.
      (statement as { name?: string }).name = name;
      client.query(statement);
    });
  }
  // Released with `true`, pg-pool closes the connection (and its prepared statements) instead of keeping it.
  return { query: query as PostgresPoolClient['query'], release: () => client.release(discard || undefined) };
}
