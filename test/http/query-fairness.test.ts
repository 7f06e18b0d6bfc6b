import { describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createTable, type Response, type World } from '../factories.js';
import { fillTable } from '../fill-table.js';

/**
 * Record queries share a few slots (db/query-gate.ts). On a small pool (one query per account,
 * one slot more for the others) and a short budget, the issue-26 shape: one account's heavy
 * queries (1,000 OR-ed `contains` over 50,000 records, each running until the budget stops it)
 * and light queries (`records/query {}` on a one-record table).
 */
const budgetMs = 3000;
const ctx = useTestApp({ env: { TABULA_QUERY_CONCURRENCY: '1', TABULA_QUERY_TIMEOUT: `${budgetMs}ms`, TABULA_QUERY_QUEUE_TIMEOUT: '60s' } });

const heavyFilters = Array.from({ length: 1000 }, (_, i) => ({ column: 'label', compare: 'C', value: `zz${i}q`, connector: 'OR' }));

/** A request still in flight, and whether it has answered yet. */
function inFlight(request: Promise<Response>) {
  const state = { answered: false, response: request };
  void request.then(() => (state.answered = true));
  return state;
}

/** Long enough for requests sent just before to reach their query slot (or the queue). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function smallTable(world: World) {
  const table = await createTable(ctx, world, (await createSpace(ctx, world)).id, { name: 'Small', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
  expect((await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: world.accountKey, body: { data: { label: 'only' } } })).status).toBe(200);
  return table.id;
}

describe('query slots shared fairly between tenants', () => {
  it("serves another account's light query while one account's heavy queries hold every slot it may take", async () => {
    const heavyAccount = await createAccount(ctx);
    const big = await createTable(ctx, heavyAccount, (await createSpace(ctx, heavyAccount)).id, { name: 'Big', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    await fillTable(ctx, big.id, 'label', 50_000);
    const lightAccount = await createAccount(ctx);
    const lightTableId = await smallTable(lightAccount);

    const heavy = [0, 1].map(() => inFlight(call(ctx, 'POST', `/api/table/${big.id}/records/query`, { key: heavyAccount.accountKey, body: { filters: heavyFilters } })));
    await settle();
    const light = await call(ctx, 'POST', `/api/table/${lightTableId}/records/query`, { key: lightAccount.accountKey, body: {} });
    expect(light.status).toBe(200);
    expect(light.body).toHaveLength(1);
    // Answered while both heavy queries were still running or waiting, not after one of them.
    expect(heavy.map((request) => request.answered)).toEqual([false, false]);
    for (const request of heavy) expect((await request.response).body.error?.code).toBe('query_timeout');
  }, 60_000);

  it("a query's wait for its slot does not count against its budget: queued behind a query that ran out the budget, it still gets all of its own", async () => {
    const account = await createAccount(ctx);
    const space = (await createSpace(ctx, account)).id;
    const big = await createTable(ctx, account, space, { name: 'Big', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    await fillTable(ctx, big.id, 'label', 50_000);
    // A medium query: about half the budget on this machine now, whatever its load (measured, not asserted).
    const sample = await createTable(ctx, account, space, { name: 'Sample', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    await fillTable(ctx, sample.id, 'label', 1000);
    const startedAt = performance.now();
    expect((await call(ctx, 'POST', `/api/table/${sample.id}/records/count`, { key: account.accountKey, body: { filters: heavyFilters } })).status).toBe(200);
    const rows = Math.round(Math.min(50_000, Math.max(500, (1000 * (budgetMs / 2)) / (performance.now() - startedAt))));
    const medium = await createTable(ctx, account, space, { name: 'Medium', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    await fillTable(ctx, medium.id, 'label', rows);

    const heavy = inFlight(call(ctx, 'POST', `/api/table/${big.id}/records/count`, { key: account.accountKey, body: { filters: heavyFilters } }));
    await settle();
    // Behind the heavy query of its own key, it waits almost a whole budget, then runs for about half of one.
    const answer = await call(ctx, 'POST', `/api/table/${medium.id}/records/count`, { key: account.accountKey, body: { filters: heavyFilters } });
    expect(heavy.answered).toBe(true);
    expect((await heavy.response).body.error?.code).toBe('query_timeout');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ count: 0, total: rows });
  }, 60_000);

  it("shares an account's slots between its keys: a second key's light query waits for at most one heavy query, not for the first key's queue", async () => {
    const account = await createAccount(ctx);
    const big = await createTable(ctx, account, (await createSpace(ctx, account)).id, { name: 'Big', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    await fillTable(ctx, big.id, 'label', 50_000);
    const lightTableId = await smallTable(account);
    const otherKey = (await createKey(ctx, { accountId: account.accountId })).key;

    const heavy = [0, 1, 2].map(() => inFlight(call(ctx, 'POST', `/api/table/${big.id}/records/query`, { key: account.accountKey, body: { filters: heavyFilters } })));
    await settle();
    const light = await call(ctx, 'POST', `/api/table/${lightTableId}/records/query`, { key: otherKey, body: {} });
    expect(light.status).toBe(200);
    // One heavy query ended and freed the account's slot; the other key took it before the first key's queue.
    // (Which of the three ran first depends on how the requests reached the gate.)
    expect(heavy.filter((request) => request.answered)).toHaveLength(1);
    await Promise.all(heavy.map((request) => request.response));
  }, 60_000);
});
