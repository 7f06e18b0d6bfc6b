import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

// The query keys live beside the API client, which needs a browser's window: the keys are all these tests read.
vi.mock('../api/client', () => ({ api: {}, unwrap: () => undefined, ApiError: class {} }));
import { applyChange, freshStaleness, invalidateStale, patchRecordIn, staysExactAfterUpdate, type Change } from './change-cache';

const record = (id: number, name: string) => ({ id, title: name, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00', data: { name, amount: id } });
const update = (rid: number, after: Record<string, unknown>): Change => ({ seq: 7, kind: 'record.updated', table_id: 1, record_id: rid, at: '2026-11-26 10:00:00', fields: Object.keys(after), after });

describe('patchRecordIn', () => {
  it('replaces the record in a page, an infinite query and a lane, and leaves other data as it is', () => {
    const patch = (found: { data: Record<string, unknown> }) => ({ ...found, data: { ...found.data, name: 'new' } }) as never;
    const page = [record(1, 'a'), record(2, 'b')];
    expect((patchRecordIn(page, 2, patch).data as typeof page)[1].data.name).toBe('new');
    expect(patchRecordIn(page, 3, patch)).toEqual({ data: page, found: false });
    const infinite = { pages: [{ records: [record(2, 'b')], next: null }], pageParams: [0] };
    expect(patchRecordIn(infinite, 2, patch).found).toBe(true);
    expect(patchRecordIn({ count: 3 }, 2, patch).found).toBe(false);
  });
});

describe('staysExactAfterUpdate', () => {
  const fields = new Set(['amount']);
  it('keeps the unfiltered grid pages and counts, and those filtered or sorted by other fields', () => {
    expect(staysExactAfterUpdate(['table', 1, 'records', 'window', 0, '{}', 0, 150], fields)).toBe(true);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'window', 0, '{"order_by":"name","order_dir":"A"}', 0, 150], fields)).toBe(true);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'count'], fields)).toBe(true);
  });
  it('refetches lists filtered, sorted or searched by a changed field, saved views and shapes it does not know', () => {
    expect(staysExactAfterUpdate(['table', 1, 'records', 'window', 0, '{"order_by":"amount","order_dir":"A"}', 0, 150], fields)).toBe(false);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'window', 0, '{"search":"x"}', 0, 150], fields)).toBe(false);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'window', 3, '{"view_id":3}', 0, 150], fields)).toBe(false);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'count', '{"filters":[{"column":"amount","compare":"gt","value":1}]}'], fields)).toBe(false);
    expect(staysExactAfterUpdate(['table', 1, 'records', 'kanban', 4, 'todo'], fields)).toBe(false);
  });
});

describe('applyChange', () => {
  it('patches an update into every cached list holding the record, and notes creates for a refetch', () => {
    const client = new QueryClient();
    client.setQueryData(['table', 1], { id: 1, title_field: 'name' });
    client.setQueryData(['table', 1, 'records', 'window', 0, '{}', 0, 150], [record(1, 'a'), record(2, 'b')]);
    const stale = freshStaleness();
    applyChange(client, 1, update(2, { name: 'renamed' }), stale);
    const page = client.getQueryData<ReturnType<typeof record>[]>(['table', 1, 'records', 'window', 0, '{}', 0, 150])!;
    expect(page[1]).toMatchObject({ title: 'renamed', updated_at: '2026-11-26 10:00:00', data: { name: 'renamed', amount: 2 } });
    expect(stale.allRecords).toBe(false);
    expect([...stale.updatedFields]).toEqual(['name']);
    applyChange(client, 1, { ...update(3, {}), kind: 'record.created' }, stale);
    expect(stale.allRecords).toBe(true);
    expect([...stale.records]).toEqual([2, 3]);
  });
});

describe('invalidateStale', () => {
  it('refetches the per-record keys of the records named, and no other record’s', async () => {
    const client = new QueryClient();
    client.setQueryData(['table', 1, 'record', 2, 'comments'], []);
    client.setQueryData(['table', 1, 'record', 3, 'comments'], []);
    const stale = freshStaleness();
    stale.records.add(2);
    await invalidateStale(client, 1, stale);
    expect(client.getQueryState(['table', 1, 'record', 2, 'comments'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['table', 1, 'record', 3, 'comments'])?.isInvalidated).toBe(false);
  });
});
