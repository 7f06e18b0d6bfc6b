import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/shared/clock.js';
import { useTestApp, type TestContext } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, login, type World } from '../factories.js';
import { testEngine } from '../test-database.js';

/**
 * Indexes through the API (bad input, composite definitions the planner uses, field deletion)
 * and the automatic indexes: built after a repeated shape and used, one per shape, within the
 * budget, for a saved view at once, dropped after disuse on an injected clock, and off.
 */

const stages = ['lead', 'won', 'lost'];

async function seedDeals(ctx: TestContext, world: World, count = 60) {
  const space = await createSpace(ctx, world, 'Indexes');
  const table = await createTable(ctx, world, space.id, {
    name: 'Deals',
    fields: [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'notes', name: 'Notes', type: 'longtext' },
      { id: 'amount', name: 'Amount', type: 'number' },
      { id: 'stage', name: 'Stage', type: 'select', options: stages.map((value) => ({ value })) },
      { id: 'owner_email', name: 'Owner e-mail', type: 'email' },
      { id: 'due', name: 'Due', type: 'date' },
    ],
  });
  for (let n = 0; n < count; n += 1) {
    const data = { name: `deal ${n}`, amount: (n * 37) % 100, stage: stages[n % 3], owner_email: `o${n % 4}@example.com`, due: `2024-01-${String(1 + (n % 28)).padStart(2, '0')}` };
    expect((await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: world.accountKey, body: { data } })).status).toBe(200);
  }
  return { spaceId: space.id, tableId: table.id };
}

/** The plan of a records statement shaped like the service's page (filter, order, limit). */
async function planOf(ctx: TestContext, statement: string): Promise<string> {
  const db = ctx.container.database.db as unknown as Kysely<any>;
  if (testEngine === 'sqlite') {
    const plan = await sql<{ detail: string }>`explain query plan ${sql.raw(statement)}`.execute(db);
    return plan.rows.map((row) => row.detail).join('\n');
  }
  return db.connection().execute(async (connection) => {
    // A few dozen rows fit one page: without this, a sequential scan is always cheapest.
    await sql`set enable_seqscan = off`.execute(connection);
    try {
      const plan = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(statement)}`.execute(connection);
      return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
    }
  });
}

async function fieldId(ctx: TestContext, tableId: number, slug: string): Promise<number> {
  const db = ctx.container.database.db;
  const row = await db.selectFrom('fields').select('id').where('table_id', '=', tableId).where('slug', '=', slug).executeTakeFirstOrThrow();
  return row.id;
}

async function waitForIndex(ctx: TestContext, key: string, tableId: number, name: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const list = (await call(ctx, 'GET', `/api/table/${tableId}/indexes/list`, { key })).body as Array<{ name: string; reason: string }>;
    const found = list.find((index) => index.name === name);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`index ${name} never appeared`);
}

describe(`indexes through the API (${testEngine})`, () => {
  const ctx = useTestApp({ env: { TABULA_AUTO_INDEXES: 'off' } });
  let world: World;
  let tableId: number;
  const create = (body: unknown) => call(ctx, 'POST', `/api/table/${tableId}/indexes/create`, { key: world.accountKey, body });
  const names = async () => ((await call(ctx, 'GET', `/api/table/${tableId}/indexes/list`, { key: world.accountKey })).body as Array<{ name: string }>).map((i) => i.name);

  beforeAll(async () => {
    world = await createAccount(ctx);
    ({ tableId } = await seedDeals(ctx, world, 30));
  });

  it.each([
    [{ fields: ['nope'] }, 400, 'Invalid field: nope'],
    [{ fields: ['amount', 'amount'] }, 400, 'Invalid index: amount is listed twice'],
    [{ fields: ['id'] }, 400, "Invalid index: id is the record's key, indexed already"],
    [{ fields: ['stage', 'created_at', 'created_at'] }, 400, 'Invalid index: created_at is listed twice'],
    [{ fields: ['notes'] }, 400, 'Invalid index: notes is a long text field and cannot be indexed'],
    [{ fields: ['amount'], name: 'auto_mine' }, 400, 'Invalid index: names starting with idx_layout_, auto_, view_ are the service\'s own'],
    [{ fields: ['amount'], name: 'Bad Name' }, 400, 'Invalid index: name must be 1 to 63 lower-case letters, digits or underscores, starting with a letter'],
    [{ fields: [] }, 400, /fields/],
    [{ fields: ['amount', 'stage', 'due', 'owner_email', 'name'] }, 400, /fields/],
    [{ fields: ['amount'], direction: 'up' }, 400, /direction/],
    [{ fields: ['amount'], extra: 1 }, 400, /extra|additional/],
    ['not an object', 400, /object/],
  ])('refuses %j with %i and changes nothing', async (body, status, message) => {
    const before = await names();
    const answer = await create(body);
    expect(answer.status).toBe(status);
    if (typeof message === 'string') expect(answer.body.error.message).toBe(message);
    else expect(answer.body.error.message).toMatch(message);
    expect(await names()).toEqual(before);
  });

  it('a text field is indexable on SQLite; on PostgreSQL its long values could not fit an index entry, so it is refused', async () => {
    const answer = await create({ fields: ['name'] });
    if (testEngine === 'sqlite') {
      expect(answer.status).toBe(200);
      expect((await call(ctx, 'POST', `/api/table/${tableId}/index/idx_name/delete`, { key: world.accountKey })).status).toBe(200);
    } else {
      expect(answer.body.error.message).toBe('Invalid index: name is a text field, whose values can exceed what a PostgreSQL index entry holds and cannot be indexed');
    }
  });

  it('a name or a definition twice answers 409; an unknown index 404', async () => {
    expect((await create({ fields: ['due'], name: 'by_due' })).status).toBe(200);
    const sameName = await create({ fields: ['amount'], name: 'by_due' });
    expect(sameName.status).toBe(409);
    expect(sameName.body.error).toMatchObject({ code: 'index_exists', message: 'Index by_due already exists' });
    const sameDefinition = await create({ fields: ['due'], name: 'due_again' });
    expect(sameDefinition.body.error).toMatchObject({ code: 'index_exists', message: 'An index on due already exists: by_due' });
    const missing = await call(ctx, 'POST', `/api/table/${tableId}/index/nope/delete`, { key: world.accountKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'index_not_found', message: 'Index not found: nope' });
  });

  it('a filter-and-sort index (stage, amount desc) serves the page statement with no sort step', async () => {
    const created = await create({ fields: ['stage', 'amount'], direction: 'desc' });
    expect(created.body).toMatchObject({ name: 'idx_stage_amount_desc', fields: ['stage', 'amount'], direction: 'desc', origin: 'manual' });
    const stage = await fieldId(ctx, tableId, 'stage');
    const amount = await fieldId(ctx, tableId, 'amount');
    const physical = `rec_${tableId}_ix_${stage}_${amount}_d`;
    const plan = await planOf(ctx, `select id from rec_${tableId} where f_${stage} = 'won' order by f_${amount} desc nulls last, id asc limit 10`);
    expect(plan).toContain(physical);
    expect(plan).not.toMatch(/TEMP B-TREE|\bSort\b/);
  });

  it('created_at and updated_at are indexable like fields: (stage, created_at desc) serves "newest of a stage" with no sort step', async () => {
    const created = await create({ fields: ['stage', 'created_at'], direction: 'desc' });
    expect(created.body).toMatchObject({ name: 'idx_stage_created_at_desc', fields: ['stage', 'created_at'], direction: 'desc', origin: 'manual' });
    expect((await create({ fields: ['updated_at'] })).body).toMatchObject({ name: 'idx_updated_at', fields: ['updated_at'], direction: null });
    const stage = await fieldId(ctx, tableId, 'stage');
    const plan = await planOf(ctx, `select id from rec_${tableId} where f_${stage} = 'won' order by created_at desc nulls last, id asc limit 10`);
    expect(plan).toContain(`rec_${tableId}_ix_${stage}_created_at_d`);
    expect(plan).not.toMatch(/TEMP B-TREE|\bSort\b/);
    expect(await planOf(ctx, `select id from rec_${tableId} where updated_at = '2024-01-01 10:00:00'`)).toContain(`rec_${tableId}_updated_at_idx`);
    const listed = (await call(ctx, 'GET', `/api/table/${tableId}/get`, { key: world.accountKey })).body.indexes as Array<{ name: string; fields: string[] }>;
    expect(listed.find((i) => i.name === 'idx_stage_created_at_desc')?.fields).toEqual(['stage', 'created_at']);
    for (const name of ['idx_stage_created_at_desc', 'idx_updated_at']) expect((await call(ctx, 'POST', `/api/table/${tableId}/index/${name}/delete`, { key: world.accountKey })).status).toBe(200);
  });

  it('deleting a field drops the indexes that hold it, with their metadata', async () => {
    expect((await create({ fields: ['owner_email', 'due'], name: 'email_due' })).status).toBe(200);
    expect(await names()).toContain('email_due');
    const deleted = await call(ctx, 'POST', `/api/table/${tableId}/field/owner_email/delete`, { key: world.accountKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body.indexes.map((i: { name: string }) => i.name)).not.toContain('email_due');
    expect(await names()).not.toContain('email_due');
  });
});

describe(`automatic indexes (${testEngine})`, () => {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(now.getTime()) };
  const ctx = useTestApp({ clock, env: { TABULA_AUTO_INDEX_AFTER: '3', TABULA_AUTO_INDEX_MIN_ROWS: '0', TABULA_AUTO_INDEX_BUDGET: '3', TABULA_AUTO_INDEX_UNUSED: '30d' } });
  let world: World;
  let tableId: number;
  const query = (body: unknown) => call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: world.accountKey, body });
  const list = async () =>
    (await call(ctx, 'GET', `/api/table/${tableId}/indexes/list`, { key: world.accountKey })).body as Array<{ name: string; origin: string; reason: string; fields: string[]; direction: string | null; last_used_at: string | null }>;

  beforeAll(async () => {
    world = await createAccount(ctx);
    ({ tableId } = await seedDeals(ctx, world));
  });

  it('builds the index a shape asks for after the threshold, once, and the planner uses it', async () => {
    const body = { where: { stage: 'won' }, order_by: 'amount', order_dir: 'D', limit: 5 };
    for (let i = 0; i < 3; i += 1) expect((await query(body)).status).toBe(200);
    const index = await waitForIndex(ctx, world.accountKey, tableId, 'auto_stage_amount_desc');
    expect(index).toMatchObject({ origin: 'automatic', fields: ['stage', 'amount'], direction: 'desc' });
    expect(index.reason).toBe('3 queries: stage =, order by amount desc');
    for (let i = 0; i < 10; i += 1) await query(body);
    expect((await list()).filter((i) => i.origin === 'automatic')).toHaveLength(1);
    const stage = await fieldId(ctx, tableId, 'stage');
    const amount = await fieldId(ctx, tableId, 'amount');
    const plan = await planOf(ctx, `select id from rec_${tableId} where f_${stage} = 'won' order by f_${amount} desc nulls last, id asc limit 5`);
    expect(plan).toContain(`rec_${tableId}_ix_${stage}_${amount}_d`);
  });

  it('a count filtered on a field gets an index on it', async () => {
    for (let i = 0; i < 3; i += 1) {
      // Another value each time: a count already taken is answered from the cache, following
      // writes through the change log (count-cache.ts), and scans nothing.
      expect((await call(ctx, 'POST', `/api/table/${tableId}/records/count`, { key: world.accountKey, body: { filters: [{ column: 'due', compare: '>', value: `2024-01-1${i + 1}` }] } })).status).toBe(200);
    }
    expect(await waitForIndex(ctx, world.accountKey, tableId, 'auto_due')).toMatchObject({ origin: 'automatic', fields: ['due'], direction: null });
  });

  it('a saved view gets the index its filters and sort ask for when it is saved', async () => {
    const session = await login(ctx, world.ownerEmail, world.ownerPassword);
    const view = await call(ctx, 'POST', `/api/table/${tableId}/views/create`, {
      cookie: session,
      body: { name: 'Leads by due', type: 'grid', filters: [{ column: 'stage', compare: '=', value: 'lead' }], order_by: 'due', order_dir: 'A' },
    });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect((await list()).find((i) => i.name === 'view_stage_due_asc')).toMatchObject({ origin: 'view', fields: ['stage', 'due'], direction: 'asc', reason: 'a saved view: stage =, order by due asc' });
  });

  it('keeps within the budget: past it, a new shape gets nothing', async () => {
    expect((await list()).filter((i) => i.origin === 'automatic' || i.origin === 'view')).toHaveLength(3);
    for (let i = 0; i < 6; i += 1) await query({ where: { stage: 'lost' }, order_by: 'name', limit: 5 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await list()).map((i) => i.name)).not.toContain('auto_stage_name_asc');
  });

  it('drops a service-made index no query used for the disuse period, and keeps those in use', async () => {
    now = new Date('2026-01-20T00:00:00Z');
    // Used now, by a query comparing their first field: both indexes leading with stage.
    await query({ where: { stage: 'won' }, order_by: 'amount', order_dir: 'D', limit: 5 });
    await ctx.container.services.automaticIndexes.maintain();
    now = new Date('2026-02-15T00:00:00Z');
    const dropped = await ctx.container.services.automaticIndexes.maintain();
    expect(dropped).toEqual([`${tableId}:auto_due`]);
    expect((await list()).map((i) => i.name)).toEqual(['auto_stage_amount_desc', 'view_stage_due_asc']);
    expect((await list())[0]).toMatchObject({ last_used_at: '2026-01-20 00:00:00' });
    const db = ctx.container.database.db as unknown as Kysely<any>;
    const due = await fieldId(ctx, tableId, 'due');
    const physical = await sql<{ n: number }>`select count(*) as n from ${sql.raw(testEngine === 'sqlite' ? 'sqlite_master' : 'pg_indexes')} where ${sql.raw(testEngine === 'sqlite' ? 'name' : 'indexname')} = ${`rec_${tableId}_f_${due}_idx`}`.execute(db);
    expect(Number(physical.rows[0].n)).toBe(0);
  });
});

describe(`automatic indexes on created_at and updated_at (${testEngine})`, () => {
  const ctx = useTestApp({ env: { TABULA_AUTO_INDEX_AFTER: '2', TABULA_AUTO_INDEX_MIN_ROWS: '0' } });

  it('a repeated "newest first" list, filtered or not, gets the index it asks for, and the planner uses it', async () => {
    const world = await createAccount(ctx);
    const { tableId } = await seedDeals(ctx, world, 12);
    const query = (body: unknown) => call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: world.accountKey, body });
    for (let i = 0; i < 2; i += 1) expect((await query({ where: { stage: 'won' }, order_by: 'created_at', order_dir: 'D', limit: 5 })).status).toBe(200);
    const filtered = await waitForIndex(ctx, world.accountKey, tableId, 'auto_stage_created_at_desc');
    expect(filtered).toMatchObject({ fields: ['stage', 'created_at'], direction: 'desc', reason: '2 queries: stage =, order by created_at desc' });
    for (let i = 0; i < 2; i += 1) expect((await query({ filters: [{ column: 'updated_at', compare: '>=', value: '2024-01-01' }], limit: 5 })).status).toBe(200);
    expect(await waitForIndex(ctx, world.accountKey, tableId, 'auto_updated_at')).toMatchObject({ fields: ['updated_at'], direction: null, reason: '2 queries: updated_at range' });
    const stage = await fieldId(ctx, tableId, 'stage');
    expect(await planOf(ctx, `select id from rec_${tableId} where f_${stage} = 'won' order by created_at desc nulls last, id asc limit 5`)).toContain(`rec_${tableId}_ix_${stage}_created_at_d`);
    // The record's key needs none: sorting or filtering by id asks for nothing.
    for (let i = 0; i < 3; i += 1) await query({ order_by: 'id', order_dir: 'D', filters: [{ column: 'id', compare: '>', value: 1 }], limit: 5 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const names = ((await call(ctx, 'GET', `/api/table/${tableId}/indexes/list`, { key: world.accountKey })).body as Array<{ name: string }>).map((i) => i.name);
    expect(names.sort()).toEqual(['auto_stage_created_at_desc', 'auto_updated_at']);
  });
});

describe(`automatic indexes switched off or on a small table (${testEngine})`, () => {
  const off = useTestApp({ env: { TABULA_AUTO_INDEXES: 'off', TABULA_AUTO_INDEX_AFTER: '1', TABULA_AUTO_INDEX_MIN_ROWS: '0' } });
  const small = useTestApp({ env: { TABULA_AUTO_INDEX_AFTER: '1', TABULA_AUTO_INDEX_MIN_ROWS: '1000' } });

  it.each([
    ['off', () => off],
    ['on, but the table is below TABULA_AUTO_INDEX_MIN_ROWS', () => small],
  ])('builds nothing when %s', async (_case, app) => {
    const ctx = app();
    const world = await createAccount(ctx);
    const { tableId } = await seedDeals(ctx, world, 10);
    for (let i = 0; i < 5; i += 1) await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: world.accountKey, body: { where: { stage: 'won' }, order_by: 'amount' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(ctx, 'GET', `/api/table/${tableId}/indexes/list`, { key: world.accountKey })).body).toEqual([]);
  });
});
