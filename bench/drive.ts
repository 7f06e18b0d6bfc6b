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
