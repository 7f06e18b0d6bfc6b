import { describe, expect, it } from 'vitest';
import { QueryGate } from '../../src/db/query-gate.js';
import { QueryTimeoutError } from '../../src/shared/errors.js';

/** A task that runs until the test lets it finish. */
function heldTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, task: () => done };
}

const later = () => Date.now() + 60_000;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('query gate', () => {
  it('lets a caller alone use every slot, then queues', async () => {
    const gate = new QueryGate(2, 1, 10_000);
    const started: string[] = [];
    const tasks = [heldTask(), heldTask(), heldTask()];
    const runs = tasks.map((held, index) => gate.run('a', later(), () => (started.push(`a${index}`), held.task())));
    await tick();
    expect(started).toEqual(['a0', 'a1']);
    tasks[0].finish();
    await runs[0];
    await tick();
    expect(started).toEqual(['a0', 'a1', 'a2']);
    tasks[1].finish();
    tasks[2].finish();
    await Promise.all(runs);
  });

  it('gives a freed slot to a waiting caller below its share before the caller holding the rest', async () => {
    const gate = new QueryGate(2, 1, 10_000);
    const started: string[] = [];
    const hog = [heldTask(), heldTask(), heldTask()];
    const hogRuns = hog.map((held, index) => gate.run('hog', later(), () => (started.push(`hog${index}`), held.task())));
    await tick();
    const other = heldTask();
    const otherRun = gate.run('other', later(), () => (started.push('other'), other.task()));
    hog[0].finish();
    await hogRuns[0];
    await tick();
    expect(started).toEqual(['hog0', 'hog1', 'other']);
    other.finish();
    await otherRun;
    await tick();
    expect(started).toEqual(['hog0', 'hog1', 'other', 'hog2']);
    hog[1].finish();
    hog[2].finish();
    await Promise.all(hogRuns);
  });

  it('gives up on a query still waiting at its deadline, naming the budget', async () => {
    const gate = new QueryGate(1, 1, 1234);
    const held = heldTask();
    const running = gate.run('a', later(), held.task);
    const waiting = gate.run('b', Date.now(), async () => 'never');
    await expect(waiting).rejects.toBeInstanceOf(QueryTimeoutError);
    await expect(waiting).rejects.toThrow(/1\.234 s/);
    held.finish();
    await running;
    // The slot it waited for is free again.
    await expect(gate.run('b', later(), async () => 'ran')).resolves.toBe('ran');
  });
});
