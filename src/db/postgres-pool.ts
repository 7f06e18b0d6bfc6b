import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * The pool Kysely is given: pg's own, with each client's queries made through pg's callback form
 * of `client.query` instead of its promise form. Results are the same; what differs is how long
 * they live. With the promise form, pg's `Query` is made first and the callback that resolves the
 * promise is attached to it afterwards; rows then survive V8's young collections and are promoted
 * (a script reading 100 records a statement: about 1.2 MB promoted a collection against 45 KB
 * with the callback form), so a long export grew the old generation by 100 MB between full
 * collections (docs/decisions.md, "Export memory").
 */
export function callbackFormPool(pool: pg.Pool): PostgresPool {
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

function adaptClient(client: pg.PoolClient): PostgresPoolClient {
  // pg-pool listens for a client's 'error' only while the client is idle. A checked-out client
  // whose connection the server ends (a restart, a dropped database, a terminated backend) emits
  // 'error' too, and unheard that would end the process. The error is not lost: a query running
  // then is rejected with it, and the next query on the dead client fails, so the request answers
  // 503 database_unavailable, and pg-pool drops the client on release.
  client.on('error', () => undefined);
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    return new Promise((resolve, reject) => {
      client.query(sql, parameters as unknown[], (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result as unknown as PostgresQueryResult<R>)));
    });
  }
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}
