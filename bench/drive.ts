import autocannon from 'autocannon';

/** What one shape measured on one side: requests/s, latency percentiles (ms), failed requests. */
export interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** What the errors were: each status other than 2xx, timeouts and other connection errors, with their counts ('' when none). */
  failures: string;
}

export type NextRequest = () => { method: 'GET' | 'POST'; path: string; body?: unknown };

/**
 * An autocannon driver with `defaultClients` connections: drives `url` for `seconds`, or when
 * `amount` is given, for exactly that many requests, timed to the last answer.
 */
export function makeDrive(defaultClients: number) {
  return async function drive(url: string, seconds: number, next: NextRequest, headers: Record<string, string>, amount?: number, clients = defaultClients) {
    return autocannon({
      url,
      connections: clients,
      // Heavy queries may run their whole time budget (10 s) before answering.
      timeout: 30,
      ...(amount === undefined ? { duration: seconds } : { amount }),
      requests: [
        {
          setupRequest: (request: any) => {
            const { method, path: requestPath, body } = next();
            // A body given as text is sent as it is (the create-batch shape's, made once).
            const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
            return { ...request, method, path: requestPath, headers: { ...headers, 'content-type': 'application/json' }, body: payload };
          },
        },
      ],
    });
  };
}

/** Requests a second over a run of `duration` (a run of a fixed number of requests ends on autocannon's next one-second tick: its `duration` is rounded up). */
const rateOf = (result: autocannon.Result) => result.requests.total / Math.max(result.duration, 0.01);

/** Requests a second from the requests' own time: `clients` at a time, each taking the mean latency. */
const rateByLatency = (result: autocannon.Result, clients: number) => (clients * 1000) / Math.max(result.latency.mean, 0.1);

/**
 * Warms a side up until it runs as it will under measurement, and answers its rate in requests
 * a second (what a shape plans its slices by). Two whole rounds first (one request a
 * connection, each round waited for to the end): nothing is left running into what follows,
 * and the first request may fill a cache (a filtered count's first reading, the ids it follows
 * from: seconds on a million records). A side still under `slowRate` requests a second is warm
 * then. A faster one runs on for at least `minSeconds`, then in windows of a second while its
 * rate still rises by more than 5 % over its best window, up to `maxSeconds`: V8 optimises a
 * path once it has run a while, and a fresh server's cached count rose from 3,300 to 13,000 a
 * second over the five seconds after its cache filled, so a two-second warm-up left the first
 * measured slice at a quarter of the rest (docs/performance.md, session 45).
 */
export async function warmUp(drive: ReturnType<typeof makeDrive>, url: string, next: NextRequest, headers: Record<string, string>, options: { clients: number; minSeconds: number; maxSeconds: number }): Promise<number> {
  const { clients, minSeconds, maxSeconds } = options;
  const slowRate = 100;
  const started = Date.now();
  await drive(url, 0, next, headers, clients, clients);
  const round = await drive(url, 0, next, headers, clients, clients);
  if (rateByLatency(round, clients) < slowRate) return rateByLatency(round, clients);
  let best = rateOf(await drive(url, minSeconds, next, headers, undefined, clients));
  let last = best;
  while ((Date.now() - started) / 1000 < maxSeconds) {
    last = rateOf(await drive(url, 1, next, headers, undefined, clients));
    if (last <= best * 1.05) break;
    best = last;
  }
  return last;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Requests/s over all slices; p50 and p99 are the medians of the slices' own values. */
export function combine(results: autocannon.Result[]): Measurement {
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = results.reduce((sum, r) => sum + r.duration, 0);
  return {
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50: median(results.map((r) => r.latency.p50)),
    p99: median(results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    failures: describeFailures(results),
  };
}

/** `400 ×2, timeouts ×1`: the answers other than 2xx by status, then the requests that got none. */
function describeFailures(results: autocannon.Result[]): string {
  const counts = new Map<string, number>();
  const add = (kind: string, count: number) => count > 0 && counts.set(kind, (counts.get(kind) ?? 0) + count);
  for (const r of results) {
    for (const [status, { count }] of Object.entries(r.statusCodeStats ?? {})) if (!status.startsWith('2')) add(status, count ?? 0);
    add('timeouts', r.timeouts);
    add('connection errors', r.errors - r.timeouts);
  }
  return [...counts].map(([kind, count]) => `${kind} ×${count}`).join(', ');
}
