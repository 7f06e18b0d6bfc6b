import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, createUser, everyFieldType, type World } from '../factories.js';

/**
 * An update that changes nothing writes nothing (record-writer.ts, changesNothing): the record
 * keeps its `updated_at` and no change is logged, through every update form (a single update,
 * on PostgreSQL both its one-statement form and its transaction; update_batch; upsert_batch).
 * The clock moves a second between calls, so a write would show in `updated_at`.
 */
describe('an update that changes nothing', () => {
  let nowMs = Date.parse('2026-03-01T09:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let tableId: number;
  let values: Record<string, unknown>;

  async function ok(path: string, body: unknown) {
    nowMs += 1000;
    const response = await call(ctx, 'POST', `/api/table/${tableId}${path}`, { key: world.accountKey, body });
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }
  const changeCount = async () => ((await ok('/changes/list', { limit: 1000 })) as { changes: unknown[]; next_after: number }).changes.length;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Unchanged')).id;
    const target = await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
    const user = await createUser(ctx, world, 'Ada');
    await call(ctx, 'POST', `/api/space/${spaceId}/members/add`, { key: world.accountKey, body: { user_id: user.id, role: 'editor' } });
    tableId = target.id;
    const targetRecord = (await ok('/records/create', { data: { name: 'one' } })) as { id: number };
    tableId = (await createTable(ctx, world, spaceId, { name: 'Everything', fields: everyFieldType(target.id).filter((field) => field.type !== 'file') })).id;
    values = {
      name: 'Kilo',
      notes: 'Two\nlines',
      mail: 'kilo@example.com',
      site: 'https://example.com/kilo',
      amount: 12.5,
      done: true,
      status: 'Open',
      tags: ['red', 'blue'],
      owner: user.id,
      team: [user.id],
      ref: targetRecord.id,
      refs: [targetRecord.id],
      day: '2026-02-03',
      moment: '2026-02-03 04:05:06',
      clock: '07:08:09',
    };
  });

  it('keeps updated_at and logs nothing, field by field and all at once, single and batch', async () => {
    const created = (await ok('/records/create', { data: values })) as { id: number; updated_at: string };
    const count = await changeCount();
    for (const [slug, value] of [...Object.entries(values), ['every field', values] as const]) {
      const data = slug === 'every field' ? values : { [slug]: value };
      const updated = (await ok(`/record/${created.id}/update`, { data })) as { updated_at: string };
      expect(updated.updated_at, slug).toBe(created.updated_at);
    }
    await ok('/records/update_batch', { records: [{ id: created.id, data: values }] });
    await ok('/records/upsert_batch', { match_on: ['name'], records: [{ data: values }] });
    const read = (await call(ctx, 'GET', `/api/table/${tableId}/record/${created.id}/get`, { key: world.accountKey })).body as { updated_at: string };
    expect(read.updated_at).toBe(created.updated_at);
    expect(await changeCount()).toBe(count);
  });

  it('still writes when one value of several changes', async () => {
    const created = (await ok('/records/create', { data: { ...values, name: 'Lima' } })) as { id: number; updated_at: string };
    const changed = (await ok(`/record/${created.id}/update`, { data: { amount: 12.5, status: 'Closed' } })) as { updated_at: string; data: Record<string, unknown> };
    expect(changed.updated_at).not.toBe(created.updated_at);
    expect(changed.data.status).toBe('Closed');
    const batch = (await ok('/records/update_batch', { records: [{ id: created.id, data: { amount: 13 } }] })) as Array<{ updated_at: string }>;
    expect(batch[0].updated_at).not.toBe(changed.updated_at);
  });
});
