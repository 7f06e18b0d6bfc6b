/**
 * The floor: the same SQL the service runs for each shape, answered by a bare node:http
 * handler (query + JSON.stringify; no framework, no auth, no value resolution).
 */
import http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

interface FloorConfig {
  engine: 'sqlite' | 'postgres';
  sqlitePath?: string;
  databaseUrl?: string;
  tableId: number;
  columns: Record<string, string>;
  stage: string;
  searchTerm: string;
  userId: number;
}

const config = JSON.parse(process.env.BENCH_FLOOR_CONFIG!) as FloorConfig;
const table = `rec_${config.tableId}`;
const c = config.columns;
const allColumns = ['id', 'created_at', 'updated_at', ...Object.values(c)].join(', ');
const pgDialect = config.engine === 'postgres';
const p = (n: number) => (pgDialect ? `$${n}` : '?');
const searchSql = pgDialect
  ? `_search like ${p(1)}`
  : `id in (select rowid from ${table}_fts where ${table}_fts match ${p(1)})`;
const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

const statements = {
  // The same two-step statement the service runs: page the ids, then read those rows.
  list: `select ${allColumns} from ${table} where id in (select id from ${table} where ${c.stage} = ${p(1)} order by ${c.amount} desc nulls last, id asc limit 100 offset ${p(2)}) order by ${c.amount} desc nulls last, id asc`,
  count: `select count(*) as count from ${table} where ${c.stage} = ${p(1)}`,
  countAll: `select count(*) as count from ${table}`,
  search: `select ${allColumns} from ${table} where id in (select id from ${table} where ${searchSql} order by id asc limit 100) order by id asc`,
  get: `select ${allColumns} from ${table} where id = ${p(1)}`,
  create: `insert into ${table} (created_at, updated_at, created_by, _search, ${c.name}, ${c.amount}, ${c.stage}) values (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}) returning ${allColumns}`,
  update: `update ${table} set ${c.amount} = ${p(1)}, updated_at = ${p(2)} where id = ${p(3)} returning ${allColumns}`,
};
const searchParameter = pgDialect ? `%${config.searchTerm}%` : `"${config.searchTerm}"`;

type Run = (sql: string, params: unknown[]) => Promise<unknown[]>;

function openRunner(): Run {
  if (config.engine === 'sqlite') {
    const db = new Database(config.sqlitePath!);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    const cache = new Map<string, Database.Statement>();
    return async (sql, params) => {
      let statement = cache.get(sql);
      if (!statement) cache.set(sql, (statement = db.prepare(sql)));
      return statement.reader ? statement.all(...params) : [statement.run(...params)];
    };
  }
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
  return async (sql, params) => (await pool.query(sql, params)).rows;
}

const run = openRunner();

async function answer(shape: string, id: number): Promise<unknown> {
  switch (shape) {
    case 'list':
      return run(statements.list, [config.stage, 0]);
    case 'list-deep':
      return run(statements.list, [config.stage, 10_000]);
    case 'count':
      return (await run(statements.count, [config.stage]))[0];
    case 'count-all':
      return (await run(statements.countAll, []))[0];
    case 'search':
      return run(statements.search, [searchParameter]);
    case 'get':
      return (await run(statements.get, [id]))[0];
    case 'create': {
      const t = now();
      return (await run(statements.create, [t, t, config.userId, 'floor record', 'floor record', 12.5, config.stage]))[0];
    }
    case 'update':
      return (await run(statements.update, [Math.round(Math.random() * 1e6) / 100, now(), id]))[0];
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

const server = http.createServer((request, response) => {
  const [, shape, id] = (request.url ?? '').split('/');
  request.resume();
  request.on('end', () => {
    answer(shape, Number(id)).then(
      (body) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      },
      (error: Error) => {
        response.writeHead(500);
        response.end(error.message);
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
