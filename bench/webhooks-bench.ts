import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { startProcess, stopProcess } from './processes.js';
import { adminQuery, callApi, databaseUrlOf } from './bench-api.js';

const request = (base: string, key: string, url: string, body: unknown = {}) => callApi(base, key, 'POST', url, body);

/**
 * Webhook delivery, measured (issue 30): a `tabula serve` process (the built dist/) on a fresh
 * database, a receiver on a thread of this process on 127.0.0.1.
 *   - idle latency: single writes, from the write's answer (≈ its commit) to the receiver, p50/p99
 *   - burst: 10 create_batch of 1,000 records; until one webhook has all 10,000, in order
 *   - fan-out: 100 webhooks on one table, one change; until all 100 have it
 *   - write throughput: concurrent records/create with 10 active webhooks vs none, and how much
 *     of the delivering had been done when the writers stopped (writes are not all it costs)
 * Prints figures; asserts nothing. `npm run bench:webhooks -- --db postgres`.
 */

const { values: options } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, writes: { type: 'string', default: '30' }, seconds: { type: 'string', default: '5' } } });
const engine = options.db === 'postgres' ? 'postgres' : 'sqlite';
const log = (message: string) => console.error(`[webhooks bench] ${message}`);

/** One receiver for every webhook, on its own thread (webhook-receiver-thread.ts): arrivals by path, each with its seq and time (`now()`). */
async function startReceiver() {
  const arrivals = new Map<string, Array<{ seq: number; at: number }>>();
  const thread = new Worker(new URL('./webhook-receiver-thread.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve, reject) => {
    thread.on('message', (message: { port?: number; arrivals?: Array<[string, number, number]> }) => {
      if (message.port) resolve(message.port);
      for (const [pathname, seq, at] of message.arrivals ?? []) {
        const list = arrivals.get(pathname) ?? [];
        list.push({ seq, at });
        arrivals.set(pathname, list);
      }
    });
    thread.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, arrivals, close: () => thread.terminate() };
}

/** Wall-clock milliseconds, as the receiver's thread stamps its arrivals. */
const now = () => performance.timeOrigin + performance.now();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const until = async (test: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

/** Creates records with 8 concurrent clients for `seconds`; answers writes per second. */
async function writeThroughput(base: string, key: string, tableId: number, seconds: number): Promise<number> {
  let count = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 8 }, async (_, client) => {
      while (performance.now() < end) {
        await request(base, key, `/api/table/${tableId}/records/create`, { data: { name: `t${client}-${count}`, amount: count } });
        count += 1;
      }
    }),
  );
  return count / seconds;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-webhooks-bench-'));
  const databaseName = `tabula_webhooks_bench_${process.pid}`;
  const dbEnv: Record<string, string> = {};
  if (engine === 'postgres') {
    await adminQuery(`create database ${databaseName}`);
    dbEnv.DATABASE_URL = databaseUrlOf(databaseName);
  }
  const receiver = await startReceiver();
  const { child, url: base } = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--data', dataDir], {
    ...dbEnv,
    TABULA_RATE_LIMIT_PER_MINUTE: '1000000000',
    TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  try {
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8')).api_key as string;
    const space = await request(base, key, '/api/spaces/create', { name: 'Webhooks bench' });
    const fields = [{ id: 'name', name: 'Name', type: 'text' }, { id: 'amount', name: 'Amount', type: 'number' }];
    const table = await request(base, key, `/api/space/${space.id}/tables/create`, { name: 'Hooked', fields });
    const seconds = Number(options.seconds);
    const hook = async (tableId: number, pathname: string) => (await request(base, key, `/api/table/${tableId}/webhooks/create`, { url: `${receiver.url}${pathname}` })).id as number;

    log('write throughput without webhooks…');
    await writeThroughput(base, key, table.id, 1);
    const without = await writeThroughput(base, key, table.id, seconds);
    log('write throughput with 10 webhooks…');
    const ten: number[] = [];
    for (let i = 0; i < 10; i += 1) ten.push(await hook(table.id, `/ten/${i}`));
    const withTen = await writeThroughput(base, key, table.id, seconds);
    // Whether delivery kept up: requests the receiver had from the ten when the writers stopped (they are deleted next).
    const tenDelivered = ten.reduce((sum, _, i) => sum + (receiver.arrivals.get(`/ten/${i}`)?.length ?? 0), 0);
    for (const id of ten) await request(base, key, `/api/webhook/${id}/delete`);

    log('idle latency…');
    const quiet = (await request(base, key, `/api/space/${space.id}/tables/create`, { name: 'Quiet', fields })).id as number;
    await hook(quiet, '/idle');
    const latencies: number[] = [];
    for (let i = 0; i < Number(options.writes); i += 1) {
      const created = await request(base, key, `/api/table/${quiet}/records/create`, { data: { name: `r${i}` } });
      const answered = now();
      await until(() => (receiver.arrivals.get('/idle')?.length ?? 0) > i, 10_000);
      latencies.push(receiver.arrivals.get('/idle')![i].at - answered);
      void created;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.sort((a, b) => a - b);

    log('burst of 10 × 1,000…');
    const bursty = (await request(base, key, `/api/space/${space.id}/tables/create`, { name: 'Bursty', fields })).id as number;
    await hook(bursty, '/burst');
    const records = Array.from({ length: 1000 }, (_, i) => ({ data: { name: `batch ${i}`, amount: i } }));
    const burstStart = now();
    for (let batch = 0; batch < 10; batch += 1) await request(base, key, `/api/table/${bursty}/records/create_batch`, { records });
    const burstWritten = now();
    await until(() => (receiver.arrivals.get('/burst')?.length ?? 0) >= 10_000, 120_000);
    const burstEnd = now();
    const burstSeqs = receiver.arrivals.get('/burst')!.map((arrival) => arrival.seq);
    const inOrder = burstSeqs.every((seq, i) => i === 0 || seq > burstSeqs[i - 1]);

    log('fan-out to 100 webhooks…');
    const wide = (await request(base, key, `/api/space/${space.id}/tables/create`, { name: 'Wide', fields })).id as number;
    for (let i = 0; i < 100; i += 1) await hook(wide, `/wide/${i}`);
    await request(base, key, `/api/table/${wide}/records/create`, { data: { name: 'one' } });
    const fanAnswered = now();
    await until(() => Array.from({ length: 100 }, (_, i) => receiver.arrivals.get(`/wide/${i}`)?.length ?? 0).every((n) => n >= 1), 30_000);
    const fanEnd = Math.max(...Array.from({ length: 100 }, (_, i) => receiver.arrivals.get(`/wide/${i}`)![0].at));

    const rows = [
      ['engine', engine],
      [`idle: write answered → delivered, p50 of ${latencies.length} (ms)`, percentile(latencies, 50).toFixed(1)],
      ['idle: write answered → delivered, p99 (ms)', percentile(latencies, 99).toFixed(1)],
      ['10 × create_batch of 1,000: writes done (ms)', (burstWritten - burstStart).toFixed(0)],
      ['… all 10,000 delivered to one webhook (ms, from the first write)', (burstEnd - burstStart).toFixed(0)],
      ['… delivered in seq order', inOrder ? 'yes' : 'NO'],
      ['100 webhooks on one table: write answered → all 100 delivered (ms)', (fanEnd - fanAnswered).toFixed(0)],
      [`records/create per second, 8 clients, no webhook`, without.toFixed(0)],
      [`records/create per second, 8 clients, 10 active webhooks`, withTen.toFixed(0)],
      ['… with 10 webhooks / without', `${((withTen / without) * 100).toFixed(0)}%`],
      ['… of the 10 × writes, delivered by the time the writers stopped', `${((tenDelivered / (withTen * seconds * 10)) * 100).toFixed(0)}%`],
    ];
    console.log(`\nWebhooks (${engine}; a shared 2-core machine: figures are noisy)`);
    for (const [name, value] of rows) console.log(`  ${name.padEnd(72)} ${value}`);
  } finally {
    await stopProcess(child);
    receiver.close();
    if (engine === 'postgres') await adminQuery(`drop database if exists ${databaseName} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
