import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
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
});
