import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type RawBuilder,
} from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDialect, type DialectName } from '../../src/db/dialect.js';
import type { Actor } from '../../src/modules/auth/actor.js';
import { compileConditions, compileOrder, compileSearch, type FilterEnvironment } from '../../src/modules/records/query/compile-query.js';
import { parseQueryBody } from '../../src/modules/records/query/parse-query.js';
import type { Field } from '../../src/modules/fields/field.js';
import { fixedClock } from '../../src/shared/clock.js';
import { useTestApp } from '../build-test-app.js';
import { buildField } from '../field-builder.js';
import { call, createAccount, createSpace, createTable } from '../factories.js';
import { testEngine } from '../test-database.js';

/** A Kysely that only compiles (no connection), for one engine's SQL text. */
function compileOnly(name: DialectName): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => (name === 'sqlite' ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (name === 'sqlite' ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (name === 'sqlite' ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });
}

let nextFieldId = 1;
/** Ids (and so column names `f_<id>`) in order of creation. */
function field(slug: string, type: Field['type'], extra: Partial<Field> = {}): Field {
  const id = nextFieldId++;
  return buildField({ id, slug, name: slug, type, position: id, ...extra });
}

const fields = new Map(
  [
    field('name', 'text'),
    field('amount', 'number'),
    field('done', 'checkbox'),
    field('status', 'select', { settings: { options: [{ value: 'Open' }] } }),
    field('tags', 'select', { multiple: true, settings: { options: [{ value: 'red' }] } }),
    field('owner', 'user'),
    field('team', 'user', { multiple: true }),
    field('ref', 'lookup', { settings: { table_id: 2 } }),
    field('day', 'date'),
    field('moment', 'datetime'),
  ].map((f) => [f.slug, f]),
);

const actor = { accountId: 1, userId: 7, userEmail: 'me@example.com', ownerUserId: 7, via: 'account_key', keyId: 1, keyName: 'k', readOnly: false, spaceIds: null } as Actor;

function environment(name: DialectName): FilterEnvironment {
  return {
    actor,
    dialect: getDialect(name),
    clock: fixedClock('2024-03-31T15:30:00Z'),
    resolveUserReference: async (value) => (value === '@me' ? 7 : typeof value === 'number' ? value : value === 'someone@example.com' ? 12 : null),
    isVisibleTable: async () => true,
  };
}

/** A whole `select id from rec_1 where …` for one engine: its SQL text and parameters. */
async function compileWhere(name: DialectName, body: unknown): Promise<{ sql: string; parameters: readonly unknown[] }> {
  const query = parseQueryBody(body, 'query');
  const conditions = await compileConditions(query.where, fields, environment(name));
  const search = compileSearch(query.search, 'rec_1', getDialect(name));
  const where = [conditions, search].filter((part): part is RawBuilder<boolean> => part !== null);
  let select = compileOnly(name).selectFrom('rec_1').select('id');
  for (const part of where) select = select.where(part);
  for (const order of compileOrder(query.orderBy, query.orderDir, fields, getDialect(name))) select = select.orderBy(order);
  const compiled = select.compile();
  return { sql: compiled.sql, parameters: compiled.parameters };
}

/** Client values that would break or alter the statement if they were spliced into its text. */
const HOSTILE = ["O'Brien", "x'); drop table users; --", 'a"b', 'back\\slash', '%_%', '; select 1'];

describe.each(['sqlite', 'postgres'] as const)('compiled query SQL on %s', (name) => {
  const placeholder = name === 'sqlite' ? /\?/g : /\$\d+/g;

  it('parameterises every filter value: none is spliced into the SQL text', async () => {
    for (const value of HOSTILE) {
      const { sql: text, parameters } = await compileWhere(name, {
        where: { name: ['C', value], status: ['!=', value] },
        filters: [
          { column: 'tags', compare: '=', value },
          { column: 'name', compare: 'SW', value, connector: 'OR' },
          { column: 'owner', compare: '=', value: 'someone@example.com' },
        ],
      });
      expect(text).not.toContain(value);
      expect(text).not.toContain('someone@example.com');
      expect(text).not.toContain('drop table');
      expect(parameters.length).toBe(text.match(placeholder)?.length);
      expect(parameters.some((p) => typeof p === 'string' && p.includes(value.replace(/[\\%_]/g, (c) => `\\${c}`)))).toBe(true);
    }
  });

  it('escapes LIKE wildcards in the parameter, with an explicit escape character', async () => {
    const { sql: text, parameters } = await compileWhere(name, { where: { name: ['contains', '100%_x'] } });
    // The pattern keeps its case; the database folds it like the column.
    expect(text).toMatch(name === 'sqlite' ? / like unicode_lower\(replace\(replace\(\?, 'İ', 'I'\), 'Σ', 'σ'\)\) escape '\\'/ : / like lower\(\$1\) escape '\\'/);
    expect(parameters).toEqual(['%100\\%\\_x%']);
  });

  it('passes numbers, booleans, user ids and resolved date tokens as parameters', async () => {
    const { sql: text, parameters } = await compileWhere(name, {
      where: { amount: ['>', 12.5], ref: 9876, owner: '@me', day: ['>=', 'start_of_month'], moment: ['<', '-1m'] },
    });
    for (const literal of ['12.5', '9876', '2024-03-01', '2024-02-29 15:30:00']) expect(text).not.toContain(literal);
    expect(parameters).toEqual([12.5, 9876, 7, '2024-03-01', '2024-02-29 15:30:00']);
  });

  it('compiles search to the search index, with the terms as parameters', async () => {
    const { sql: text, parameters } = await compileWhere(name, { search: 'Hello wo "quoted" 50%' });
    if (name === 'sqlite') {
      expect(text).toContain('"rec_1_fts" match ?');
      expect(text).toContain('select rowid from "rec_1_fts"');
      // The records whose text the index does not hold yet are candidates too (search-catch-up.ts).
      expect(text).toContain(`union all select id from "search_index_pending" where table_name = 'rec_1'`);
      // The index narrows to the records holding every trigram of the longer terms (it keeps
      // no positions); instr then checks every term itself on the record's search text, the
      // short ones included.
      expect(text).toContain('exists (select 1 from "rec_1_search" as s where s.id = "rec_1"."id" and ');
      expect(text.match(/instr\(text, \?\) > 0/g)).toHaveLength(4);
      expect(parameters).toEqual([
        '"hel" AND "ell" AND "llo" AND """qu" AND "quo" AND "uot" AND "ote" AND "ted" AND "ed""" AND "50%"',
        'hello',
        'wo',
        '"quoted"',
        '50%',
      ]);
    } else {
      expect(text).toContain('id in (select id from "rec_1_search" where ');
      expect(text.match(/text like \$\d+ escape '\\'/g)).toHaveLength(4);
      expect(parameters).toEqual(['%hello%', '%wo%', '%"quoted"%', '%50\\%%']);
    }
    expect(text).not.toMatch(/hello|quoted/i);
  });

  it('sorts text by its folded value, empties first ascending, id as the tie-breaker', async () => {
    const asc = await compileWhere(name, { order_by: 'name' });
    const desc = await compileWhere(name, { order_by: 'name', order_dir: 'D' });
    const folded = name === 'sqlite' ? `unicode_lower(replace(replace("f_1", 'İ', 'I'), 'Σ', 'σ'))` : 'lower("f_1") collate "C"';
    expect(asc.sql).toContain(`order by ${folded} asc nulls first, id asc`);
    expect(desc.sql).toContain(`order by ${folded} desc nulls last, id asc`);
  });

  it('notes whether a compile consulted the clock, the caller, the users or the visible tables: only one that did not may be kept', async () => {
    const consulted = async (where: Record<string, unknown>) => {
      const reads = { environment: false };
      await compileConditions(parseQueryBody({ where }, 'count').where, fields, environment(name), reads);
      return reads.environment;
    };
    for (const where of [{ name: 'x' }, { amount: ['>', 3] }, { done: true }, { status: 'Open' }, { tags: 'red' }, { owner: null }, { day: null }, { day: '2024-03-01' }, { moment: ['>=', '2024-03-01 10:00:00'] }]) {
      expect(await consulted(where), JSON.stringify(where)).toBe(false);
    }
    for (const where of [{ day: 'today' }, { moment: ['<', '-1m'] }, { owner: 7 }, { owner: '@me' }, { owner: 'someone@example.com' }, { team: '@me' }, { ref: 9876 }]) {
      expect(await consulted(where), JSON.stringify(where)).toBe(true);
    }
  });

  it('nests many conditions as a balanced tree (SQLite limits expression depth to 1000)', async () => {
    const filters = Array.from({ length: 1000 }, (_, i) => ({ column: 'amount', compare: '!=', value: i, connector: i % 10 === 0 ? 'OR' : 'AND' }));
    const { sql: text, parameters } = await compileWhere(name, { filters });
    expect(parameters).toHaveLength(1000);
    let depth = 0;
    let deepest = 0;
    for (const char of text) {
      if (char === '(') deepest = Math.max(deepest, (depth += 1));
      if (char === ')') depth -= 1;
    }
    expect(deepest).toBeLessThan(30);
  });
});

describe('search limited to the first matches', () => {
  const textOf = (name: DialectName, firstMatches?: number, search = 'abc') => {
    const condition = compileSearch(search, 'rec_1', getDialect(name), firstMatches)!;
    return compileOnly(name).selectFrom('rec_1').select('id').where(condition).compile();
  };

  it('on SQLite, checks the terms inside the FTS5 query and stops it at the first matches in rowid order; the records not yet indexed beside it', () => {
    const limited = textOf('sqlite', 150, 'abc ab');
    expect(limited.sql).toMatch(/match \? and instr\(s.text, \?\) > 0 and instr\(s.text, \?\) > 0 order by "rec_1_fts".rowid limit \?\)/);
    expect(limited.sql).toMatch(/or id in \(select p.id from "search_index_pending" as p join "rec_1_search" as s on s.id = p.id where p.table_name = 'rec_1' and instr\(s.text, \?\) > 0 and instr\(s.text, \?\) > 0\)/);
    expect(limited.parameters).toEqual(['"abc"', 'abc', 'ab', 150, 'abc', 'ab']);
    expect(textOf('sqlite').sql).not.toMatch(/limit/);
  });

  it('scans the search table in id order when no term reaches the index (all under three characters), and stops there too', () => {
    const short = textOf('sqlite', 150, 'ab c');
    expect(short.sql).not.toMatch(/match/);
    expect(short.sql).toMatch(/id in \(select id from "rec_1_search" where instr\(text, \?\) > 0 and instr\(text, \?\) > 0 order by id limit \?\)/);
    expect(textOf('sqlite', undefined, 'ab c').sql).not.toMatch(/limit/);
  });

  it('on PostgreSQL, takes the first matches of the search table in id order', () => {
    expect(textOf('postgres', 150).sql).toMatch(/id in \(select id from "rec_1_search" where text like \$1 escape '\\' order by id limit \$2\)/);
    expect(textOf('postgres').sql).not.toMatch(/limit/);
  });

  it('sends at most 16 trigrams of a long term to the index', () => {
    const term = 'abcdefghijklmnopqrstuvwxyz';
    const { parameters } = textOf('sqlite', undefined, term);
    expect((parameters[0] as string).split(' AND ')).toHaveLength(16);
    expect(parameters[1]).toBe(term);
  });
});

describe(`search index use in the ${testEngine} plan`, () => {
  const ctx = useTestApp();
  let table: string;

  beforeAll(async () => {
    const world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Plans');
    const created = await createTable(ctx, world, space.id, { name: 'Plan', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
    table = `rec_${created.id}`;
    for (const name of ['abcdef', 'xyz', 'other abc']) {
      await call(ctx, 'POST', `/api/table/${created.id}/records/create`, { key: world.accountKey, body: { data: { name } } });
    }
  });

  it('a search query reads through the index (FTS5 table on SQLite, the search table\'s GIN index on PostgreSQL)', async () => {
    const { db, dialect } = ctx.container.database;
    const condition = compileSearch('abc', table, dialect)!;
    const matching = await sql<{ id: number }>`select id from ${sql.table(table)} where ${condition} order by id`.execute(db);
    expect(matching.rows.map((row) => Number(row.id))).toEqual([1, 3]);
    if (dialect.name === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan select id from ${sql.table(table)} where ${condition}`.execute(db);
      const details = plan.rows.map((row) => row.detail).join('\n');
      expect(details).toMatch(new RegExp(`SCAN ${table}_fts VIRTUAL TABLE INDEX`));
      // The first matches: the index in rowid order (no sort), each candidate's text by id.
      const first = compileSearch('abc', table, dialect, 2)!;
      const firstPlan = (await sql<{ detail: string }>`explain query plan select id from ${sql.table(table)} where ${first} order by id limit 2`.execute(db)).rows.map((row) => row.detail);
      const indexed = firstPlan.slice(firstPlan.indexOf('LIST SUBQUERY 1'), firstPlan.indexOf('INDEX 2'));
      expect(firstPlan).toContain('MULTI-INDEX OR');
      expect(indexed.join('\n')).toMatch(new RegExp(`SCAN ${table}_fts VIRTUAL TABLE INDEX`));
      expect(indexed.join('\n')).not.toMatch(/TEMP B-TREE/);
    } else {
      const plans = await db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        try {
          const raw = await sql<{ 'QUERY PLAN': string }>`explain select id from ${sql.table(`${table}_search`)} where text like '%abc%'`.execute(connection);
          const compiled = await sql<{ 'QUERY PLAN': string }>`explain select id from ${sql.table(table)} where ${condition}`.execute(connection);
          return [raw, compiled].map((result) => result.rows.map((row) => row['QUERY PLAN']).join('\n'));
        } finally {
          await sql`reset enable_seqscan`.execute(connection);
        }
      });
      for (const plan of plans) expect(plan).toMatch(new RegExp(`Bitmap Index Scan on ${table}_search_text`));
    }
  });
});
