import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { queueChanges, sequenceQueued, sequenceQueuedStatement } from '../../src/modules/changes/changes.repository.js';
import { testEngine } from '../test-database.js';
import { changeLogLock } from '../../src/db/dialect.js';

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
    // No nested loop reads the queue: the one there is expands each moved row's JSON array.
    for (const loop of nodes.filter((node) => node['Node Type'].includes('Nested Loop'))) {
      expect(nodesOf(loop as never).filter((node) => node['Relation Name'] === 'change_queue')).toEqual([]);
    }
    // The cutoff is found once (a CTE, read by InitPlans), then the queue is read twice more as
    // a range of ids beside it: what is moved, and whether anything is left. Three reads.
    expect(nodes.filter((node) => node['Subplan Name'] === 'CTE cutoff')).toHaveLength(1);
    expect(nodes.filter((node) => node['Relation Name'] === 'change_queue' && node['Node Type'] !== 'ModifyTable')).toHaveLength(3);
  });

  it("a write's several changes are one queued row, which the sequencer expands in their order with their payloads as written", async () => {
    const { db } = ctx.container.database;
    const common = { account_id: world.accountId, space_id: 1, table_id: tableId, at: '2026-12-04 10:00:00', actor_user_id: null, actor_api_key_id: 7, actor_name: 'API: "queue" \\ key' };
    // Payloads as the writers make them, spacing and escapes included: the log must keep them byte for byte.
    const payloads = ['{"fields":["n"],"before":{},"after":{"n":1}}', '{"fields":["n"],"before":{"n":"é \\"q\\" \\u2028"},"after":{"n":  2.50}}', '{"fields":[],"before":{},"after":{}}'];
    const drafts = [
      { ...common, record_id: 901, comment_id: null, kind: 'record.created', payload_json: payloads[0] },
      { ...common, record_id: 902, comment_id: null, kind: 'record.updated', payload_json: payloads[1] },
      { ...common, record_id: 901, comment_id: 55, kind: 'comment.created', payload_json: payloads[2] },
    ];
    await db.transaction().execute((trx) => queueChanges(trx, drafts));
    const queued = await db.selectFrom('change_queue').select(['record_id', 'kind', 'payload_json', 'change_count']).execute();
    expect(queued).toEqual([{ record_id: null, kind: null, payload_json: null, change_count: 3 }]);
    const before = Number((await db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0);
    await ctx.container.services.unit.sequencePending();
    const logged = await db.selectFrom('changes').selectAll().where('seq', '>', before).orderBy('seq').execute();
    expect(logged.map((row) => Number(row.seq))).toEqual([before + 1, before + 2, before + 3]);
    expect(logged.map(({ seq: _seq, ...row }) => row)).toEqual(drafts);
    expect(await db.selectFrom('change_queue').selectAll().execute()).toEqual([]);
  });

  /**
   * Runs `write` while the sequencer cannot move anything (this test holds its lock), and
   * answers what `write` queued; then lets the sequencer go and waits until the queue is empty.
   */
  async function queuedBy(write: () => Promise<void>) {
    const { db } = ctx.container.database;
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const holding = db.transaction().execute(async (trx) => {
      await sql`select ${changeLogLock}`.execute(trx);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    try {
      await write();
      return await db.selectFrom('change_queue').select(['record_id', 'kind', 'record_ids', 'kinds', 'change_count']).orderBy('id').execute();
    } finally {
      release();
      await holding;
      await ctx.container.services.unit.settleQueued();
    }
  }

  it('a create_batch and a delete_batch through the API each queue one row; one record queues one change as it is', async () => {
    const post = (path: string, body: unknown) => call(ctx, 'POST', `/api/table/${tableId}${path}`, { key: world.accountKey, body });
    let ids: number[] = [];
    const created = await queuedBy(async () => {
      const response = await post('/records/create_batch', { records: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3 } }] });
      expect(response.status).toBe(200);
      ids = (response.body as Array<{ id: number }>).map((record) => record.id);
    });
    expect(created).toEqual([{ record_id: null, kind: null, record_ids: ids, kinds: Array(3).fill('record.created'), change_count: 3 }]);
    // The delete's one statement queues them in the order its read before found them: by id.
    const order = [...ids].sort((a, b) => a - b);
    const deleted = await queuedBy(async () => {
      expect((await post('/records/delete_batch', { record_ids: [ids[2], ids[0], ids[1]] })).status).toBe(200);
    });
    expect(deleted).toEqual([{ record_id: null, kind: null, record_ids: order, kinds: Array(3).fill('record.deleted'), change_count: 3 }]);
    const single = await queuedBy(async () => {
      expect((await post('/records/create', { data: { n: 4 } })).status).toBe(200);
    });
    expect(single).toEqual([{ record_id: expect.any(Number), kind: 'record.created', record_ids: null, kinds: null, change_count: 1 }]);
    // And the log has them in that order, with nothing left queued.
    const logged = await ctx.container.database.db.selectFrom('changes').select(['record_id', 'kind']).where('table_id', '=', tableId).orderBy('seq', 'desc').limit(7).execute();
    expect(logged.reverse()).toEqual([
      ...ids.map((id) => ({ record_id: id, kind: 'record.created' })),
      ...order.map((id) => ({ record_id: id, kind: 'record.deleted' })),
      { record_id: single[0].record_id, kind: 'record.created' },
    ]);
    expect(await ctx.container.database.db.selectFrom('change_queue').selectAll().execute()).toEqual([]);
  });
  it("a sequencer that waited for another's lock moves only what that one left, with seqs after its", async () => {
    // The sequencer's statement takes the lock after its snapshot: it may still see as queued
    // what the sequencer it waited for moved. Here that one is a transaction this test holds.
    const { db } = ctx.container.database;
    // The earlier tests' writes may have a background run still due (runs are spaced 25 ms
    // apart): run it now, so that no sequencer but the test's moves anything below.
    await ctx.container.services.unit.drain();
    await ctx.container.services.unit.settleQueued();
    const common = { account_id: world.accountId, space_id: 1, table_id: tableId, at: '2026-12-06 10:00:00', actor_user_id: null, actor_api_key_id: 7, actor_name: 'API: lock' };
    const queue = (recordId: number) => db.transaction().execute((trx) => queueChanges(trx, [{ ...common, record_id: recordId, comment_id: null, kind: 'record.updated', payload_json: `{"n":${recordId}}` }]));
    const logged = () => db.selectFrom('changes').select(['seq', 'record_id']).where('actor_name', '=', common.actor_name).orderBy('seq').execute();
    await queue(9001);
    let commitFirst!: () => void;
    let firstMoved!: (moved: number) => void;
    const movedByFirst = new Promise<number>((resolve) => (firstMoved = resolve));
    const first = db.transaction().execute(async (trx) => {
      firstMoved((await sequenceQueued(trx, 10_000)).moved);
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    expect(await movedByFirst).toBe(1);
    // Committed before the second sequencer starts: in its snapshot, beside 9001, which the first moved but has not committed.
    await queue(9002);
    const second = sequenceQueued(db, 10_000);
    const waiting = async () => Number((await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`.execute(db)).rows[0].n);
    for (let waited = 0; (await waiting()) === 0; waited += 10) {
      if (waited > 5_000) throw new Error('the second sequencer never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Committed while it waits: after its snapshot, so left for the next run.
    await queue(9003);
    commitFirst();
    await first;
    expect((await second).moved).toBe(1);
    const [a, b] = await logged();
    expect([a.record_id, b.record_id]).toEqual([9001, 9002]);
    expect(Number(b.seq)).toBeGreaterThan(Number(a.seq));
    expect(await db.selectFrom('change_queue').select('record_id').execute()).toEqual([{ record_id: 9003 }]);
    await ctx.container.services.unit.sequencePending();
    expect((await logged()).map((row) => row.record_id)).toEqual([9001, 9002, 9003]);
    expect(await db.selectFrom('change_queue').selectAll().execute()).toEqual([]);
  });
});
