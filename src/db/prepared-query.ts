import { SelectQueryNode, type CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Stand-ins the query is first built with, so their positions among the parameters can be found. */
class Placeholder {
  constructor(readonly index: number) {}
}

interface Prepared<Row> {
  sql: string;
  slots: number[];
  query: CompiledQuery<Row>;
  /** A select: outside a transaction it may go to the direct reader. */
  reads: boolean;
}

function compileWithPlaceholders<Row>(count: number, build: (placeholders: unknown[]) => Compilable<Row>): Prepared<Row> {
  const query = build(Array.from({ length: count }, (_, index) => new Placeholder(index))).compile();
  const slots = query.parameters.map((value) => {
    if (!(value instanceof Placeholder)) throw new Error(`prepareQuery: a constant parameter in ${query.sql}`);
    return value.index;
  });
  return { sql: query.sql, slots, query, reads: SelectQueryNode.is(query.query) };
}

/**
 * What compiled statements are kept by: the adapter, which a Kysely instance shares with every
 * transaction it opens (each root instance has its own), so a statement compiled once serves
 * the instance and all its transactions. An instance with plugins, which may change what a
 * query compiles to, keeps its own.
 */
function compiledKeyOf(db: Kysely<any>): object {
  const executor = db.getExecutor();
  return executor.plugins.length === 0 ? executor.adapter : db;
}

/** Runs a compiled read statement with its parameters, outside Kysely. */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;

const directReaders = new WeakMap<Kysely<any>, DirectReader>();

/**
 * Reads run through `db` itself (never one of its transactions) with `runRead` or a prepared
 * query go to `read` instead of Kysely's executor: SQLite's read connection (sqlite-database.ts), with
 * no connection lock to wait for.
 */
export function registerDirectReader(db: Kysely<any>, read: DirectReader): void {
  directReaders.set(db, read);
}

/** Runs a compiled read statement (a select): on the direct reader registered for `db`, if any, else through Kysely. */
export async function runRead<Row>(db: Kysely<any>, query: CompiledQuery<Row>): Promise<Row[]> {
  const direct = directReaders.get(db);
  if (direct) return direct(query.sql, query.parameters) as Promise<Row[]>;
  return (await db.executeQuery<Row>(query)).rows;
}

/** Runs a compiled statement at once on the connection a transaction holds, outside Kysely. */
export type TransactionRunner = (sql: string, parameters: readonly unknown[]) => unknown[];

const transactionRunners = new WeakMap<object, TransactionRunner>();

/**
 * The statements a transaction of `db` (never `db` itself) runs through a prepared query go to
 * `run` instead of Kysely's executor: SQLite's writer (sqlite-database.ts), whose one connection
 * the transaction holds until it ends, and whose statements run synchronously. Kysely's path
 * (a query object, its connection provider's queue, the driver's promise) cost more than
 * SQLite's execution of the statements of an update (docs/performance.md, session 39).
 */
export function registerTransactionRunner(db: Kysely<any>, run: TransactionRunner): void {
  transactionRunners.set(db.getExecutor().adapter, run);
}

async function runPrepared<Row>(db: Kysely<any>, prepared: Prepared<Row>, params: unknown[]): Promise<Row[]> {
  const parameters = prepared.slots.map((slot) => params[slot]);
  // The direct reader needs only the text and the values: no CompiledQuery to build and freeze.
  // Only the root instance has one: a transaction's statements run on its own connection.
  const direct = prepared.reads ? directReaders.get(db) : undefined;
  if (direct) return direct(prepared.sql, parameters) as Promise<Row[]>;
  if (db.isTransaction) {
    const executor = db.getExecutor();
    const run = executor.plugins.length === 0 ? transactionRunners.get(executor.adapter) : undefined;
    if (run) return run(prepared.sql, parameters) as Row[];
  }
  const query: CompiledQuery<Row> = { query: prepared.query.query, queryId: prepared.query.queryId, sql: prepared.sql, parameters };
  return (await db.executeQuery<Row>(query)).rows;
}

/**
 * A statement of fixed shape, built and compiled once, then run with new parameter values: the
 * hot per-request look-ups (key, session, table and membership) and the writes of a comment
 * skip Kysely's builder and compiler, which cost more than SQLite's execution of them. Only for
 * statements whose SQL does not depend on the values (no `in` lists of varying length).
 * `db` may be a transaction: the statement runs in it, compiled once for its instance. Reads
 * through the root instance go to its direct reader, if any; writes never do.
 */
export function prepareQuery<Row, Params extends unknown[]>(build: (db: Kysely<any>, ...params: Params) => Compilable<Row>) {
  const compiledBy = new WeakMap<object, Prepared<Row>>();
  return async (db: Kysely<any>, ...params: Params): Promise<Row[]> => {
    const key = compiledKeyOf(db);
    let prepared = compiledBy.get(key);
    if (!prepared) compiledBy.set(key, (prepared = compileWithPlaceholders(params.length, (placeholders) => build(db, ...(placeholders as Params)))));
    return runPrepared(db, prepared, params);
  };
}

/**
 * The same for a query whose SQL depends on a shape (a record table and its columns): compiled
 * once per shape, named by `keyOf`, and kept for the most recently used shapes.
 */
export function prepareShapedQuery<Shape, Row, Params extends unknown[]>(
  keyOf: (shape: Shape) => string,
  build: (db: Kysely<any>, shape: Shape, ...params: Params) => Compilable<Row>,
) {
  const compiledBy = new WeakMap<object, LRUCache<string, Prepared<Row>>>();
  return async (db: Kysely<any>, shape: Shape, ...params: Params): Promise<Row[]> => {
    const instance = compiledKeyOf(db);
    let shapes = compiledBy.get(instance);
    if (!shapes) compiledBy.set(instance, (shapes = new LRUCache({ max: 500 })));
    const key = keyOf(shape);
    let prepared = shapes.get(key);
    if (!prepared) shapes.set(key, (prepared = compileWithPlaceholders(params.length, (placeholders) => build(db, shape, ...(placeholders as Params)))));
    return runPrepared(db, prepared, params);
  };
}

/**
 * For a prepared insert of `count` rows: its flat parameters (`count` × `columns` values, row
 * after row) as the row objects Kysely's `values` takes.
 */
export function rowsOfValues<Column extends string>(columns: readonly Column[], count: number, values: readonly unknown[]): Record<Column, unknown>[] {
  return Array.from({ length: count }, (_, row) => Object.fromEntries(columns.map((column, index) => [column, values[row * columns.length + index]])) as Record<Column, unknown>);
}

/** SQLite's bound on the parameters of one statement (PostgreSQL's is 65,535). */
const maxStatementParameters = 32_766;

/**
 * Rows of each insert statement for `count` new rows of `columns` columns: powers of two, so
 * that a table's inserts come in a handful of shapes whose compiled statements SQLite keeps (a
 * thousand sizes would fill its statement cache with megabytes of programs), at most 128 (past
 * that, compiling and running one statement grows faster than its rows: measured on SQLite,
 * 1,000 rows in statements of 100 took 8 ms, in one statement 13 ms) and within the bound on
 * parameters. 1,000 records: 7 × 128 + 64 + 32 + 8.
 */
export function insertStatementSizes(count: number, columns: number): number[] {
  let largest = 1;
  while (largest * 2 <= 128 && largest * 2 * columns <= maxStatementParameters) largest *= 2;
  const sizes: number[] = [];
  for (let left = count; left > 0; ) {
    let size = largest;
    while (size > left) size /= 2;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}
