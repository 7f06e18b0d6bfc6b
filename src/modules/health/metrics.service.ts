import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { queryGateOccupancy } from '../../db/query-gate.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { recordSearchOf } from '../records/search/index.js';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.js';

/** Changes counted per webhook for the backlog gauge: past this, the figure says "at least". */
const backlogCap = 1_000_000;

/**
 * The Prometheus metrics of one process (`TABULA_METRICS=on`), in a registry of its own (never
 * prom-client's global one: tests build many apps in one process). Requests are counted by the
 * route's pattern (`/api/table/:tid/records/query`), never the raw URL, so ids make no new series.
 * What the database knows (the change queue, the search index's backlog) is read at scrape time.
 */
export function createMetrics(deps: { database: Database; jobs: JobRunner; webhooks: Pick<WebhookDelivery, 'stats' | 'backlog'> }) {
  const registry = new Registry();
  // process_resident_memory_bytes, open descriptors, event loop lag, heap: prom-client's own.
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'tabula_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'tabula_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'tabula_query_slots_busy',
    help: 'Record-query slots of this process in use',
    registers: [registry],
    collect() {
      this.set(queryGateOccupancy().busy);
    },
  });
  new Gauge({
    name: 'tabula_query_slots_queued',
    help: 'Record queries of this process waiting for a slot',
    registers: [registry],
    collect() {
      this.set(queryGateOccupancy().queued);
    },
  });
  const { db } = deps.database;
  new Gauge({
    name: 'tabula_change_log_lag',
    help: 'Changes committed but not yet given a seq in the change log (PostgreSQL; always 0 on SQLite)',
    registers: [registry],
    async collect() {
      const row = await db.selectFrom('change_queue').select((eb) => eb.fn.sum<number | string | null>('change_count').as('count')).executeTakeFirst();
      this.set(Number(row?.count ?? 0));
    },
  });
  const search = recordSearchOf(deps.database.dialect.name);
  new Gauge({
    name: 'tabula_search_index_pending',
    help: "Records whose search text SQLite's search index does not hold yet (its catch-up's backlog; searches find them meanwhile); always 0 on PostgreSQL",
    registers: [registry],
    async collect() {
      this.set((await search.countPending?.(db)) ?? 0);
    },
  });
  new Counter({
    name: 'tabula_job_runs_total',
    help: 'Background job runs this process finished, by job and outcome (done, failed, handed back)',
    labelNames: ['job', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [job, counts] of Object.entries(deps.jobs.runCounts())) {
        // Index builds carry their table in the job name: counted together, so tables make no new series.
        const name = job.startsWith('index-build:') ? 'index-build' : job;
        this.inc({ job: name, outcome: 'done' }, counts.done);
        this.inc({ job: name, outcome: 'failed' }, counts.failed);
        this.inc({ job: name, outcome: 'handed back' }, counts.handedBack);
      }
    },
  });
  // Delivery: one read of the webhooks and their tables' pending changes serves the three gauges of a scrape.
  let backlog: ReturnType<WebhookDelivery['backlog']> | null = null;
  const readBacklog = () => (backlog ??= deps.webhooks.backlog(backlogCap).finally(() => setImmediate(() => (backlog = null))));
  new Gauge({
    name: 'tabula_webhooks',
    help: 'Webhooks by state: active (failing ones included), failing (active, retrying after a failed attempt), disabled',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const { active, failing, disabled } = await readBacklog();
      this.set({ state: 'active' }, active);
      this.set({ state: 'failing' }, failing);
      this.set({ state: 'disabled' }, disabled);
    },
  });
  new Gauge({
    name: 'tabula_webhook_backlog',
    help: `Changes of their tables that active webhooks have not yet gone past (delivered or skipped by their filters), summed over webhooks; each counted up to ${backlogCap}`,
    registers: [registry],
    async collect() {
      this.set((await readBacklog()).changes);
    },
  });
  new Gauge({
    name: 'tabula_webhook_backlog_oldest_seconds',
    help: 'Age of the oldest change an active webhook has not yet gone past; 0 when none waits',
    registers: [registry],
    async collect() {
      const { oldestAt } = await readBacklog();
      this.set(oldestAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(`${oldestAt.replace(' ', 'T')}Z`)) / 1000));
    },
  });
  new Counter({
    name: 'tabula_webhook_attempts_total',
    help: 'Webhook requests this process made, by outcome (succeeded: a 2xx in time; failed: anything else, retried or disabling)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      const { attempts } = deps.webhooks.stats();
      this.inc({ outcome: 'succeeded' }, attempts.succeeded);
      this.inc({ outcome: 'failed' }, attempts.failed);
    },
  });

  return {
    contentType: registry.contentType,
    /** One answered request: `route` is the pattern, or `unmatched` for a 404 no route took. */
    observeRequest(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    render: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
