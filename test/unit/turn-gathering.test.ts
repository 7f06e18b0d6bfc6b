import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTurnBatching, createTurnGathering } from '../../src/db/turn-gathering.js';
import { nextTurn } from '../../src/shared/fresh-runs.js';

/**
 * Reads by id gathered by turn (src/db/turn-gathering.ts, PostgreSQL's gets and lookup titles):
 * the reads of two turns and one shape share one statement, begun after each of them was asked;
 * a read asked once that statement started waits for the next one.
 */
describe('reads gathered by turn', () => {
  const db = {} as Kysely<any>;
  const otherDb = {} as Kysely<any>;

  function recorder() {
    const statements: Array<{ shape: string; ids: number[] }> = [];
    const read = createTurnGathering(
      (shape: string) => shape,
      async (_db, shape: string, ids: readonly number[]) => {
        statements.push({ shape, ids: [...ids] });
        return ids.map((id) => ({ shape, id }));
      },
    );
    return { statements, read };
  }

  it('reads the ids asked during one turn in one statement per shape and database', async () => {
    const { statements, read } = recorder();
    const answers = await Promise.all([read(db, 'a', 1), read(db, 'a', 2), read(db, 'a', 1), read(db, 'b', 3), read(otherDb, 'a', 4)]);
    expect(statements).toEqual([
      { shape: 'a', ids: [1, 2] },
      { shape: 'b', ids: [3] },
      { shape: 'a', ids: [4] },
    ]);
    // Every caller gets its statement's rows and finds its own there.
    expect(answers[1]).toEqual([
      { shape: 'a', id: 1 },
      { shape: 'a', id: 2 },
    ]);
    expect(answers[4]).toEqual([{ shape: 'a', id: 4 }]);
  });

  it('gathers the reads asked during two turns, and sends a read asked once the statement started in one of its own', async () => {
    const { statements, read } = recorder();
    const first = read(db, 'a', 1);
    await nextTurn();
    // A turn later: still gathering.
    const second = read(db, 'a', 2);
    await nextTurn();
    // The statement has started: this one must begin after it was asked, so it is not in it.
    const third = read(db, 'a', 3);
    await Promise.all([first, second, third]);
    expect(statements).toEqual([
      { shape: 'a', ids: [1, 2] },
      { shape: 'a', ids: [3] },
    ]);
  });

  it('reads an id that is not a safe integer alone, so it cannot fail the others', async () => {
    const { statements, read } = recorder();
    await Promise.all([read(db, 'a', 1), read(db, 'a', 1.5), read(db, 'a', 2 ** 60), read(db, 'a', 2)]);
    expect(statements).toEqual([
      { shape: 'a', ids: [1.5] },
      { shape: 'a', ids: [2 ** 60] },
      { shape: 'a', ids: [1, 2] },
    ]);
  });

  it('fails the reads of a statement that failed, and reads the next turn afresh', async () => {
    let fail = true;
    const read = createTurnGathering(
      (shape: string) => shape,
      async (_db, _shape, ids: readonly number[]) => {
        if (fail) throw new Error('statement failed');
        return [...ids];
      },
    );
    const outcomes = await Promise.allSettled([read(db, 'a', 1), read(db, 'a', 2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read(db, 'a', 3)).toEqual([3]);
  });
});

/**
 * Writes gathered by turn (src/db/turn-gathering.ts, PostgreSQL's creates): the writes of two
 * turns and one shape go as one statement, each caller gets its own item's result, and a
 * statement of several that fails is written again item by item, so that a failure is only its
 * own item's.
 */
describe('writes gathered by turn', () => {
  const db = {} as Kysely<any>;
  const otherDb = {} as Kysely<any>;

  function recorder(failing: (item: number) => boolean = () => false) {
    const statements: Array<{ shape: string; items: number[] }> = [];
    const write = createTurnBatching(
      (shape: string) => shape,
      async (_db, shape: string, items: readonly number[]) => {
        statements.push({ shape, items: [...items] });
        const bad = items.find(failing);
        if (bad !== undefined) throw new Error(`item ${bad} failed`);
        return items.map((item) => `${shape}${item}`);
      },
    );
    return { statements, write };
  }

  it('writes the items of one turn in one statement per shape and database, each caller getting its own result', async () => {
    const { statements, write } = recorder();
    const answers = await Promise.all([write(db, 'a', 1), write(db, 'a', 2), write(db, 'b', 3), write(otherDb, 'a', 4), write(db, 'a', 5)]);
    expect(statements).toEqual([
      { shape: 'a', items: [1, 2, 5] },
      { shape: 'b', items: [3] },
      { shape: 'a', items: [4] },
    ]);
    expect(answers).toEqual(['a1', 'a2', 'b3', 'a4', 'a5']);
  });

  it('gathers the writes of two turns, and sends one asked once the statement started with the next', async () => {
    const { statements, write } = recorder();
    const first = write(db, 'a', 1);
    await nextTurn();
    const second = write(db, 'a', 2);
    await nextTurn();
    const third = write(db, 'a', 3);
    expect(await Promise.all([first, second, third])).toEqual(['a1', 'a2', 'a3']);
    expect(statements).toEqual([
      { shape: 'a', items: [1, 2] },
      { shape: 'a', items: [3] },
    ]);
  });

  it('writes the items of a failed statement again one by one: only the failing item fails', async () => {
    const { statements, write } = recorder((item) => item === 2);
    const outcomes = await Promise.allSettled([write(db, 'a', 1), write(db, 'a', 2), write(db, 'a', 3)]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'a1' },
      { status: 'rejected', reason: new Error('item 2 failed') },
      { status: 'fulfilled', value: 'a3' },
    ]);
    expect(statements.slice(0, 1)).toEqual([{ shape: 'a', items: [1, 2, 3] }]);
    expect(statements.slice(1).map((statement) => statement.items).sort()).toEqual([[1], [2], [3]]);
  });

  it('never puts two items of one key in a statement: the later goes with the next, after the earlier was written', async () => {
    const statements: number[][] = [];
    const write = createTurnBatching(
      () => 'a',
      async (_db, _shape, items: readonly number[]) => {
        statements.push([...items]);
        return items.map((item) => item * 10);
      },
      (item: number) => item % 100,
    );
    expect(await Promise.all([write(db, 'a', 1), write(db, 'a', 2), write(db, 'a', 101), write(db, 'a', 3), write(db, 'a', 201)])).toEqual([10, 20, 1010, 30, 2010]);
    expect(statements).toEqual([[1, 2, 3], [101], [201]]);
  });

  it('fails a lone item with its own statement\'s error, once', async () => {
    const { statements, write } = recorder(() => true);
    await expect(write(db, 'a', 7)).rejects.toThrow('item 7 failed');
    expect(statements).toEqual([{ shape: 'a', items: [7] }]);
  });
});
