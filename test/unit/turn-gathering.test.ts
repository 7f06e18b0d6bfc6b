import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTurnGathering } from '../../src/db/turn-gathering.js';
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
