// @vitest-environment happy-dom
// (the query keys come from api/queries.ts, whose client is made for the page's origin)
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TableRecord } from '../api/types';
import { cachedRecordAt, cachedSpans, dropOldSpans, missingSpan, putCreatedRecord, replaceCachedRecord, rowsBetween, spanKey } from './record-spans';

const record = (id: number, name = `Record ${id}`) => ({ id, title: name, created_at: '', updated_at: '', data: { name } }) as unknown as TableRecord;
const records = (from: number, count: number) => Array.from({ length: count }, (_, index) => record(from + index + 1));

describe('the spans of a record window', () => {
  it('asks for nothing while the rows near the window are held', () => {
    expect(missingSpan(() => true, { from: 0, to: 40 }, { from: 0, to: 120 })).toBeNull();
  });

  it('asks for every missing row around the window in ONE span, from the first missing to the last', () => {
    // Rows 100…199 held: the window 180…210 lacks 200…; the fetch zone 80…310 lacks 80…99 and 200…310.
    const covered = (row: number) => row >= 100 && row < 200;
    expect(missingSpan(covered, { from: 150, to: 240 }, { from: 80, to: 310 })).toEqual({ offset: 80, limit: 231 });
    // Only the end is missing: the span starts there.
    expect(missingSpan((row) => row < 200, { from: 150, to: 240 }, { from: 80, to: 310 })).toEqual({ offset: 200, limit: 111 });
  });

  it('asks for at most the 1,000 records one query returns', () => {
    expect(missingSpan(() => false, { from: 0, to: 10 }, { from: 0, to: 4999 })).toEqual({ offset: 0, limit: 1000 });
  });

  it('reads each row from the newest span holding it, and knows which rows a current span covers', () => {
    const client = new QueryClient();
    client.setQueryData(spanKey(1, 0, '', 0, 3), records(0, 3));
    client.setQueryData(spanKey(1, 0, '', 2, 2), [record(3, 'newer'), record(4)]);
    const spans = cachedSpans(client, 1, 0, '');
    const { records: rows, covered } = rowsBetween(spans, 0, 5);
    expect(rows.map((row) => row?.title)).toEqual(['Record 1', 'Record 2', 'newer', 'Record 4', undefined, undefined]);
    expect(covered).toEqual([true, true, true, true, false, false]);
    expect(cachedRecordAt(client, 1, 0, '', 2)?.title).toBe('newer');
    // Another view or toolbar query has spans of its own.
    expect(cachedRecordAt(client, 1, 0, '{"search":"x"}', 0)).toBeUndefined();
  });

  it('still shows an invalidated span, as not covered (its rows are fetched again when in view)', async () => {
    const client = new QueryClient();
    client.setQueryData(spanKey(1, 0, '', 0, 2), records(0, 2));
    await client.invalidateQueries({ queryKey: ['table', 1, 'records'] });
    const { records: rows, covered } = rowsBetween(cachedSpans(client, 1, 0, ''), 0, 1);
    expect(rows.map((row) => row?.id)).toEqual([1, 2]);
    expect(covered).toEqual([false, false]);
  });

  it('puts an edited record into every span holding it, and a created one at its row', () => {
    const client = new QueryClient();
    client.setQueryData(spanKey(1, 0, '', 0, 3), records(0, 3));
    client.setQueryData(spanKey(1, 0, '', 2, 2), records(2, 2));
    replaceCachedRecord(client, 1, 0, '', record(3, 'edited'));
    expect(client.getQueryData<TableRecord[]>(spanKey(1, 0, '', 0, 3))?.[2].title).toBe('edited');
    expect(client.getQueryData<TableRecord[]>(spanKey(1, 0, '', 2, 2))?.[0].title).toBe('edited');
    putCreatedRecord(client, 1, 0, '', 4, record(99));
    expect(cachedRecordAt(client, 1, 0, '', 4)?.id).toBe(99);
  });

  it('drops the oldest spans nobody looks at beyond those kept', () => {
    const client = new QueryClient();
    for (let n = 0; n < 5; n += 1) client.setQueryData(spanKey(1, 0, '', n * 10, 10), records(n * 10, 10), { updatedAt: 1000 + n });
    dropOldSpans(client, 1, 0, '', 2);
    expect(cachedSpans(client, 1, 0, '').map((span) => span.offset)).toEqual([30, 40]);
  });
});
