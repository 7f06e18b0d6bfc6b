import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

describe('search text after schema changes', () => {
  const ctx = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  it('no longer finds the text of a deleted searchable field, and still finds the other fields', async () => {
    const space = await createSpace(ctx, world);
    const table = await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ name: 'Heading', type: 'text' }, { name: 'Body', type: 'longtext' }] });
    const key = world.accountKey;
    for (let i = 0; i < 3; i += 1) {
      await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key, body: { data: { heading: `alpha ${i}`, body: `zebra ${i}` } } });
    }
    const search = async (term: string) => (await call(ctx, 'POST', `/api/table/${table.id}/records/ids`, { key, body: { search: term } })).body;
    expect(await search('zebra')).toEqual([1, 2, 3]);

    const deleted = await call(ctx, 'POST', `/api/table/${table.id}/field/body/delete`, { key });
    expect(deleted.status).toBe(200);
    expect(await search('zebra')).toEqual([]);
    expect(await search('alpha')).toEqual([1, 2, 3]);
  });
});
