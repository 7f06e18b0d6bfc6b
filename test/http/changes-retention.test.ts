import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * Retention of the change log (CONTRACT section 7: the log keeps at least TABULA_CHANGES_DAYS
 * of changes), on an injectable clock: old changes go in batches, the purge mark moves up to
 * the last one removed, recent changes stay.
 */

const dayMs = 24 * 3600 * 1000;

describe('change log retention', () => {
  let nowMs = Date.parse('2026-03-01T08:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) }, env: { TABULA_CHANGES_DAYS: '30' } });
  let world: World;
  let tableId: number;

  const post = (url: string, body: unknown = {}) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const seqs = async (after = 0): Promise<number[]> => {
    const response = await post(`/api/table/${tableId}/changes/list`, { after, limit: 1000 });
    expect(response.status).toBe(200);
    return response.body.changes.map((change: { seq: number }) => change.seq);
  };
  const purgedThrough = async () => Number((await ctx.container.database.db.selectFrom('change_log_state').select('purged_through').where('id', '=', 1).executeTakeFirstOrThrow()).purged_through);

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Retention')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Kept', fields: [{ id: 'n', name: 'N', type: 'number' }] })).id;
  });

  it('removes the changes older than TABULA_CHANGES_DAYS in batches, moves purged_through up, keeps the recent ones', async () => {
    const { changes } = ctx.container.services;
    // Five changes on day 0, two on day 20.
    const old = (await post(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: 4 }, (_, n) => ({ data: { n } })) })).body as Array<{ id: number }>;
    await post(`/api/table/${tableId}/record/${old[0].id}/update`, { data: { n: 100 } });
    const oldSeqs = await seqs();
    expect(oldSeqs).toHaveLength(5);
    nowMs += 20 * dayMs;
    await post(`/api/table/${tableId}/records/create`, { data: { n: 5 } });
    await post(`/api/table/${tableId}/record/${old[1].id}/update`, { data: { n: 101 } });
    const recentSeqs = (await seqs()).slice(5);
    expect(recentSeqs).toHaveLength(2);

    // Day 29: nothing is 30 days old yet.
    nowMs += 9 * dayMs;
    expect(await changes.purgeExpired()).toEqual({ purged: 0, purgedThrough: 0 });
    expect(await seqs()).toEqual([...oldSeqs, ...recentSeqs]);

    // Day 31: the day-0 changes go, two per batch; the day-20 ones stay.
    nowMs += 2 * dayMs;
    expect(await changes.purgeExpired(undefined, 2)).toEqual({ purged: 5, purgedThrough: oldSeqs[4] });
    expect(await purgedThrough()).toBe(oldSeqs[4]);
    expect(await seqs()).toEqual(recentSeqs);
    // A record's history keeps what is left of it.
    const history = await post(`/api/table/${tableId}/record/${old[1].id}/history`);
    expect(history.body.map((change: { seq: number }) => change.seq)).toEqual([recentSeqs[1]]);

    // Run again: nothing more, and the mark stays.
    expect(await changes.purgeExpired()).toEqual({ purged: 0, purgedThrough: oldSeqs[4] });
    // An explicit moment: as of day 51, the day-20 changes are 31 days old.
    expect(await changes.purgeExpired(new Date(nowMs + 20 * dayMs))).toEqual({ purged: 2, purgedThrough: recentSeqs[1] });
    expect(await seqs()).toEqual([]);
  });

  it('several purges at once remove each change once, and the mark only moves up', async () => {
    const { changes } = ctx.container.services;
    const start = await purgedThrough();
    await post(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: 30 }, (_, n) => ({ data: { n } })) });
    const created = await seqs(start);
    expect(created).toHaveLength(30);
    nowMs += 31 * dayMs;
    // On PostgreSQL these run on separate connections: the DELETE of a batch takes it once.
    const reports = await Promise.all([changes.purgeExpired(undefined, 4), changes.purgeExpired(undefined, 4), changes.purgeExpired(undefined, 7)]);
    // One purge may stop early when another took its batch; whatever is left goes on the next run.
    const last = await changes.purgeExpired(undefined, 4);
    expect(reports.reduce((sum, report) => sum + report.purged, 0) + last.purged).toBe(30);
    expect(last.purgedThrough).toBe(created[29]);
    expect(await seqs()).toEqual([]);
  });
});
