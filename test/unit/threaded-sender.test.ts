import { afterAll, describe, expect, it } from 'vitest';
import { parseAllowHosts } from '../../src/modules/files/address-policy.js';
import { createThreadedSender } from '../../src/modules/webhooks/threaded-sender.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';

/**
 * The threaded webhook sender on its real thread, against real receivers on 127.0.0.1: results
 * come back to the send they belong to, and the address policy holds on the thread.
 */
describe('threaded webhook sender', () => {
  const receivers: Receiver[] = [];
  const senders: Array<ReturnType<typeof createThreadedSender>> = [];
  const died: string[] = [];
  const sender = (allow: string) => {
    const made = createThreadedSender({ allowHosts: parseAllowHosts(allow), timeoutMs: 5_000, onDied: (why) => died.push(why) });
    senders.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(senders.map((made) => made.close()));
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it('many concurrent sends across several receivers each settle with their own answer', async () => {
    // Each receiver answers with a status of its own and the number the body carried.
    for (let r = 0; r < 4; r += 1) {
      receivers.push(await startReceiver((request) => ({ status: 200 + r, body: `${r}:${(request.message as unknown as { n: number }).n}` })));
    }
    const threaded = sender('127.0.0.1');
    const sends = Array.from({ length: 400 }, (_, n) => ({ n, r: (n * 7) % 4 }));
    // Sent in one turn (one batch to the thread), and again spread over turns.
    const first = await Promise.all(sends.map(({ n, r }) => threaded.send(receivers[r].url, { 'webhook-id': `msg_${n}` }, JSON.stringify({ n }))));
    const second = await Promise.all(sends.map(async ({ n, r }) => (await new Promise((resolve) => setTimeout(resolve, n % 5)), threaded.send(receivers[r].url, {}, JSON.stringify({ n })))));
    for (const results of [first, second]) {
      expect(results.map((result) => [result.status, result.body, result.error])).toEqual(sends.map(({ n, r }) => [200 + r, `${r}:${n}`, null]));
    }
    expect(receivers.reduce((sum, receiver) => sum + receiver.received.length, 0)).toBe(800);
  });

  it('refuses a private address on the thread when TABULA_FETCH_ALLOW_HOSTS does not name it', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const threaded = sender('');
    const [literal, named] = await Promise.all([threaded.send(receiver.url, {}, '{}'), threaded.send(`http://localhost:${receiver.port}/hook`, {}, '{}')]);
    expect(literal).toMatchObject({ status: null, error: `url http://127.0.0.1:${receiver.port} is a private address` });
    expect(named).toMatchObject({ status: null, error: expect.stringContaining('localhost resolves to a private address') });
    // The same receiver, allowed: the refusals above were the policy's.
    expect(await sender('127.0.0.1').send(receiver.url, {}, '{}')).toMatchObject({ status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('a thread that dies with sends in flight fails them, saying so, and the next send starts another', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startReceiver((_, index) => (index === 0 ? { status: 200, wait: held } : { status: 200 }));
    receivers.push(receiver);
    const threaded = sender('127.0.0.1');
    const inFlight = threaded.send(receiver.url, {}, '{"n":1}');
    await receiver.waitFor(1);
    await threaded.crashThreadForTest();
    expect(await inFlight).toMatchObject({ status: null, error: "the webhook sender's thread stopped (it exited with code 1); not known to be delivered" });
    expect(died).toEqual(['it exited with code 1']);
    release();
    expect(await threaded.send(receiver.url, {}, '{"n":2}')).toMatchObject({ status: 200, error: null });
    expect(receiver.received).toHaveLength(2);
  });

  it('close settles the sends in flight and refuses later ones', async () => {
    const receiver = await startReceiver(() => ({ status: 200, wait: new Promise(() => undefined) }));
    receivers.push(receiver);
    const threaded = sender('127.0.0.1');
    const inFlight = threaded.send(receiver.url, {}, '{"n":1}');
    await receiver.waitFor(1);
    await threaded.close();
    expect(await inFlight).toMatchObject({ status: null, error: 'the webhook sender was closed' });
    expect(await threaded.send(receiver.url, {}, '{"n":2}')).toMatchObject({ status: null, error: 'the webhook sender was closed' });
    expect(died).toEqual(['it exited with code 1']);
  });
});
