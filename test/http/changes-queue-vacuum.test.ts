import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { sequenceQueuedStatement } from '../../src/modules/changes/changes.repository.js';
import { testEngine } from '../test-database.js';

/**
 * On PostgreSQL writers queue their changes and the sequencer moves them into the log
 * (write-unit.ts), so every row of `change_queue` dies within milliseconds. The sequencer
 * vacuums the queue itself every 10,000 changes it moved: left to autovacuum's default trigger
 * (a fifth of the table dead), or with autovacuum off as on the test machines, the queue grew
 * to 700 MB of dead rows at a million changes and every look at it took 0.4 s. SQLite has no
 * queue (its one writer appends to the log directly).
 */
describe.runIf(testEngine === 'postgres')('the change queue is vacuumed by the sequencer (PostgreSQL)', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Queue')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Rows', fields: [{ id: 'n', name: 'N', type: 'number' }] })).id;
  });

  const queueStats = async () => {
    const { rows } = await sql<{ vacuums: string; dead: string }>`select vacuum_count as vacuums, n_dead_tup as dead from pg_stat_user_tables where relname = 'change_queue'`.execute(ctx.container.database.db);
    return { vacuums: Number(rows[0].vacuums), dead: Number(rows[0].dead) };
  };

  it('vacuums the queue once 10,000 changes went through it, and loses no change', async () => {
    expect((await queueStats()).vacuums).toBe(0);
    for (let batch = 0; batch < 11; batch += 1) {
      const response = await call(ctx, 'POST', `/api/table/${tableId}/records/create_batch`, { key: world.accountKey, body: { records: Array.from({ length: 1000 }, (_, n) => ({ data: { n: batch * 1000 + n } })) } });
      expect(response.status).toBe(200);
    }
    // A read of the log empties the queue into it first; the vacuum follows in the background.
    const listed = await call(ctx, 'POST', `/api/table/${tableId}/changes/list`, { key: world.accountKey, body: { after: 0, limit: 1 } });
    expect(listed.status).toBe(200);
    let stats = await queueStats();
    for (let waited = 0; stats.vacuums === 0 && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = await queueStats();
    }
    expect(stats.vacuums).toBeGreaterThan(0);
    const { rows } = await sql<{ logged: string; queued: string }>`select (select count(*) from changes where table_id = ${tableId}) as logged, (select count(*) from change_queue) as queued`.execute(ctx.container.database.db);
    expect(Number(rows[0].logged)).toBe(11_000);
    expect(Number(rows[0].queued)).toBe(0);
  });

  /** Every node of a plan (EXPLAIN's JSON), its InitPlans and subplans included. */
  const nodesOf = (node: { 'Node Type': string; Plans?: unknown[] }): Array<{ 'Node Type': string; 'Parent Relationship'?: string; 'Subplan Name'?: string; 'Relation Name'?: string }> => [node, ...(node.Plans ?? []).flatMap((child) => nodesOf(child as typeof node))];

  it("the sequencer's statement reads the queue once, as a range of its primary key, whatever the statistics say", async () => {
    // The statistics of a queue vacuumed while empty and never analyzed since (autovacuum off):
    // the planner believes it holds a row or so. With `id in (select … limit n)` it then ran the
    // subquery again for every queued row (a nested loop): minutes for 80,000 queued changes.
    const { db } = ctx.container.database;
    await sql`vacuum change_queue`.execute(db);
    const explained = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Node Type': string; Plans?: unknown[] } }> }>`explain (format json) ${sequenceQueuedStatement(10_000)}`.execute(db);
    const nodes = nodesOf(explained.rows[0]['QUERY PLAN'][0].Plan);
    expect(nodes.filter((node) => node['Node Type'].includes('Nested Loop'))).toEqual([]);
    // The oldest changes are found once (an InitPlan), then the queue is read once more: two reads.
    expect(nodes.filter((node) => node['Parent Relationship'] === 'InitPlan' && !node['Subplan Name']?.startsWith('CTE'))).toHaveLength(1);
    expect(nodes.filter((node) => node['Relation Name'] === 'change_queue' && node['Node Type'] !== 'ModifyTable')).toHaveLength(2);
  });
});
