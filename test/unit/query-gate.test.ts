import { describe, expect, it } from 'vitest';
import { QueryGate, queryGateOccupancy, type QueryCaller } from '../../src/db/query-gate.js';
import { QueryQueueTimeoutError, ThumbnailQueueTimeoutError } from '../../src/shared/errors.js';

/** A task that runs until the test lets it finish. */
function heldTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, task: () => done };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const caller = (account: string, key = 'key:1'): QueryCaller => ({ account, key });

/** Queries sent through one gate, each held until the test finishes it by name. */
function harness(share: number, slots: number, queueTimeoutMs = 60_000) {
  const gate = new QueryGate(share, slots, queueTimeoutMs);
  const started: string[] = [];
  const held = new Map<string, { finish: () => void; run: Promise<unknown> }>();
  return {
    started,
    send(name: string, who: QueryCaller) {
      const task = heldTask();
      const run = gate.run(who, () => (started.push(name), task.task()));
      held.set(name, { finish: task.finish, run });
      return run;
    },
    async finish(...names: string[]) {
      for (const name of names) {
        held.get(name)!.finish();
        await held.get(name)!.run;
      }
      await tick();
    },
    async finishAll() {
      for (const { finish } of held.values()) finish();
      await Promise.allSettled([...held.values()].map(({ run }) => run));
    },
  };
}

describe('query gate', () => {
  it('lets one account run its share at once and queues the rest behind itself, oldest first', async () => {
    const gate = harness(2, 3);
    for (const name of ['a0', 'a1', 'a2', 'a3']) void gate.send(name, caller('A'));
    await tick();
    // The third slot stays free for another account, however many queries A sends.
    expect(gate.started).toEqual(['a0', 'a1']);
    await gate.finish('a1');
    expect(gate.started).toEqual(['a0', 'a1', 'a2']);
    await gate.finish('a0');
    expect(gate.started).toEqual(['a0', 'a1', 'a2', 'a3']);
    await gate.finishAll();
  });

  it("starts another account's query at once while one account's heavy queries hold its whole share", async () => {
    const gate = harness(1, 2);
    for (const name of ['heavy0', 'heavy1', 'heavy2']) void gate.send(name, caller('A'));
    await tick();
    void gate.send('light', caller('B'));
    await tick();
    expect(gate.started).toEqual(['heavy0', 'light']);
    await gate.finish('light');
    expect(gate.started).toEqual(['heavy0', 'light']);
    await gate.finishAll();
  });

  it('gives a freed slot to the waiting account running the fewest queries, whoever waited longer', async () => {
    const gate = harness(2, 3);
    for (const name of ['a0', 'a1', 'a2', 'a3']) void gate.send(name, caller('A'));
    void gate.send('b0', caller('B'));
    void gate.send('b1', caller('B'));
    void gate.send('c0', caller('C'));
    await tick();
    expect(gate.started).toEqual(['a0', 'a1', 'b0']);
    // A and B wait with one and two running; C runs none: C first, though A's and B's waited longer.
    await gate.finish('a0');
    expect(gate.started).toEqual(['a0', 'a1', 'b0', 'c0']);
    // Now A runs one, B one: A's turn, as its last query started before B's (a1 before b0).
    await gate.finish('c0');
    expect(gate.started.at(-1)).toBe('a2');
    // A runs two (its share), B one: B's b1, though A's a3 waited longer.
    await gate.finish('b0');
    expect(gate.started.at(-1)).toBe('b1');
    await gate.finish('a1');
    expect(gate.started.at(-1)).toBe('a3');
    await gate.finishAll();
  });

  it('shares an account between its keys: a freed slot goes to the key running fewer, not to the key that queued more', async () => {
    const gate = harness(2, 3);
    for (const name of ['k0', 'k1', 'k2', 'k3']) void gate.send(name, caller('A', 'key:1'));
    await tick();
    void gate.send('other-key', caller('A', 'key:2'));
    await tick();
    // The account holds its share: its other key waits too (the spare slot is for other accounts).
    expect(gate.started).toEqual(['k0', 'k1']);
    await gate.finish('k0');
    expect(gate.started).toEqual(['k0', 'k1', 'other-key']);
    await gate.finish('k1');
    expect(gate.started).toEqual(['k0', 'k1', 'other-key', 'k2']);
    await gate.finishAll();
  });

  it('takes turns between keys running as many: a key whose query just ended does not start its next before a key that waited', async () => {
    const gate = harness(1, 2);
    void gate.send('q0', caller('A', 'key:1'));
    void gate.send('q1', caller('A', 'key:1'));
    await tick();
    void gate.send('r0', caller('A', 'key:2'));
    await tick();
    await gate.finish('q0');
    expect(gate.started).toEqual(['q0', 'r0']);
    await gate.finish('r0');
    expect(gate.started).toEqual(['q0', 'r0', 'q1']);
    await gate.finishAll();
  });

  it('counts keys per account: the same key id in two accounts are two callers', async () => {
    const gate = harness(1, 2);
    void gate.send('a', caller('A', 'key:7'));
    void gate.send('b', caller('B', 'key:7'));
    await tick();
    expect(gate.started).toEqual(['a', 'b']);
    await gate.finishAll();
  });

  it('gives up on a query still waiting past the queue bound, naming the bound, and keeps its accounts straight', async () => {
    const gate = harness(1, 1, 50);
    void gate.send('running', caller('A'));
    const waiting = gate.send('never', caller('B'));
    await expect(waiting).rejects.toBeInstanceOf(QueryQueueTimeoutError);
    await expect(waiting).rejects.toThrow(/0\.05 s.*TABULA_QUERY_QUEUE_TIMEOUT/);
    expect(gate.started).toEqual(['running']);
    await gate.finish('running');
    // The slot is free again, and B runs nothing.
    void gate.send('b-again', caller('B'));
    await tick();
    expect(gate.started).toEqual(['running', 'b-again']);
    await gate.finishAll();
  });

  it("a gate for other work (thumbnails) fails with its own error and stays out of the record queries' occupancy", async () => {
    const gate = new QueryGate(1, 2, 50, { timeoutError: (ms) => new ThumbnailQueueTimeoutError(ms), metered: false });
    const held = heldTask();
    const before = queryGateOccupancy().busy;
    const running = gate.run(caller('A'), held.task);
    expect(queryGateOccupancy().busy).toBe(before);
    // A's share is one: its second waits, and gives up with the thumbnails' 503.
    const waiting = gate.run(caller('A'), async () => undefined);
    await expect(waiting).rejects.toBeInstanceOf(ThumbnailQueueTimeoutError);
    await expect(waiting).rejects.toThrow('Thumbnail not made: every thumbnail slot stayed busy for 0.05 s; try again');
    held.finish();
    await running;
  });
});
