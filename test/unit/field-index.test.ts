import { sql, type Kysely, type RawBuilder } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/modules/auth/actor.js';
import { compileConditions, compileOrder, type FilterEnvironment } from '../../src/modules/records/query/compile-query.js';
import { parseQueryBody } from '../../src/modules/records/query/parse-query.js';
import type { Field } from '../../src/modules/fields/field.js';
import { fieldIndexName } from '../../src/modules/fields/physical-names.js';
import { listFields } from '../../src/modules/tables/tables.repository.js';
import { fixedClock } from '../../src/shared/clock.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable } from '../factories.js';
import { testEngine } from '../test-database.js';

/**
 * One-field indexes made through the API and query plans that use them, checked with EXPLAIN
 * on the compiler's own output. Risks guarded against: an index the planner cannot use for
 * one of the two sort directions the compiler emits (ascending nulls first, descending nulls
 * last), a filter that does not reach the index, a second index of one definition.
 */
describe(`one-field indexes and their plans (${testEngine})`, () => {
  const ctx = useTestApp();
  let db: Kysely<any>;
  let tableId: number;
  let fields: Map<string, Field>;
  let env: FilterEnvironment;
  let key: string;

  beforeAll(async () => {
    db = ctx.container.database.db as unknown as Kysely<any>;
    const world = await createAccount(ctx);
    key = world.accountKey;
    const space = await createSpace(ctx, world, 'Indexes');
    const table = await createTable(ctx, world, space.id, {
      name: 'Deals',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'amount', name: 'Amount', type: 'number' },
        { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'won' }, { value: 'lost' }] },
        { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
      ],
    });
    tableId = table.id;
    for (let start = 0; start < 400; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, offset) => {
          const n = start + offset;
          const data = { name: `deal ${n}`, amount: n % 7 === 0 ? null : (n * 37) % 1000, stage: n % 5 === 0 ? 'won' : 'lost', tags: n % 2 ? ['red'] : [] };
          return call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data } });
        }),
      );
    }
    for (const [name, slug] of [['by_amount', 'amount'], ['by_stage', 'stage'], ['by_tags', 'tags']]) {
      const created = await call(ctx, 'POST', `/api/table/${tableId}/indexes/create`, { key, body: { name, fields: [slug] } });
      // No SQLite index reaches inside JSON arrays: a multi-valued field is indexed on PostgreSQL only.
      expect(created.status, JSON.stringify(created.body)).toBe(slug === 'tags' && testEngine === 'sqlite' ? 400 : 200);
    }
    await sql`analyze`.execute(db);
    fields = new Map((await listFields(db, tableId)).map((f) => [f.slug, f]));
    const actor = { accountId: world.accountId, userId: world.ownerId } as Actor;
    env = { actor, dialect: ctx.container.database.dialect, clock: fixedClock('2024-03-31T15:30:00Z'), resolveUserReference: async () => null, isVisibleTable: async () => true };
  });

  const indexOf = (slug: string) => fieldIndexName(fields.get(slug)!);

  /**
   * The plan of `select id from rec_<id> [where …] order by … limit 100` built by the query
   * compiler, or of `select count(*) … where …` for a filter alone (with a limit, walking the
   * primary key may rightly beat any index on a small table).
   */
  async function planOf(body: Record<string, unknown>, shape: 'page' | 'count' = 'page'): Promise<string> {
    const query = parseQueryBody(body, 'query');
    const where = await compileConditions(query.filters, fields, env);
    const table = sql.table(`rec_${tableId}`);
    const filter = where ? sql` where ${where}` : sql``;
    const statement: RawBuilder<unknown> =
      shape === 'count' ? sql`select count(*) from ${table}${filter}` : sql`select id from ${table}${filter} order by ${sql.join(compileOrder(query.orderBy, query.orderDir, fields, env.dialect))} limit 100`;
    if (env.dialect.name === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan ${statement}`.execute(db);
      return plan.rows.map((row) => row.detail).join('\n');
    }
    // A few hundred rows fit one page: without this, a sequential scan is always cheapest.
    return db.connection().execute(async (connection) => {
      await sql`set enable_seqscan = off`.execute(connection);
      try {
        const plan = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(connection);
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
      }
    });
  }

  it('one metadata row per index, and a second index of one definition is refused', async () => {
    const again = await call(ctx, 'POST', `/api/table/${tableId}/indexes/create`, { key, body: { name: 'amount_again', fields: ['amount'] } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('An index on amount already exists: by_amount');
    const rows = await db.selectFrom('table_indexes').select(['name', 'field_ids_json']).where('table_id', '=', tableId).orderBy('name').execute();
    expect(rows.map((row) => row.name)).toEqual(testEngine === 'sqlite' ? ['by_amount', 'by_stage'] : ['by_amount', 'by_stage', 'by_tags']);
    expect(JSON.parse(rows[0].field_ids_json)).toEqual([fields.get('amount')!.id]);
  });

  // Ties are ordered by id, which a backward walk does not give: SQLite sorts only that last term.
  it.each([
    { direction: 'D', walk: 'backwards', postgresScan: 'Index Scan Backward using' },
    { direction: 'A', walk: 'forwards', postgresScan: 'Index Scan using' },
  ])('serves a sort with order_dir $direction by walking the index $walk', async ({ direction, postgresScan }) => {
    const plan = await planOf({ order_by: 'amount', order_dir: direction });
    if (env.dialect.name === 'sqlite') {
      expect(plan).toMatch(new RegExp(`SCAN rec_${tableId} USING (COVERING )?INDEX ${indexOf('amount')}`));
      expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    } else {
      expect(plan).toMatch(new RegExp(`${postgresScan} ${indexOf('amount')}`));
      expect(plan).not.toMatch(/\n\s*->\s+Sort\b|^Sort\b/m);
    }
  });

  it('reads a filter on the field through its index', async () => {
    const plan = await planOf({ filters: [{ column: 'stage', compare: '=', value: 'won' }] }, 'count');
    expect(plan).toMatch(new RegExp(`${indexOf('stage')}`));
    const range = await planOf({ filters: [{ column: 'amount', compare: '>', value: 900 }] }, 'count');
    expect(range).toMatch(new RegExp(`${indexOf('amount')}`));
  });

  it('indexes a multi-valued field with GIN on PostgreSQL, and not at all on SQLite (no index reaches inside JSON arrays)', async () => {
    const name = indexOf('tags');
    if (env.dialect.name === 'sqlite') {
      const row = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name = ${name}`.execute(db);
      expect(row.rows).toEqual([]);
      const refused = await call(ctx, 'POST', `/api/table/${tableId}/indexes/create`, { key, body: { fields: ['tags'] } });
      expect(refused.body.error.message).toBe('Invalid index: tags holds several values and cannot be indexed');
    } else {
      const row = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = ${name}`.execute(db);
      expect(row.rows[0].indexdef).toMatch(/USING gin/);
      const plan = await planOf({ filters: [{ column: 'tags', compare: '=', value: 'red' }] }, 'count');
      expect(plan).toMatch(new RegExp(`Bitmap Index Scan on ${name}`));
    }
  });

  /**
   * On SQLite a filtered page sorted by an indexed field is first looked for in the first
   * stretch of the sort order (eight times offset + limit rows); when the stretch falls short
   * the plain statement answers. Either way the page is the slice of every match, in order.
   */
  it('pages filtered and sorted by an indexed field are exact slices of every match, whichever statement finds them', async () => {
    const filters = [
      { where: { stage: 'won' } },
      { where: { stage: 'lost' } },
      { where: { name: 'deal 14' } },
      { filters: [{ column: 'amount', compare: '>', value: 900 }] },
      { filters: [{ column: 'tags', compare: '=', value: 'red' }] },
    ];
    for (const filter of filters) {
      for (const order_dir of ['A', 'D']) {
        const body = { ...filter, order_by: 'amount', order_dir };
        const all = await call(ctx, 'POST', `/api/table/${tableId}/records/ids`, { key, body });
        expect(all.status).toBe(200);
        for (const [limit, offset] of [[10, 0], [25, 5], [5, 60], [40, 300], [1, 0], [100, 0]]) {
          const page = await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key, body: { ...body, limit, offset } });
          expect(page.status).toBe(200);
          const ids = page.body.map((record: { id: number }) => record.id);
          expect(ids, JSON.stringify({ body, limit, offset })).toEqual((all.body as number[]).slice(offset, offset + limit));
        }
      }
    }
  });
});
