import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Field } from '../../src/modules/fields/field.js';
import { numberField } from '../../src/modules/fields/number.js';
import { buildTestApp, type TestContext } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * The record writer and the deletions call the field types' lifecycle hooks (field-type.ts).
 * No type has them yet, so this file lends them to the number type for its own tests (each
 * test file runs in its own module instance) and records every call.
 */
describe('field type lifecycle hooks', () => {
  let ctx: TestContext;
  let world: World;
  let spaceId: number;
  const calls: unknown[][] = [];

  beforeAll(async () => {
    // prepare adds 1000, so the tests see that the write stores what prepare returned; 13 fails.
    numberField.prepare = async (stored, field) => {
      if (stored === 13) throw new Error('prepare refused 13');
      calls.push(['prepare', field.slug, stored]);
      return { stored: (stored as number) + 1000, cleanup: async () => void calls.push(['cleanup', field.slug, stored]) };
    };
    numberField.afterCommit = async (change, field) => void calls.push(['afterCommit', field.slug, change.stored, change.previous]);
    numberField.onRecordsDeleted = async (stored, field) => void calls.push(['onRecordsDeleted', field.slug, [...stored].sort()]);
    numberField.onFieldDeleted = async (field: Field) => void calls.push(['onFieldDeleted', field.slug]);
    ctx = await buildTestApp();
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Lifecycle')).id;
  });
  afterAll(async () => {
    delete numberField.prepare;
    delete numberField.afterCommit;
    delete numberField.onRecordsDeleted;
    delete numberField.onFieldDeleted;
    await ctx.close();
  });
  beforeEach(() => {
    calls.length = 0;
  });

  const post = (url: string, body?: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const newTable = async () => {
    const { id } = await createTable(ctx, world, spaceId, {
      name: `T${Math.random()}`,
      fields: [
        { id: 'a', name: 'A', type: 'number' },
        { id: 'b', name: 'B', type: 'number' },
        { id: 'name', name: 'Name', type: 'text' },
      ],
    });
    // A call on metadata cached before the table existed fails its confirmation and runs again
    // (records.service onTable), preparing twice: one read first brings the cache up to date.
    await post(`/api/table/${id}/records/count`, {});
    return id as number;
  };

  it('prepares the written values before the write, stores what prepare returned, then runs afterCommit', async () => {
    const tableId = await newTable();
    const created = await post(`/api/table/${tableId}/records/create`, { data: { a: 1, name: 'x' } });
    expect(created.status).toBe(200);
    expect(created.body.data.a).toBe(1001);
    expect(calls).toEqual([
      ['prepare', 'a', 1],
      ['afterCommit', 'a', 1001, undefined],
    ]);
    expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${created.body.id}/get`, { key: world.accountKey })).body.data.a).toBe(1001);
  });

  it('tells afterCommit of an update which value it replaced', async () => {
    const tableId = await newTable();
    const { id } = (await post(`/api/table/${tableId}/records/create`, { data: { a: 1 } })).body;
    calls.length = 0;
    const updated = await post(`/api/table/${tableId}/record/${id}/update`, { data: { a: 2, name: 'y' } });
    expect(updated.body.data).toMatchObject({ a: 1002, name: 'y' });
    expect(calls).toEqual([
      ['prepare', 'a', 2],
      ['afterCommit', 'a', 1002, 1001],
    ]);
  });

  it('undoes what earlier prepares did when a later one fails, and writes nothing', async () => {
    const tableId = await newTable();
    const refused = await post(`/api/table/${tableId}/records/create`, { data: { a: 1, b: 13 } });
    expect(refused.status).toBe(500);
    // The metadata is confirmed before the prepares (record-lifecycle prepareValuesIo): a failure
    // after that is the write's own, and the call is not run again (its I/O is done once).
    expect(calls).toEqual([
      ['prepare', 'a', 1],
      ['cleanup', 'a', 1],
    ]);
    expect((await post(`/api/table/${tableId}/records/count`, {})).body.count).toBe(0);
  });

  it('runs the cleanups when the write itself fails (a record that does not exist)', async () => {
    const tableId = await newTable();
    const missing = await post(`/api/table/${tableId}/record/999/update`, { data: { a: 5 } });
    expect(missing.status).toBe(400);
    expect(calls).toContainEqual(['cleanup', 'a', 5]);
    expect(calls.some(([hook]) => hook === 'afterCommit')).toBe(false);
  });

  it('hands the deleted records’ values to onRecordsDeleted when the trash is purged, for single and batch deletes', async () => {
    const tableId = await newTable();
    const ids: number[] = [];
    for (const a of [1, 2, 3]) ids.push((await post(`/api/table/${tableId}/records/create`, { data: { a } })).body.id);
    calls.length = 0;
    expect((await post(`/api/table/${tableId}/record/${ids[0]}/delete`, {})).status).toBe(200);
    const batch = await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [ids[1], ids[2], 999] });
    expect(batch.body).toEqual({ deleted: [ids[1], ids[2]], not_found: [999] });
    // In the trash, a record keeps what it holds (it may be restored).
    expect(calls).toEqual([]);
    expect(await ctx.container.services.records.purgeTrash(new Date(Date.now() + 29 * 24 * 3600 * 1000))).toBe(0);
    expect(await ctx.container.services.records.purgeTrash(new Date(Date.now() + 31 * 24 * 3600 * 1000))).toBe(3);
    const sorted = calls.map(([hook, slug, values]) => [hook, slug, [...(values as unknown[])].sort()]);
    expect(sorted).toEqual([
      ['onRecordsDeleted', 'a', [1001, 1002, 1003]],
      ['onRecordsDeleted', 'b', [null, null, null]],
    ]);
  });

  it('calls onFieldDeleted for a deleted field, and for each hooked field of a deleted table', async () => {
    const tableId = await newTable();
    expect((await post(`/api/table/${tableId}/field/b/delete`)).status).toBe(200);
    expect(calls).toEqual([['onFieldDeleted', 'b']]);
    calls.length = 0;
    expect((await post(`/api/table/${tableId}/delete`)).status).toBe(200);
    expect(calls).toEqual([['onFieldDeleted', 'a']]);
  });

  it('calls onFieldDeleted for the hooked fields of every table of a deleted space', async () => {
    const otherSpace = (await createSpace(ctx, world, 'Doomed')).id;
    await createTable(ctx, world, otherSpace, { name: 'One', fields: [{ id: 'x', name: 'X', type: 'number' }, { id: 't', name: 'T', type: 'text' }] });
    await createTable(ctx, world, otherSpace, { name: 'Two', fields: [{ id: 'y', name: 'Y', type: 'number' }] });
    expect((await post(`/api/space/${otherSpace}/delete`)).status).toBe(200);
    expect(calls.map(([, slug]) => slug).sort()).toEqual(['x', 'y']);
  });
});
