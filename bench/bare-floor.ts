/**
 * The bare floor (issue 32): a node:http server that answers a record get, create and update
 * with one prepared statement each and `JSON.stringify` of the row, nothing else: no framework,
 * no authentication, no metadata version, no lookup titles, no search text, no change log. What a
 * user would write by hand against the same table; `npm run bench` reports Tabula's share of it
 * beside its share of bench/floor-server.ts (which runs every statement the service runs).
 *
 * GET /get/<id>: the record's row. POST /create: the body's record (`{ data }`, as records/create
 * takes it), inserted with `returning`. POST /update/<id>: the body's amount, with `returning`.
 */
import http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';
import { defaultDatabaseConnections } from '../src/db/database-engine.js';

interface BareConfig {
  engine: 'sqlite' | 'postgres';
  sqlitePath?: string;
  databaseUrl?: string;
  tableId: number;
  columns: Record<string, string>;
}

const config = JSON.parse(process.env.BENCH_FLOOR_CONFIG!) as BareConfig;
const table = `rec_${config.tableId}`;
const postgres = config.engine === 'postgres';
const p = (n: number) => (postgres ? `$${n}` : '?');
const slugs = Object.keys(config.columns);
const allColumns = ['id', 'created_at', 'updated_at', 'created_by', ...slugs.map((slug) => config.columns[slug])].join(', ');
const insertColumns = ['created_at', 'updated_at', 'created_by', ...slugs.map((slug) => config.columns[slug])];
const statements = {
  get: `select ${allColumns} from ${table} where id = ${p(1)}`,
  create: `insert into ${table} (${insertColumns.join(', ')}) values (${insertColumns.map((_, i) => p(i + 1)).join(', ')}) returning ${allColumns}`,
  update: `update ${table} set ${config.columns.amount} = ${p(1)}, updated_at = ${p(2)} where id = ${p(3)} returning ${allColumns}`,
};
const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

/** A value as the column takes it: arrays as JSON text, booleans as 0/1 on SQLite. */
function columnValue(value: unknown): unknown {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean' && !postgres) return value ? 1 : 0;
  return value ?? null;
}

type Run = (name: keyof typeof statements, params: unknown[]) => Promise<unknown> | unknown;

function openRunner(): Run {
  if (!postgres) {
    const db = new Database(config.sqlitePath!);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    const prepared = { get: db.prepare(statements.get), create: db.prepare(statements.create), update: db.prepare(statements.update) };
    return (name, params) => prepared[name].get(...params);
  }
  // As many connections as Tabula keeps by default: the comparison is of the work, not of that setting.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: defaultDatabaseConnections() });
  // Named: prepared once per connection, as a hand-written server would.
  return async (name, params) => (await pool.query({ name, text: statements[name], values: params })).rows[0];
}

const run = openRunner();

async function answer(shape: string, id: number, body: string): Promise<unknown> {
  switch (shape) {
    case 'get':
      return run('get', [id]);
    case 'create': {
      const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
      const t = now();
      return run('create', [t, t, 1, ...slugs.map((slug) => columnValue(data[slug]))]);
    }
    case 'update': {
      const data = (JSON.parse(body) as { data: { amount: number } }).data;
      return run('update', [data.amount, now(), id]);
    }
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

const server = http.createServer((request, response) => {
  const [, shape, id] = (request.url ?? '').split('/');
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    Promise.resolve()
      .then(() => answer(shape, Number(id), Buffer.concat(chunks).toString('utf8')))
      .then(
        (row) => {
          if (row === undefined) {
            response.writeHead(404);
            return response.end();
          }
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(row));
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
