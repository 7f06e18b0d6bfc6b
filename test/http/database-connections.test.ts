import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

describe('TABULA_DATABASE_CONNECTIONS', () => {
  it('defaults to twice the cores shared by the processes, at least 4 each, and takes a positive integer', () => {
    const cores = os.availableParallelism();
    expect(loadConfig({}).databaseConnections).toBe(Math.max(4, 2 * cores));
    expect(loadConfig({ TABULA_PROCESSES: '3' }).databaseConnections).toBe(Math.max(4, Math.ceil((2 * cores) / 3)));
    expect(loadConfig({}, { processes: 'auto' }).databaseConnections).toBe(Math.max(4, Math.ceil((2 * cores) / loadConfig({}, { processes: 'auto' }).processes)));
    expect(loadConfig({ TABULA_PROCESSES: '256' }).databaseConnections).toBe(4);
    expect(loadConfig({ TABULA_DATABASE_CONNECTIONS: '3' }).databaseConnections).toBe(3);
    for (const raw of ['0', '-2', '1.5', 'many', '']) {
      expect(() => loadConfig({ TABULA_DATABASE_CONNECTIONS: raw }), raw).toThrow(`TABULA_DATABASE_CONNECTIONS must be a positive integer, got "${raw}"`);
    }
  });
});

/**
 * With one connection in the pool (PostgreSQL; SQLite has one writer connection whatever the
 * setting), a call that held it while waiting for a second one would wait for ever. Calls of
 * every kind at once, each path that writes in a transaction or in one statement among them,
 * must all answer.
 */
describe('one database connection: calls of every kind at once all answer', () => {
  const ctx = useTestApp({ env: { TABULA_DATABASE_CONNECTIONS: '1' } });
  let world: World;
  let tableId: number;
  let targetIds: number[];
  let recordIds: number[];

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'One connection')).id;
    const targetTableId = (await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'label', name: 'Label', type: 'text' }] })).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Rows',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'n', name: 'N', type: 'number' },
          { id: 'owner', name: 'Owner', type: 'user' },
          { id: 'parent', name: 'Parent', type: 'lookup', table_id: targetTableId },
        ],
      })
    ).id;
    const targets = await call(ctx, 'POST', `/api/table/${targetTableId}/records/create_batch`, { key: world.accountKey, body: { records: [{ data: { label: 'A' } }, { data: { label: 'B' } }] } });
    targetIds = (targets.body as Array<{ id: number }>).map((record) => record.id);
    const rows = await call(ctx, 'POST', `/api/table/${tableId}/records/create_batch`, {
      key: world.accountKey,
      body: { records: Array.from({ length: 12 }, (_, n) => ({ data: { name: `row ${n}`, n, owner: world.ownerId, parent: targetIds[n % 2] } })) },
    });
    recordIds = (rows.body as Array<{ id: number }>).map((record) => record.id);
  });

  it('creates, updates, deletes, batches, comments, reads, counts, the log, history and the trash together', async () => {
    const post = (path: string, body: unknown = {}) => call(ctx, 'POST', `/api/table/${tableId}${path}`, { key: world.accountKey, body });
    const [a, b, c, d, e, f, g, h, i, j] = recordIds;
    const deleted = await post(`/record/${j}/delete`);
    expect(deleted.status).toBe(200);
    const calls = [
      post('/records/create', { data: { name: 'new', n: 1, owner: world.ownerId, parent: targetIds[0] } }),
      post('/records/create', { data: { n: 2 } }),
      post(`/record/${a}/update`, { data: { n: 100 } }),
      post(`/record/${b}/update`, { data: { name: 'renamed' } }),
      post(`/record/${c}/update`, { data: { parent: targetIds[1], owner: null } }),
      post(`/record/${d}/delete`),
      post('/records/create_batch', { records: [{ data: { n: 3 } }, { data: { n: 4, parent: targetIds[1] } }] }),
      post('/records/update_batch', { records: [{ id: e, data: { n: 5 } }, { id: f, data: { name: 'batch' } }] }),
      post('/records/delete_batch', { record_ids: [g] }),
      post(`/record/${h}/comments/create`, { content: 'a comment' }),
      call(ctx, 'GET', `/api/table/${tableId}/record/${i}/get`, { key: world.accountKey }),
      post('/records/query', { filters: [{ column: 'n', compare: '>', value: 0 }], limit: 5 }),
      post('/records/count', { filters: [{ column: 'n', compare: '>', value: 0 }] }),
      post('/records/count', {}),
      post('/changes/list', { after: 0, limit: 10 }),
      post(`/record/${a}/history`, {}),
      post('/records/trash', {}),
      post('/records/restore', { ids: [j] }),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => (answer.status === 200 ? 200 : answer.body))).toEqual(answers.map(() => 200));
  });
});
