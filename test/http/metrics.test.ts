import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable } from '../factories.js';
import { startReceiver } from '../webhook-receiver.js';
import { testEngine } from '../test-database.js';

/** The value of one sample line (`name{labels} value`) of a Prometheus text answer, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics is off by default', () => {
  const ctx = useTestApp();

  it('answers 404 and counts nothing', async () => {
    expect((await call(ctx, 'GET', '/metrics')).status).toBe(404);
  });
});

describe('GET /metrics with TABULA_METRICS=on', () => {
  const ctx = useTestApp({ env: { TABULA_METRICS: 'on' } });

  it('counts a known set of requests by route pattern and status, with latency histograms, slots, change-log lag, job runs and RSS', async () => {
    const world = await createAccount(ctx);
    for (let index = 0; index < 3; index++) expect((await call(ctx, 'GET', '/healthz')).status).toBe(200);
    for (const id of [1, 2]) await call(ctx, 'GET', `/api/table/${1000 + id}/record/${id}/get`, { key: world.accountKey });
    expect((await call(ctx, 'GET', '/api/spaces/list', { key: world.accountKey })).status).toBe(200);
    expect((await call(ctx, 'GET', '/api/spaces/list')).status).toBe(401);
    expect((await call(ctx, 'GET', '/api/nothing/here')).status).toBe(404);
    await ctx.container.services.jobs.runIfDue('metrics-test-job', 60_000, async () => undefined);

    const response = await call(ctx, 'GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body as string;
    expect(sample(text, 'tabula_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(3);
    expect(sample(text, 'tabula_http_requests_total{method="GET",route="/api/spaces/list",status="200"}')).toBe(1);
    expect(sample(text, 'tabula_http_requests_total{method="GET",route="/api/spaces/list",status="401"}')).toBe(1);
    // Ids in the URL make no series of their own: both gets count under the route's pattern.
    expect(text).not.toContain('/api/table/1001');
    expect(text).toMatch(/tabula_http_requests_total\{method="GET",route="\/api\/table\/:tid\/record\/:rid\/get",status="\d+"\} 2/);
    expect(sample(text, 'tabula_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'tabula_http_request_duration_seconds_count{method="GET",route="/healthz"}')).toBe(3);
    expect(sample(text, 'tabula_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/healthz"}')).toBe(3);
    expect(sample(text, 'tabula_query_slots_busy')).toBe(0);
    expect(sample(text, 'tabula_query_slots_queued')).toBe(0);
    expect(sample(text, 'tabula_change_log_lag')).toBe(0);
    expect(sample(text, 'tabula_search_index_pending')).toBe(0);
    expect(sample(text, 'tabula_job_runs_total{job="metrics-test-job",outcome="done"}')).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('GET /metrics: the search index backlog', () => {
  const ctx = useTestApp({ env: { TABULA_METRICS: 'on' } });
  const backlog = async () => sample((await call(ctx, 'GET', '/metrics')).body as string, 'tabula_search_index_pending');

  it.runIf(testEngine === 'sqlite')('counts the records whose text the index does not hold yet, down to 0 once it caught up', async () => {
    const world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Backlog');
    const table = await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
    // 50,000 notes at once (of records without text: each costs the catch-up nothing but its note),
    // far more than the steps that can run before the scrape reads them: the backlog is seen.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 50000)
      insert into search_index_pending (table_name, id, indexed_text) select ${`rec_${table.id}`}, i, null from n`.execute(ctx.container.database.db);
    const seen = await backlog();
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(50_000);
    for (let waited = 0; (await backlog()) !== 0; waited += 20) {
      expect(waited, 'the catch-up left a backlog for 10 s').toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it.runIf(testEngine === 'postgres')('is always 0 on PostgreSQL, whose index takes each text in its write', async () => {
    expect(await backlog()).toBe(0);
  });
});

describe('GET /metrics with TABULA_METRICS_TOKEN', () => {
  const ctx = useTestApp({ env: { TABULA_METRICS: 'on', TABULA_METRICS_TOKEN: 'scrape-secret' } });

  it('answers only the bearer of the token (401 naming what it needs otherwise)', async () => {
    const refused = await call(ctx, 'GET', '/metrics', { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('TABULA_METRICS_TOKEN');
    expect((await call(ctx, 'GET', '/metrics')).status).toBe(401);
    const allowed = await call(ctx, 'GET', '/metrics', { headers: { authorization: 'Bearer scrape-secret' } });
    expect(allowed.status).toBe(200);
    expect(allowed.body as string).toContain('tabula_http_requests_total');
  });
});

describe('GET /metrics: webhook delivery', () => {
  const ctx = useTestApp({ env: { TABULA_METRICS: 'on', TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1' }, webhooks: { pollMs: 50, retry: { scheduleMs: [60_000], jitter: 0 } } });

  it('shows webhooks by state, the backlog and its age, and attempts by outcome', async () => {
    const world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Hooks');
    const table = await createTable(ctx, world, space.id, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
    const failing = await startReceiver(() => ({ status: 500 }));
    const working = await startReceiver();
    try {
      for (const target of [failing, working]) {
        expect((await call(ctx, 'POST', `/api/table/${table.id}/webhooks/create`, { key: world.accountKey, body: { url: target.url } })).status).toBe(200);
      }
      const off = await call(ctx, 'POST', `/api/table/${table.id}/webhooks/create`, { key: world.accountKey, body: { url: working.url } });
      expect((await call(ctx, 'POST', `/api/webhook/${off.body.id}/update`, { key: world.accountKey, body: { active: false } })).status).toBe(200);
      for (const name of ['one', 'two', 'three']) expect((await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: world.accountKey, body: { data: { name } } })).status).toBe(200);
      // The working receiver takes all three; the failing one is held at the first, its retry a minute away.
      await working.waitFor(3);
      await failing.waitFor(1);
      let text = '';
      for (let tries = 0; tries < 100; tries++) {
        text = (await call(ctx, 'GET', '/metrics')).body as string;
        // An attempt is counted when its answer is in (after the receiver saw the request).
        const settled = sample(text, 'tabula_webhook_attempts_total{outcome="succeeded"}') === 3 && sample(text, 'tabula_webhook_attempts_total{outcome="failed"}') === 1;
        if (settled && sample(text, 'tabula_webhook_backlog') === 3 && sample(text, 'tabula_webhooks{state="failing"}') === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(sample(text, 'tabula_webhooks{state="active"}')).toBe(2);
      expect(sample(text, 'tabula_webhooks{state="failing"}')).toBe(1);
      expect(sample(text, 'tabula_webhooks{state="disabled"}')).toBe(1);
      // The failing webhook has the three changes still to go through; the working one none.
      expect(sample(text, 'tabula_webhook_backlog')).toBe(3);
      expect(sample(text, 'tabula_webhook_backlog_oldest_seconds')).toBeGreaterThanOrEqual(0);
      expect(text).toMatch(/^tabula_webhook_backlog_oldest_seconds \d/m);
      expect(sample(text, 'tabula_webhook_attempts_total{outcome="succeeded"}')).toBe(3);
      expect(sample(text, 'tabula_webhook_attempts_total{outcome="failed"}')).toBe(1);
    } finally {
      await failing.close();
      await working.close();
    }
  });
});
