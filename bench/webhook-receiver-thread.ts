import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';

/**
 * The webhooks bench's receiver, on a thread of its own: at ten webhooks it answers ten
 * requests per write, which on the load generator's event loop would slow the writers it is
 * meant to measure. Arrivals (path, seq, wall-clock ms) are posted to the bench in batches.
 */
let batch: Array<[string, number, number]> = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const seq = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { seq: number } }).data.seq;
    batch.push([req.url ?? '/', seq, at]);
    res.writeHead(204).end();
  });
});
setInterval(() => {
  if (batch.length === 0) return;
  parentPort!.postMessage({ arrivals: batch });
  batch = [];
}, 2);
server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ port: (server.address() as AddressInfo).port }));
