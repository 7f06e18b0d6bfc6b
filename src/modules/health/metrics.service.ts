import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { queryGateOccupancy } from '../../db/query-gate.js';
import type { JobRunner } from '../jobs/job-runner.js';

/**
 * The Prometheus metrics of one process (`TABULA_METRICS=on`), in a registry of its own (never
 * prom-client's global one: tests build many apps in one process). Requests are counted by the
 * route's pattern (`/api/table/:tid/records/query`), never the raw URL, so ids make no new series.
 * What the database knows (the change queue) is read at scrape time.
 */
export function createMetrics(deps: { database: Database; jobs: JobRunner }) {
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
      const row = await db.selectFrom('change_queue').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst();
      this.set(Number(row?.count ?? 0));
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
