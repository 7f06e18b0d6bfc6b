import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** Stand-ins the query is first built with, so their positions among the parameters can be found. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A query of fixed shape, built and compiled once, then run with new parameter values: the
 * hot per-request look-ups (key, session, table and membership) skip Kysely's builder and
 * compiler, which cost more than SQLite's execution of them. Only for queries whose SQL does
 * not depend on the values (no `in` lists of varying length).
 */
export function prepareQuery<Row, Params extends unknown[]>(build: (db: Kysely<any>, ...params: Params) => Compilable<Row>) {
  const compiledBy = new WeakMap<Kysely<any>, { sql: string; slots: number[]; query: CompiledQuery<Row> }>();
  return async (db: Kysely<any>, ...params: Params): Promise<Row[]> => {
    let compiled = compiledBy.get(db);
    if (!compiled) {
      const placeholders = params.map((_, index) => new Placeholder(index)) as unknown as Params;
      const query = build(db, ...placeholders).compile();
      const slots = query.parameters.map((value) => {
        if (!(value instanceof Placeholder)) throw new Error(`prepareQuery: a constant parameter in ${query.sql}`);
        return value.index;
      });
      compiled = { sql: query.sql, slots, query };
      compiledBy.set(db, compiled);
    }
    const parameters = compiled.slots.map((slot) => params[slot]);
    const result = await db.executeQuery<Row>({ ...CompiledQuery.raw(compiled.sql, parameters), query: compiled.query.query } as CompiledQuery<Row>);
    return result.rows;
  };
}
