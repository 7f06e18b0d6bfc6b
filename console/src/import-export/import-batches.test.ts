import { beforeEach, describe, expect, it, vi } from 'vitest';

// The API client needs a browser's window; these tests answer its calls themselves.
const calls: Array<{ path: string; body: any }> = [];
let answer: (path: string, body: any) => { data?: unknown; error?: { status: number; message: string } };
vi.mock('../api/client', () => {
  class ApiError extends Error {
    constructor(
      readonly status: number,
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }
  return {
    ApiError,
    api: {
      POST: async (path: string, options: { body: unknown }) => {
        calls.push({ path, body: structuredClone(options.body) });
        return answer(path, options.body);
      },
    },
    unwrap: async (call: Promise<{ data?: unknown; error?: { status: number; message: string } }>) => {
      const { data, error } = await call;
      if (error) throw new ApiError(error.status, 'refused', error.message);
      return data;
    },
  };
});
import { checkRows, convertRows, type ValidateBatch } from './check-import';
import { sendRows, type PendingRow } from './send-import';

/** Rows on lines 2… (the header is line 1), each `{name: "r<n>"}`. */
const rowsOf = (count: number): PendingRow[] => Array.from({ length: count }, (_, n) => ({ line: n + 2, data: { name: `r${n}` } }));

beforeEach(() => {
  calls.length = 0;
});

describe('convertRows', () => {
  it("keeps the rows the browser's rules take, with their lines, and rejects the others by line", async () => {
    const amount = { id: 'amount', name: 'Amount', type: 'number', multiple: false, required: false, editable_by: 'members', hidden: null } as never;
    const csv = { header: ['Name', 'Amount'], rows: [{ line: 2, cells: ['Ada', '1'] }, { line: 3, cells: ['Bob', 'ten'] }, { line: 5, cells: ['Cy'] }, { line: 6, cells: ['Di', ''] }] };
    expect(await convertRows(csv, [null, amount])).toEqual({
      pending: [
        { line: 2, data: { amount: 1 } },
        { line: 6, data: { amount: null } },
      ],
      rejected: [
        { line: 3, reason: 'Amount: "ten" is not a number' },
        { line: 5, reason: '1 cell where the header has 2' },
      ],
    });
  });
});

describe('checkRows', () => {
  it('checks 1,000 rows a call, in order, reporting progress after each, and maps refusals to their lines', async () => {
    const seen: number[] = [];
    const validate: ValidateBatch = vi.fn(async (records) => {
      seen.push(records.length);
      // The second batch refuses its records 3 and 999; the others none.
      return seen.length === 2 ? [{ index: 3, message: 'Invalid field: x' }, { index: 999, message: 'Missing value for required field: name' }] : [];
    });
    const progress: number[] = [];
    const rejected = await checkRows(rowsOf(2500), validate, (checked) => progress.push(checked));
    expect(seen).toEqual([1000, 1000, 500]);
    expect(progress).toEqual([1000, 2000, 2500]);
    // Batch 2 starts at row 1000, on line 1002.
    expect(rejected).toEqual([
      { line: 1005, reason: 'Invalid field: x' },
      { line: 2001, reason: 'Missing value for required field: name' },
    ]);
  });

  it("leaves out the keys it is told (new fields' placeholders) without changing the rows", async () => {
    const rows: PendingRow[] = [{ line: 2, data: { name: 'Ada', '\u00000': 'red' } }];
    const sent: unknown[] = [];
    await checkRows(rows, async (records) => (sent.push(...records), []), () => undefined, new Set(['\u00000']));
    expect(sent).toEqual([{ data: { name: 'Ada' } }]);
    expect(rows[0].data).toEqual({ name: 'Ada', '\u00000': 'red' });
  });

  it('throws when the check fails or names a record the batch does not have', async () => {
    await expect(checkRows(rowsOf(3), async () => Promise.reject(new Error('network down')), () => undefined)).rejects.toThrow('network down');
    await expect(checkRows(rowsOf(3), async () => [{ index: 3, message: 'x' }], () => undefined)).rejects.toThrow('the check named record 3 of a batch of 3');
  });
});

describe('sendRows', () => {
  it('writes 1,000 rows a batch, in order, and keeps them all', async () => {
    let next = 1;
    answer = (_path, body) => ({ data: body.records.map(() => ({ id: next++ })) });
    const progress: number[] = [];
    expect(await sendRows(7, rowsOf(1500), (sent) => progress.push(sent))).toEqual({ imported: 1500, leftOver: 0 });
    expect(calls.map((call) => [call.path, call.body.records.length])).toEqual([
      ['/api/table/{tid}/records/create_batch', 1000],
      ['/api/table/{tid}/records/create_batch', 500],
    ]);
    expect(progress).toEqual([1000, 1500]);
  });

  it('takes back what was written when a row is refused while writing, naming its line', async () => {
    let next = 1;
    answer = (path, body) => {
      if (path.endsWith('/delete_batch')) return { data: { deleted: body.record_ids, not_found: [] } };
      if (calls.length === 2) return { error: { status: 400, message: 'records[4]: Invalid value for field amount: expected a number, got "x"' } };
      return { data: body.records.map(() => ({ id: next++ })) };
    };
    const result = await sendRows(7, rowsOf(1500), () => undefined);
    expect(result).toEqual({
      imported: 0,
      leftOver: 0,
      refused: { line: 1006, reason: 'Invalid value for field amount: expected a number, got "x"' },
      failure: 'line 1006 was refused while writing (the table may have changed since the check): Invalid value for field amount: expected a number, got "x"',
    });
    const deleted = calls.filter((call) => call.path.endsWith('/delete_batch'));
    expect(deleted.map((call) => call.body.record_ids.length)).toEqual([1000]);
    expect(deleted[0].body.record_ids[0]).toBe(1);
  });

  it('after a failure that is no refusal (the network), takes back what was written and reports what it could not', async () => {
    let next = 1;
    answer = (path, body) => {
      if (path.endsWith('/delete_batch')) return { error: { status: 503, message: 'Service Unavailable' } };
      if (calls.length === 3) return { error: { status: 503, message: 'Service Unavailable' } };
      return { data: body.records.map(() => ({ id: next++ })) };
    };
    const result = await sendRows(7, rowsOf(2500), () => undefined);
    expect(result).toEqual({ imported: 2000, leftOver: 2000, refused: undefined, failure: 'Service Unavailable' });
  });
});
