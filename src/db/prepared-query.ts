import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Stand-ins the query is first built with, so their positions among the parameters can be found. */
class Placeholder {
  constructor(readonly index: number) {}
}

interface Prepared<Row> {
  sql: string;
  slots: number[];
  query: CompiledQuery<Row>;
}

function compileWithPlaceholders<Row>(count: number, build: (placeholders: unknown[]) => Compilable<Row>): Prepared<Row> {
  const query = build(Array.from({ length: count }, (_, index) => new Placeholder(index))).compile();
  const slots = query.parameters.map((value) => {
    if (!(value instanceof Placeholder)) throw new Error(`prepareQuery: a constant parameter in ${query.sql}`);
    return value.index;
  });
  return { sql: query.sql, slots, query };
}

/** Runs a compiled read statement with its parameters, outside Kysely. */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[];

const directReaders = new WeakMap<Kysely<any>, DirectReader>();

/**
 * Reads run through `db` itself (never one of its transactions) with `runRead` or a prepared
 * query go to `read` instead of Kysely's executor: SQLite's read connection (database.ts), with
 * no connection lock to wait for.
 */
export function registerDirectReader(db: Kysely<any>, read: DirectReader): void {
  directReaders.set(db, read);
}

/** Runs a compiled read statement (a select): on the direct reader registered for `db`, if any, else through Kysely. */
export async function runRead<Row>(db: Kysely<any>, query: CompiledQuery<Row>): Promise<Row[]> {
  const direct = directReaders.get(db);
  if (direct) return direct(query.sql, query.parameters) as Row[];
  return (await db.executeQuery<Row>(query)).rows;
}

function runPrepared<Row>(db: Kysely<any>, prepared: Prepared<Row>, params: unknown[]): Promise<Row[]> {
  const parameters = prepared.slots.map((slot) => params[slot]);
  // The direct reader needs only the text and the values: no CompiledQuery to build and freeze.
  const direct = directReaders.get(db);
  if (direct) return Promise.resolve(direct(prepared.sql, parameters) as Row[]);
  return runRead(db, { ...CompiledQuery.raw(prepared.sql, parameters), query: prepared.query.query } as CompiledQuery<Row>);
}

/**
 * A query of fixed shape, built and compiled once, then run with new parameter values: the
 * hot per-request look-ups (key, session, table and membership) skip Kysely's builder and
 * compiler, which cost more than SQLite's execution of them. Only for queries whose SQL does
 * not depend on the values (no `in` lists of varying length).
 */
export function prepareQuery<Row, Params extends unknown[]>(build: (db: Kysely<any>, ...params: Params) => Compilable<Row>) {
  const compiledBy = new WeakMap<Kysely<any>, Prepared<Row>>();
  return async (db: Kysely<any>, ...params: Params): Promise<Row[]> => {
    let prepared = compiledBy.get(db);
    if (!prepared) compiledBy.set(db, (prepared = compileWithPlaceholders(params.length, (placeholders) => build(db, ...(placeholders as Params)))));
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
  const compiledBy = new WeakMap<Kysely<any>, LRUCache<string, Prepared<Row>>>();
  return async (db: Kysely<any>, shape: Shape, ...params: Params): Promise<Row[]> => {
    let shapes = compiledBy.get(db);
    if (!shapes) compiledBy.set(db, (shapes = new LRUCache({ max: 500 })));
    const key = keyOf(shape);
    let prepared = shapes.get(key);
    if (!prepared) shapes.set(key, (prepared = compileWithPlaceholders(params.length, (placeholders) => build(db, shape, ...(placeholders as Params)))));
    return runPrepared(db, prepared, params);
  };
}
