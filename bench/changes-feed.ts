import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRssMb, startProcess, stopProcess } from './processes.js';
import { adminQuery, callApi, databaseUrlOf } from './bench-api.js';

/**
 * The live feed, measured (issue 27): a `tabula serve` process (the built dist/) on a fresh
 * database; N subscribers of one table's `changes/stream`, held by this process.
 *   - latency: a change reaches every subscriber; from the write's request to each arrival, p50/p99
 *   - burst: 10 create_batch of 1,000 records; until one subscriber has all 10,000 changes
 *   - memory: the server's RSS with the subscribers open and idle
 * Prints figures; asserts nothing. `npm run bench:feed -- --db postgres --subscribers 1000`.
 */

const { values: options } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    subscribers: { type: 'string', default: '1000' },
    writes: { type: 'string', default: '20' },
  },
});
const engine = options.db === 'postgres' ? 'postgres' : 'sqlite';
const subscriberCount = Number(options.subscribers);
const log = (message: string) => console.error(`[feed bench] ${message}`);

/** One subscriber: counts changes as they come and notes when each seq arrived. */
class Subscriber {
  count = 0;
  readonly arrivals = new Map<number, number>();
  private pending = '';
  response: http.IncomingMessage | undefined;

  open(base: string, key: string, tableId: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${base}/api/table/${tableId}/changes/stream`, { agent: false, headers: { authorization: `Bearer ${key}` } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream: ${response.statusCode}`));
        this.response = response;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => this.receive(chunk));
        resolve();
      });
      req.on('error', reject);
    });
  }

  private receive(chunk: string): void {
    const now = performance.now();
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n\n')) >= 0) {
      const block = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      if (!block.startsWith('id: ')) continue;
      this.count += 1;
      this.arrivals.set(Number(block.slice(4, block.indexOf('\n'))), now);
    }
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const until = async (test: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-feed-bench-'));
  const databaseName = `tabula_feed_bench_${process.pid}`;
  const dbEnv: Record<string, string> = {};
  if (engine === 'postgres') {
    await adminQuery(`create database ${databaseName}`);
    dbEnv.DATABASE_URL = databaseUrlOf(databaseName);
  }
  const { child, url: base } = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--data', dataDir], {
    ...dbEnv,
    TABULA_RATE_LIMIT_PER_MINUTE: '1000000000',
    TABULA_STREAMS_PER_KEY: String(subscriberCount + 10),
    LOG_LEVEL: 'warn',
  });
  const subscribers: Subscriber[] = [];
  try {
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8')).api_key as string;
    const space = await callApi(base, key, 'POST', '/api/spaces/create', { name: 'Feed bench' });
    const table = await callApi(base, key, 'POST', `/api/space/${space.id}/tables/create`, { name: 'Live', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'amount', name: 'Amount', type: 'number' }] });
    const rssBefore = readRssMb(child.pid!);

    log(`opening ${subscriberCount} subscribers on ${engine}…`);
    for (let start = 0; start < subscriberCount; start += 100) {
      const batch = Array.from({ length: Math.min(100, subscriberCount - start) }, () => new Subscriber());
      await Promise.all(batch.map((subscriber) => subscriber.open(base, key, table.id)));
      subscribers.push(...batch);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssIdle = readRssMb(child.pid!);

    log('latency of single writes…');
    const latencies: number[] = [];
    const afterAnswer: number[] = [];
    const writeTimes: number[] = [];
    for (let i = 0; i < Number(options.writes); i += 1) {
      const sent = performance.now();
      const created = await callApi(base, key, 'POST', `/api/table/${table.id}/records/create`, { data: { name: `r${i}`, amount: i } });
      const answered = performance.now();
      writeTimes.push(answered - sent);
      const history = await callApi(base, key, 'POST', `/api/table/${table.id}/record/${created.id}/history`, {});
      const seq = history[0].seq as number;
      await until(() => subscribers.every((subscriber) => subscriber.arrivals.has(seq)), 10_000);
      for (const subscriber of subscribers) {
        latencies.push(subscriber.arrivals.get(seq)! - sent);
        afterAnswer.push(subscriber.arrivals.get(seq)! - answered);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.sort((a, b) => a - b);
    afterAnswer.sort((a, b) => a - b);
    writeTimes.sort((a, b) => a - b);

    // The burst to one subscriber: the others close first (they would share the same work).
    for (const subscriber of subscribers.splice(1)) subscriber.response?.destroy();
    const burst = subscribers[0];
    const before = burst.count;
    const records = Array.from({ length: 1000 }, (_, i) => ({ data: { name: `batch ${i}`, amount: i } }));
    const burstStart = performance.now();
    let lastWriteDone = 0;
    for (let batch = 0; batch < 10; batch += 1) await callApi(base, key, 'POST', `/api/table/${table.id}/records/create_batch`, { records });
    lastWriteDone = performance.now();
    await until(() => burst.count - before >= 10_000, 60_000);
    const burstEnd = performance.now();

    const rows = [
      ['engine', engine],
      ['subscribers', String(subscriberCount)],
      ['server RSS before streams (MB)', rssBefore.toFixed(0)],
      [`server RSS with ${subscriberCount} idle streams (MB)`, rssIdle.toFixed(0)],
      [`latency write → all ${subscriberCount} subscribers, p50 (ms)`, percentile(latencies, 50).toFixed(1)],
      [`latency write → all ${subscriberCount} subscribers, p99 (ms)`, percentile(latencies, 99).toFixed(1)],
      ['latency max (ms)', latencies[latencies.length - 1].toFixed(1)],
      ['the write itself (records/create answered), p50 (ms)', percentile(writeTimes, 50).toFixed(1)],
      ['latency after the write answered → all subscribers, p50 (ms)', percentile(afterAnswer, 50).toFixed(1)],
      ['latency after the write answered → all subscribers, p99 (ms)', percentile(afterAnswer, 99).toFixed(1)],
      ['10 × create_batch of 1,000: writes done (ms)', (lastWriteDone - burstStart).toFixed(0)],
      ['… all 10,000 changes streamed to a subscriber (ms, from the first write)', (burstEnd - burstStart).toFixed(0)],
      ['… after the last write answered (ms)', (burstEnd - lastWriteDone).toFixed(0)],
    ];
    console.log(`\nLive feed (${engine})`);
    for (const [name, value] of rows) console.log(`  ${name.padEnd(72)} ${value}`);
  } finally {
    for (const subscriber of subscribers) subscriber.response?.destroy();
    await stopProcess(child);
    if (engine === 'postgres') await adminQuery(`drop database if exists ${databaseName} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
