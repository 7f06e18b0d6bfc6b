import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: its headers, and its body exactly as sent. */
export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The parsed body: `{type, timestamp, data: change}`. */
  message: { type: string; timestamp: string; data: { seq: number; kind: string; record_id: number; fields: string[]; [key: string]: unknown } };
  path: string;
}

/** How the receiver answers one request: a status (and headers, a body), after an optional wait. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Holds the answer until this resolves (a slow or hung receiver). */
  wait?: Promise<unknown>;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers with
 * `answer(request, index)` (200 by default). `waitFor(n)` resolves once n requests arrived.
 */
export async function startReceiver(answer: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 200 })) {
  const received: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let respond = answer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = { headers: req.headers, body, message: JSON.parse(body || 'null'), path: req.url ?? '/' };
      const index = received.push(request) - 1;
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = respond(request, index);
      void Promise.resolve(reply.wait).then(() => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Seqs of the changes received, in arrival order. */
    seqs: () => received.map((request) => request.message.data.seq),
    answerWith(next: typeof answer) {
      respond = next;
    },
    waitFor(count: number, timeoutMs = 15_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
