import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { createRandom } from '../random.js';
import { testEngine } from '../test-database.js';
import { indexPending, startSearchCatchUp } from '../../src/modules/records/search/search-catch-up.js';

/**
 * SQLite's search index takes texts after their commit (search-catch-up.ts): searches must answer
 * the same whatever part of the texts it holds. Random creates, batches, updates, deletes and
 * restores through HTTP, with the catch-up run for part of what is pending between them; after
 * each round every search path (the first matches, a whole list, sorted, filtered, counted) is
 * compared with the answer computed from the records. On PostgreSQL (no catch-up: its index
 * takes each text in the write) the same writes and checks run.
 */
describe('search while the index catches up', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  let db: Kysely<any>;
  const words = ['kor', 'alu', 'mim', 'zeta', 'ノート', 'straße'];
  const probes = ['kor', 'alu mim', 'zeta', 'orA', 'ノート', 'straße', 'korkor', 'xyz', 'mi'];

  const post = (path: string, body: unknown) => call(ctx, 'POST', path, { key: world.accountKey, body });
  async function ok(path: string, body: unknown) {
    const response = await post(path, body);
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }

  type Row = { id: number; data: { heading: string | null; amount: number | null } };
  const matches = (row: Row, probe: string) => probe.toLowerCase().split(' ').every((term) => (row.data.heading ?? '').toLowerCase().includes(term));
  const ids = (rows: Row[]) => rows.map((row) => row.id);

  async function expectSearchAnswers(round: number): Promise<void> {
    const rows: Row[] = await ok(`/api/table/${tableId}/records/query`, { limit: 1000 });
    for (const probe of probes) {
      const found = rows.filter((row) => matches(row, probe));
      const label = `round ${round}, "${probe}"`;
      expect(ids(await ok(`/api/table/${tableId}/records/query`, { search: probe, limit: 3 })), `${label}: first matches`).toEqual(ids(found).slice(0, 3));
      expect(ids(await ok(`/api/table/${tableId}/records/query`, { search: probe, limit: 1000 })), `${label}: all`).toEqual(ids(found));
      const byAmount = [...found].sort((a, b) => (b.data.amount ?? -1) - (a.data.amount ?? -1) || a.id - b.id);
      expect(ids(await ok(`/api/table/${tableId}/records/query`, { search: probe, limit: 1000, order_by: 'amount', order_dir: 'D' })), `${label}: sorted`).toEqual(ids(byAmount));
      const filtered = found.filter((row) => (row.data.amount ?? 0) > 50);
      expect(ids(await ok(`/api/table/${tableId}/records/query`, { search: probe, limit: 1000, where: { amount: ['>', 50] } })), `${label}: filtered`).toEqual(ids(filtered));
      expect((await ok(`/api/table/${tableId}/records/count`, { search: probe })).count, `${label}: counted`).toBe(found.length);
    }
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Catch-up');
    const table = await createTable(ctx, world, space.id, {
      name: 'Notes',
      fields: [
        { id: 'heading', name: 'Heading', type: 'text' },
        { id: 'amount', name: 'Amount', type: 'number' },
      ],
    });
    tableId = table.id;
    db = ctx.container.database.db as unknown as Kysely<any>;
  });

  it('every search answers what the records hold, whatever part of their texts is indexed', async () => {
    const next = createRandom(32);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const heading = () => (next() < 0.15 ? null : Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(words) + pick(words)).join(' '));
    const data = () => ({ heading: heading(), amount: Math.floor(next() * 100) });
    const live: number[] = [];
    const trashed: number[] = [];
    for (let round = 0; round < 12; round += 1) {
      for (let step = 0; step < 8; step += 1) {
        const roll = next();
        if (roll < 0.25 || live.length < 3) live.push((await ok(`/api/table/${tableId}/records/create`, { data: data() })).id);
        else if (roll < 0.35) live.push(...(await ok(`/api/table/${tableId}/records/create_batch`, { records: [{ data: data() }, { data: data() }, { data: data() }] })).map((row: Row) => row.id));
        else if (roll < 0.65) await ok(`/api/table/${tableId}/record/${pick(live)}/update`, { data: next() < 0.8 ? { heading: heading() } : { amount: Math.floor(next() * 100) } });
        else if (roll < 0.8) {
          const id = live.splice(Math.floor(next() * live.length), 1)[0];
          await ok(`/api/table/${tableId}/record/${id}/delete`, {});
          trashed.push(id);
        } else if (roll < 0.9 && trashed.length > 0) {
          const id = trashed.splice(Math.floor(next() * trashed.length), 1)[0];
          await ok(`/api/table/${tableId}/records/restore`, { ids: [id] });
          live.push(id);
        } else if (testEngine === 'sqlite') {
          // Part of what is pending: the first few records of one table.
          await indexPending(db, 1 + Math.floor(next() * 4));
        }
      }
      await expectSearchAnswers(round);
    }
    if (testEngine === 'sqlite') {
      while ((await indexPending(db)) > 0);
      expect((await sql`select * from search_index_pending`.execute(db)).rows).toEqual([]);
      // The index against its content, record by record (`rank` 1: the content table too).
      const fts = sql.table(`rec_${tableId}_fts`);
      await sql`insert into ${fts} (${fts}, rank) values ('integrity-check', 1)`.execute(db);
    }
    await expectSearchAnswers(12);
  });

  it.runIf(testEngine === 'sqlite')('the catch-up indexes what is pending on its own, step after step', async () => {
    const catchUp = startSearchCatchUp(db, { intervalMs: 20, onError: (error) => expect.fail(String(error)) });
    try {
      for (let start = 0; start < 3000; start += 1000) {
        await ok(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: 1000 }, (_, i) => ({ data: { heading: `zeta${start + i}`, amount: i } })) });
      }
      const pendingCount = async () => Number((await sql<{ n: number }>`select count(*) as n from search_index_pending`.execute(db)).rows[0].n);
      for (let waited = 0; (await pendingCount()) > 0; waited += 20) {
        expect(waited, 'the catch-up did not index 3,000 records within 10 s').toBeLessThan(10_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const fts = sql.table(`rec_${tableId}_fts`);
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${fts} where ${fts} match ${'"ta2" AND "a24"'}`.execute(db);
      // zeta24, zeta240–249, zeta2400–2499: the index itself holds them.
      expect(Number(rows[0].n)).toBe(111);
    } finally {
      await catchUp.stop();
    }
  });
});
