import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useSecondApp, useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { createRandom } from '../random.js';

const statuses = ['Open', 'Closed', 'Pending'];

/**
 * A cached count follows the table's writes through the change log (count-cache.ts `advance`):
 * thousands of random writes, through two processes on one database, that move records in and
 * out of cached filters; after each batch, every filter's count through both processes equals
 * the real count (records/ids, which never goes through the cache). Field definition changes,
 * which drop a followed count, are in records-count-cache.test.ts.
 */
describe('records count across writes', () => {
  const ctx = useTestApp();
  const other = useSecondApp(ctx);
  let world: World;
  let tableId: number;

  async function ok(target: TestContext, path: string, body: unknown) {
    const response = await call(target, 'POST', path, { key: world.accountKey, body });
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Count follow')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Moving',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'status', name: 'Status', type: 'select', options: statuses.map((value) => ({ value })) },
          { id: 'size', name: 'Size', type: 'number' },
        ],
      })
    ).id;
  });

  const filters = [{ where: { status: 'Open' } }, { where: { size: ['>', 50] } }, { where: { status: ['!=', 'Closed'], size: ['<=', 20] } }, { filters: [{ column: 'name', compare: 'C', value: 'k' }] }];

  it('stays exact across thousands of random updates, creates and deletes moving records in and out of cached filters', async () => {
    const random = createRandom(32);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const t = `/api/table/${tableId}`;
    const data = () => ({ status: pick(statuses), size: Math.floor(random() * 100), name: pick(['kilo', 'lima', 'mike', 'oskar']) });
    const created = (await ok(ctx, `${t}/records/create_batch`, { records: Array.from({ length: 120 }, () => ({ data: data() })) })) as Array<{ id: number }>;
    const ids = created.map((record) => record.id);
    let writes = 0;
    for (let batch = 0; batch < 40; batch += 1) {
      const target = batch % 2 === 0 ? ctx : other;
      // Most writes in update_batch (many records a request), some single updates, creates and deletes.
      const moved = Array.from({ length: 40 }, () => pick(ids));
      await ok(target, `${t}/records/update_batch`, { records: [...new Set(moved)].map((id) => ({ id, data: random() < 0.5 ? { status: pick(statuses) } : { size: Math.floor(random() * 100) } })) });
      writes += new Set(moved).size;
      await ok(pick([ctx, other]), `${t}/record/${pick(ids)}/update`, { data: data() });
      if (random() < 0.3) ids.push(((await ok(pick([ctx, other]), `${t}/records/create`, { data: data() })) as { id: number }).id);
      if (random() < 0.2 && ids.length > 60) await ok(pick([ctx, other]), `${t}/record/${ids.splice(Math.floor(random() * ids.length), 1)[0]}/delete`, {});
      writes += 1;
      for (const filter of filters) {
        const real = ((await ok(ctx, `${t}/records/ids`, filter)) as number[]).length;
        for (const via of [ctx, other]) expect(((await ok(via, `${t}/records/count`, filter)) as { count: number }).count, `batch ${batch} ${JSON.stringify(filter)}`).toBe(real);
      }
    }
    expect(writes).toBeGreaterThan(1000);
  }, 300_000);
});
