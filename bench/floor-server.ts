/**
 * The floor: the same SQL the service runs for each shape, answered by a bare node:http
 * handler (query + JSON.stringify; no framework, no auth, no value resolution). Writes run
 * the insert (with its search text, in one transaction, as the service does) or the update
 * alone; the service's extra statements around them are its cost.
 * Comments run every statement the service runs for them: a read checks the metadata version
 * and the record, then reads the page; a create with a mention also, in one transaction,
 * lists the space's members, inserts the comment, the mentioned member's notification and
 * subscription, lists the record's followers and inserts the audit event.
 * A delete removes the row and its search text in one transaction (what a delete was before the
 * trash). A history page reads the record's changes by (table_id, record_id, seq).
 * A create-batch parses the request's records and inserts them with one multi-row statement,
 * their search text and system columns included, in one transaction, answering the rows.
 */
import http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';
import { defaultDatabaseConnections } from '../src/db/database-engine.js';

interface FloorConfig {
  engine: 'sqlite' | 'postgres';
  sqlitePath?: string;
  databaseUrl?: string;
  tableId: number;
  columns: Record<string, string>;
  stage: string;
  searchTerm: string;
  userId: number;
  history: null | { recordId: number };
  comments: null | { threadId: number; createId: number; apiKeyId: number; userName: string; deepOffset: number; content: string; mentionUserId: number };
}

const config = JSON.parse(process.env.BENCH_FLOOR_CONFIG!) as FloorConfig;
const table = `rec_${config.tableId}`;
const c = config.columns;
const allColumns = ['id', 'created_at', 'updated_at', ...Object.values(c)].join(', ');
const pgDialect = config.engine === 'postgres';
const p = (n: number) => (pgDialect ? `$${n}` : '?');
// The search text lives beside the record, in `<table>_search` (records/search/).
const searchSql = pgDialect
  ? `id in (select id from ${table}_search where text like ${p(1)} order by id limit 100)`
  : `id in (select rowid from ${table}_fts where ${table}_fts match ${p(1)} and instr(text, ${p(2)}) > 0 order by rowid limit 100)`;
const filteredSearchSql = pgDialect
  ? `id in (select id from ${table}_search where text like ${p(2)})`
  : `id in (select rowid from ${table}_fts where ${table}_fts match ${p(2)}) and exists (select 1 from ${table}_search as s where s.id = ${table}.id and instr(text, ${p(3)}) > 0)`;
const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

// SQLite's index keeps no trigram positions: it narrows to the records holding every trigram, instr checks the term.
const trigrams = Array.from({ length: config.searchTerm.length - 2 }, (_, i) => `"${config.searchTerm.slice(i, i + 3)}"`);
const searchParameters = pgDialect ? [`%${config.searchTerm}%`] : [trigrams.join(' AND '), config.searchTerm];

type Run = (sql: string, params: unknown[]) => Promise<unknown[]>;
/** Runs `work` in one transaction, on one connection, as the service's transactions do. */
type Transaction = <T>(work: (run: Run) => Promise<T>) => Promise<T>;

function openRunner(): { run: Run; transaction: Transaction } {
  if (config.engine === 'sqlite') {
    const db = new Database(config.sqlitePath!);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    const cache = new Map<string, Database.Statement>();
    const run: Run = async (sql, params) => {
      let statement = cache.get(sql);
      if (!statement) cache.set(sql, (statement = db.prepare(sql)));
      return statement.reader ? statement.all(...params) : [statement.run(...params)];
    };
    // Statements here finish synchronously, and `work` awaits only them: no other request's statement runs inside.
    const transaction: Transaction = async (work) => {
      db.exec('begin');
      try {
        const result = await work(run);
        db.exec('commit');
        return result;
      } catch (error) {
        db.exec('rollback');
        throw error;
      }
    };
    return { run, transaction };
  }
  // As many connections as Tabula keeps by default: the comparison is of the work, not of that setting.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: defaultDatabaseConnections() });
  const transaction: Transaction = async (work) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await work(async (sql, params) => (await client.query(sql, params)).rows);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };
  return { run: async (sql, params) => (await pool.query(sql, params)).rows, transaction };
}

const { run, transaction } = openRunner();

/** The lookup field's target table and title column, as the service's record reads select them. */
async function findLookupTitle(): Promise<{ table: string; titleColumn: string }> {
  const [field] = (await run(`select settings_json from fields where table_id = ${p(1)} and slug = 'company'`, [config.tableId])) as { settings_json: string }[];
  const targetId = (JSON.parse(field.settings_json) as { table_id: number }).table_id;
  const [title] = (await run(`select min(id) as id from fields where table_id = ${p(1)}`, [targetId])) as { id: number }[];
  return { table: `rec_${targetId}`, titleColumn: `f_${title.id}` };
}

// What the service adds to every record read: the lookup's target id and title, and the metadata version.
const lookup = await findLookupTitle();
const lookupColumns = [
  `(select lk.id from ${lookup.table} as lk where lk.id = r.${c.company}) as ${c.company}__found`,
  `(select lk.${lookup.titleColumn} from ${lookup.table} as lk where lk.id = r.${c.company}) as ${c.company}__title`,
].join(', ');
const readColumns = `${allColumns.split(', ').map((column) => `r.${column}`).join(', ')}, ${lookupColumns}`;
const pageColumns = `${readColumns}, (select version from metadata_version where id = 1) as metadata_version`;

const statements = {
  // The same statements the service runs: page the ids, then read those rows (with lookup titles and the metadata version).
  // The bench table has no one-field amount index (it is made through the API, its indexes by the
  // service): the plain statement, which the automatic (stage, amount desc) index serves.
  list: `select ${pageColumns} from ${table} as r where r.id in (select id from ${table} where ${c.stage} = ${p(1)} order by ${c.amount} desc nulls last, id asc limit 100 offset ${p(2)}) order by ${c.amount} desc nulls last, id asc`,
  listNewest: `select ${pageColumns} from ${table} as r where r.id in (select id from ${table} where ${c.stage} = ${p(1)} order by created_at desc nulls last, id asc limit 100) order by created_at desc nulls last, id asc`,
  count: `select count(*) as count from ${table} where ${c.stage} = ${p(1)}`,
  countAll: `select count(*) as count from ${table}`,
  search: `select ${pageColumns} from ${table} as r where r.id in (select id from ${table} where ${searchSql} order by id asc limit 100) order by id asc`,
  // A filtered, sorted page of search results: the search condition as the service states it
  // beside other conditions (the record's text looked up by id), the list's order.
  searchList: `select ${pageColumns} from ${table} as r where r.id in (select id from ${table} where ${c.stage} = ${p(1)} and ${filteredSearchSql} order by ${c.amount} desc nulls last, id asc limit 100) order by ${c.amount} desc nulls last, id asc`,
  get: `select v.version as metadata_version, ${readColumns} from metadata_version as v left join ${table} as r on r.id = ${p(1)} where v.id = 1`,
  create: `insert into ${table} (created_at, updated_at, created_by, ${c.name}, ${c.amount}, ${c.stage}) values (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}) returning ${allColumns}`,
  createText: `insert into ${table}_search (id, text) values (${p(1)}, ${p(2)})`,
  delete: `delete from ${table} where id = ${p(1)}`,
  deleteText: `delete from ${table}_search where id = ${p(1)}`,
  history: `select seq, kind, table_id, space_id, record_id, comment_id, at, actor_user_id, actor_api_key_id, actor_name, payload_json from changes where table_id = ${p(1)} and record_id = ${p(2)} order by seq desc limit 50`,
  historyBefore: `select seq, kind, table_id, space_id, record_id, comment_id, at, actor_user_id, actor_api_key_id, actor_name, payload_json from changes where table_id = ${p(1)} and record_id = ${p(2)} and seq < ${p(3)} order by seq desc limit 50`,
  update: `update ${table} set ${c.amount} = ${p(1)}, updated_at = ${p(2)} where id = ${p(3)} returning ${allColumns}`,
};

/** The statements of comments/get and comments/create (comments.repository.ts, notifications.repository.ts, spaces.repository.ts). */
const commentStatements = {
  version: `select (select version from metadata_version where id = 1) as version`,
  record: `select id as value from ${table} where id = ${p(1)}`,
  page: `select * from comments where table_id = ${p(1)} and record_id = ${p(2)} order by id desc limit ${p(3)} offset ${p(4)}`,
  members: `select m.user_id, u.email, u.name, m.role from members as m inner join users as u on u.id = m.user_id where m.space_id = ${p(1)} order by m.user_id`,
  insert: `insert into comments (account_id, table_id, record_id, user_id, user_name, api_key_id, content, attachments_json, type, status, email_json, created_at, updated_at) values (${Array.from({ length: 13 }, (_, i) => p(i + 1)).join(', ')}) returning id`,
  notify: `insert into notifications (account_id, user_id, kind, actor_user_id, actor_name, table_id, record_id, comment_id, created_at, read_at) values (${Array.from({ length: 10 }, (_, i) => p(i + 1)).join(', ')})`,
  subscribe: `insert into subscriptions (table_id, record_id, user_id, created_at) values (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}) on conflict (table_id, record_id, user_id) do nothing`,
  followers: `select distinct user_id from subscriptions where table_id = ${p(1)} and record_id in (${p(2)}, ${p(3)})`,
  event: `insert into events (account_id, kind, user_id, api_key_id, table_id, record_id, comment_id, created_at) values (${Array.from({ length: 8 }, (_, i) => p(i + 1)).join(', ')})`,
};
const place = config.comments ? ((await run(`select account_id, space_id from tables where id = ${p(1)}`, [config.tableId])) as Array<{ account_id: number; space_id: number }>)[0] : null;

async function commentPage(offset: number): Promise<unknown> {
  const comments = config.comments!;
  await run(commentStatements.version, []);
  if ((await run(commentStatements.record, [comments.threadId])).length === 0) throw new Error('no such record');
  return run(commentStatements.page, [config.tableId, comments.threadId, 20, offset]);
}

async function createComment(): Promise<unknown> {
  const comments = config.comments!;
  const { account_id: accountId, space_id: spaceId } = place!;
  await run(commentStatements.version, []);
  if ((await run(commentStatements.record, [comments.createId])).length === 0) throw new Error('no such record');
  return transaction(async (trx) => {
    const t = now();
    await trx(commentStatements.members, [spaceId]);
    const values = [accountId, config.tableId, comments.createId, 0, comments.userName, comments.apiKeyId, comments.content, '[]', 'comment', null, null, t, null];
    const [{ id }] = (await trx(commentStatements.insert, values)) as Array<{ id: number }>;
    await trx(commentStatements.notify, [accountId, comments.mentionUserId, 'comment.mention', 0, comments.userName, config.tableId, comments.createId, id, t, null]);
    await trx(commentStatements.subscribe, [config.tableId, comments.createId, comments.mentionUserId, t]);
    await trx(commentStatements.followers, [config.tableId, 0, comments.createId]);
    await trx(commentStatements.event, [accountId, 'comment.created', config.userId, comments.apiKeyId, config.tableId, comments.createId, id, t]);
    return { id, table_id: config.tableId, record_id: comments.createId, user_id: 0, user_name: comments.userName, api_key_id: comments.apiKeyId, content: comments.content, attachments: [], created_at: t, updated_at: null, type: 'comment', status: null };
  });
}

/** The fields of the bench table, as create_batch writes them (every column of a record). */
const slugs = Object.keys(c);
const batchColumns = ['created_at', 'updated_at', 'created_by', ...slugs.map((slug) => c[slug])];
const batchStatements = new Map<string, string>();

/** A multi-row insert of `rowCount` rows into `into` (its columns), made once per size. */
function batchInsertSql(into: string, columns: readonly string[], rowCount: number, returning: string): string {
  const key = `${into}:${rowCount}`;
  let text = batchStatements.get(key);
  if (!text) {
    let n = 0;
    const row = () => `(${columns.map(() => p((n += 1))).join(', ')})`;
    text = `insert into ${into} (${columns.join(', ')}) values ${Array.from({ length: rowCount }, row).join(', ')}${returning}`;
    batchStatements.set(key, text);
  }
  return text;
}

/** A stored value as the column takes it: JSON arrays as text, booleans as 0/1 on SQLite. */
function columnValue(value: unknown): unknown {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean' && !pgDialect) return value ? 1 : 0;
  return value ?? null;
}

async function createBatch(body: string): Promise<unknown> {
  const records = (JSON.parse(body) as { records: Array<{ data: Record<string, unknown> }> }).records;
  const t = now();
  const parameters: unknown[] = [];
  const texts: string[] = [];
  for (const { data } of records) {
    texts.push([data.name, data.notes, data.stage, ...((data.tags as string[]) ?? [])].filter((value) => value !== undefined && value !== null).join('\n').toLowerCase());
    parameters.push(t, t, config.userId);
    for (const slug of slugs) parameters.push(columnValue(data[slug]));
  }
  // The records, then their search texts beside them, in one transaction, as the service writes them.
  return transaction(async (trx) => {
    const rows = (await trx(batchInsertSql(table, batchColumns, records.length, ` returning ${allColumns}`), parameters)) as Array<{ id: number }>;
    const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    await trx(batchInsertSql(`${table}_search`, ['id', 'text'], ids.length, ''), ids.flatMap((id, n) => [id, texts[n]]));
    return rows;
  });
}

async function answer(shape: string, id: number, body: string): Promise<unknown> {
  switch (shape) {
    case 'list':
      return run(statements.list, [config.stage, 0]);
    case 'list-deep':
      return run(statements.list, [config.stage, 10_000]);
    case 'list-newest':
      return run(statements.listNewest, [config.stage]);
    case 'count':
      return (await run(statements.count, [config.stage]))[0];
    case 'count-all':
      return (await run(statements.countAll, []))[0];
    case 'search':
      return run(statements.search, searchParameters);
    case 'search-list':
      return run(statements.searchList, [config.stage, ...searchParameters]);
    case 'get':
      return (await run(statements.get, [id]))[0];
    case 'create': {
      const t = now();
      // The record and its search text in one transaction, as the service writes them.
      return transaction(async (trx) => {
        const [row] = (await trx(statements.create, [t, t, config.userId, 'floor record', 12.5, config.stage])) as Array<{ id: number }>;
        await trx(statements.createText, [row.id, `floor record\n${config.stage}`]);
        return row;
      });
    }
    case 'create-batch':
      return createBatch(body);
    case 'update':
      return (await run(statements.update, [Math.round(Math.random() * 1e6) / 100, now(), id]))[0];
    case 'delete':
      return transaction(async (trx) => {
        await trx(statements.delete, [id]);
        await trx(statements.deleteText, [id]);
        return { id, deleted: true };
      });
    case 'history':
      return run(statements.history, [config.tableId, config.history!.recordId]);
    case 'history-deep':
      return run(statements.historyBefore, [config.tableId, config.history!.recordId, id]);
    case 'comments-newest':
      return commentPage(0);
    case 'comments-deep':
      return commentPage(config.comments!.deepOffset);
    case 'comments-create':
      return createComment();
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

const server = http.createServer((request, response) => {
  const [, shape, id] = (request.url ?? '').split('/');
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    answer(shape, Number(id), Buffer.concat(chunks).toString('utf8')).then(
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
