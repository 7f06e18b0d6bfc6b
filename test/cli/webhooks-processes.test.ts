import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test-database.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';
import { buildTimeout, createCli, ensureBuilt, type Cli, type Server } from './run-cli.js';

/**
 * Webhooks delivered by real `tabula serve` processes (CONTRACT §7): a process killed in the
 * middle of a delivery loses nothing (its lease runs out and another process retries), and
 * on PostgreSQL two processes sharing the work deliver each change once. On SQLite one process
 * serves at a time: the one started after the killed one takes over.
 */

describe('webhooks across tabula serve processes', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let key: string;
  let tableId: number;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // A lease of 3 s (a 1 s answer budget + 2 s), retries after 100 ms.
    cli = await createCli({ env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1', TABULA_WEBHOOK_TIMEOUT: '1s', TABULA_WEBHOOK_LEASE: '1s', TABULA_WEBHOOK_RETRY_SCHEDULE: '100ms', TABULA_PURGE_INTERVAL: '0s', TABULA_RECLAIM_INTERVAL: '0s' } });
    key = (await cli.json('init', '--email', 'owner@example.com', '--json')).api_key;
  }, 120_000);
  afterAll(async () => {
    await cli?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }, 60_000);

  const post = async (server: Server, url: string, body: unknown = {}) => {
    const response = await server.request('POST', url, { key, body });
    expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  };

  it('a process killed mid-delivery loses nothing; each change is answered 2xx exactly once per webhook, in order', { timeout: 120_000 }, async () => {
    const victim = await cli.startServer();
    const space = await post(victim, '/api/spaces/create', { name: 'Hooks' });
    tableId = (await post(victim, `/api/space/${space.id}/tables/create`, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;

    // The first receiver never answers the first request for the third change: the victim dies holding it.
    let held: string | null = null;
    let arrivedHeld!: () => void;
    const heldArrived = new Promise<void>((resolve) => (arrivedHeld = resolve));
    let thirdSeq = 0;
    const hung = await startReceiver((request, index) => {
      if (index === 2 && held === null) {
        held = String(request.headers['webhook-id']);
        thirdSeq = request.message.data.seq;
        arrivedHeld();
        return { status: 200, wait: new Promise(() => undefined) };
      }
      return { status: 200 };
    });
    receivers.push(hung, await startReceiver(), await startReceiver());
    const hooks: number[] = [];
    for (const receiver of receivers) hooks.push((await post(victim, `/api/table/${tableId}/webhooks/create`, { url: receiver.url })).id);
    for (let i = 1; i <= 5; i++) await post(victim, `/api/table/${tableId}/records/create`, { data: { name: `victim ${i}` } });
    await heldArrived;
    // The other webhooks are done with these five (a process killed between a 2xx and its record
    // sends that change again: at least once), so every duplicate below would be a double delivery.
    // The hung one's first two are logged as well (successes are written in batches, within 50 ms).
    for (const [index, hook] of hooks.entries()) {
      await expect.poll(async () => (await post(victim, `/api/webhook/${hook}/deliveries`, {})).filter((entry: { status: string }) => entry.status === 'succeeded').length, { timeout: 20_000 }).toBe(index === 0 ? 2 : 5);
    }
    process.kill(victim.pid, 'SIGKILL');
    await victim.stop();

    // PostgreSQL: two processes share the rest; SQLite: one.
    const survivors = [await cli.startServer(), ...(testEngine === 'postgres' ? [await cli.startServer()] : [])];
    for (let i = 1; i <= 20; i++) await post(survivors[i % survivors.length], `/api/table/${tableId}/records/create`, { data: { name: `survivor ${i}` } });
    for (const receiver of receivers) await receiver.waitFor(receiver === hung ? 26 : 25, 60_000);

    for (const receiver of receivers) {
      // The held request (the hung receiver's third) was never answered.
      const answered = receiver.received.filter((_request, index) => receiver !== hung || index !== 2);
      const ids = answered.map((request) => String(request.headers['webhook-id']));
      // Exactly once per change (the held request was never answered), all 25, in seq order.
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(25);
      const seqs = answered.map((request) => request.message.data.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    // The killed process's change came again from a survivor, after the lease ran out.
    const again = hung.received.filter((request) => String(request.headers['webhook-id']) === held);
    expect(again).toHaveLength(2);
    expect(again[1].message.data.seq).toBe(thirdSeq);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hung.received).toHaveLength(26);
  });
});
