import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTabulaClient, type TabulaClient } from '../../clients/typescript/index.js';
import { clientSchemaPath, renderClientSchema } from '../../scripts/generate-client.js';
import { useTestApp } from '../build-test-app.js';
import { createAccount, type World } from '../factories.js';

/** The generated client (clients/typescript) against a real server listening on a free port. */
describe('the typed TypeScript client', () => {
  const ctx = useTestApp();
  let world: World;
  let baseUrl: string;
  let client: TabulaClient;

  beforeAll(async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    world = await createAccount(ctx);
    client = createTabulaClient(`${baseUrl}/`, world.accountKey);
  });

  it('creates a space and a table, writes, reads, queries, counts and deletes records', async () => {
    const space = await client.POST('/api/spaces/create', { body: { name: 'Client space' } });
    expect(space.error).toBeUndefined();
    const table = await client.POST('/api/space/{sid}/tables/create', {
      params: { path: { sid: space.data!.id } },
      body: { name: 'Books', fields: [{ id: 'name', name: 'Title', type: 'text' }, { name: 'Pages', type: 'number' }, { name: 'Genre', type: 'select', options: [{ value: 'novel' }, { value: 'essay' }] }] },
    });
    expect(table.error).toBeUndefined();
    expect(table.data!.fields.map((field) => field.id)).toEqual(['name', 'pages', 'genre']);
    const tid = table.data!.id;

    const books = [
      { name: 'Middlemarch', pages: 880, genre: 'novel' },
      { name: 'A Room of One’s Own', pages: 172, genre: 'essay' },
      { name: 'Bleak House', pages: 1017, genre: 'novel' },
    ];
    const ids: number[] = [];
    for (const data of books) {
      const created = await client.POST('/api/table/{tid}/records/create', { params: { path: { tid } }, body: { data } });
      expect(created.error).toBeUndefined();
      expect(created.data!.data).toEqual(data);
      ids.push(created.data!.id);
    }

    const updated = await client.POST('/api/table/{tid}/record/{rid}/update', { params: { path: { tid, rid: ids[1] } }, body: { data: { pages: 114 } } });
    expect(updated.data!.data.pages).toBe(114);
    const read = await client.GET('/api/table/{tid}/record/{rid}/get', { params: { path: { tid, rid: ids[1] } } });
    expect(read.data).toMatchObject({ id: ids[1], title: 'A Room of One’s Own', data: { pages: 114 } });

    const novels = await client.POST('/api/table/{tid}/records/query', {
      params: { path: { tid } },
      body: { filters: [{ column: 'genre', compare: '=', value: 'novel' }], order_by: 'pages', order_dir: 'D', fields: ['name'] },
    });
    expect(novels.error).toBeUndefined();
    expect(novels.data!.map((record) => record.data)).toEqual([{ name: 'Bleak House' }, { name: 'Middlemarch' }]);

    const count = await client.POST('/api/table/{tid}/records/count', { params: { path: { tid } }, body: { where: { pages: ['>', 500] } } });
    expect(count.data).toMatchObject({ count: 2, total: 3 });

    const deleted = await client.POST('/api/table/{tid}/records/delete_batch', { params: { path: { tid } }, body: { record_ids: [ids[0], 999_999] } });
    expect(deleted.data).toEqual({ deleted: [ids[0]], not_found: [999_999] });
    const left = await client.POST('/api/table/{tid}/records/ids', { params: { path: { tid } }, body: {} });
    expect(left.data).toEqual([ids[1], ids[2]]);

    const history = await client.POST('/api/table/{tid}/record/{rid}/history', { params: { path: { tid, rid: ids[1] } }, body: { limit: 10 } });
    expect(history.error).toBeUndefined();
    expect(history.data!.map((change) => [change.kind, change.fields])).toEqual([
      ['record.updated', ['pages']],
      ['record.created', ['name', 'pages', 'genre']],
    ]);
    expect(history.data![0]).toMatchObject({ record_id: ids[1], before: { pages: 172 }, after: { pages: 114 } });
    const restored = await client.POST('/api/table/{tid}/records/restore', { params: { path: { tid } }, body: { ids: [ids[0]] } });
    expect(restored.data).toEqual({ restored: [ids[0]], not_found: [] });
  });

  it('answers errors as the typed error body, with the status of the specification', async () => {
    const space = await client.POST('/api/spaces/create', { body: { name: 'Errors' } });
    const table = await client.POST('/api/space/{sid}/tables/create', { params: { path: { sid: space.data!.id } }, body: { name: 'T', fields: [{ name: 'Name', type: 'text' }] } });
    const refused = await client.POST('/api/table/{tid}/records/create', { params: { path: { tid: table.data!.id } }, body: { data: { nope: 1 } } });
    expect(refused.data).toBeUndefined();
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({ error: { code: 'invalid_field', message: 'Invalid field: nope' } });

    const anonymous = createTabulaClient(baseUrl);
    const health = await anonymous.GET('/healthz');
    expect(health.data).toEqual({ ok: true });
    const noKey = await anonymous.GET('/api/spaces/list');
    expect(noKey.response.status).toBe(401);
    expect(noKey.error?.error.code).toBe('missing_api_key');
  });

  it('the committed clients/typescript/schema.d.ts is what `npm run client:generate` makes of the current document', async () => {
    const current = await renderClientSchema(ctx.app.swagger() as unknown as Record<string, unknown>);
    expect(fs.readFileSync(clientSchemaPath, 'utf8'), 'run `npm run client:generate` and commit clients/typescript/schema.d.ts').toBe(current);
  });
});
