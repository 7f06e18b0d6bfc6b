import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSpacedTimer } from '../../src/shared/spaced-timer.js';

/** The write unit's figures (changes/write-unit.ts): a run 5 ms after a lone ask, runs at least 25 ms apart. */
const options = { delayMs: 5, spacingMs: 25, now: () => Date.now() };

describe('createSpacedTimer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, delayMs after the first ask, for every ask made meanwhile', () => {
    const runs: number[] = [];
    const timer = createSpacedTimer(() => runs.push(Date.now()), options);
    const start = Date.now();
    timer.ask();
    vi.advanceTimersByTime(2);
    timer.ask();
    timer.ask();
    vi.advanceTimersByTime(2);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual([start + 5]);
    vi.advanceTimersByTime(100);
    expect(runs).toHaveLength(1);
  });

  it('serves a steady stream of asks with one run every spacingMs', () => {
    const runs: number[] = [];
    const timer = createSpacedTimer(() => runs.push(Date.now()), options);
    const start = Date.now();
    for (let ms = 0; ms < 200; ms += 1) {
      timer.ask();
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(100);
    expect(runs[0]).toBe(start + 5);
    for (let n = 1; n < runs.length; n += 1) expect(runs[n] - runs[n - 1]).toBe(25);
    // 5, 30, …, 180, and the asks after 180 served by one more run at 205.
    expect(runs).toHaveLength(9);
  });

  it('keeps a lone ask at delayMs once the last run is spacingMs behind', () => {
    const runs: number[] = [];
    const timer = createSpacedTimer(() => runs.push(Date.now()), options);
    timer.ask();
    vi.advanceTimersByTime(5);
    vi.advanceTimersByTime(40);
    const asked = Date.now();
    timer.ask();
    vi.advanceTimersByTime(5);
    expect(runs).toEqual([asked - 40, asked + 5]);
  });

  it('cancel drops the run due and says whether there was one', () => {
    const runs: number[] = [];
    const timer = createSpacedTimer(() => runs.push(Date.now()), options);
    expect(timer.cancel()).toBe(false);
    timer.ask();
    expect(timer.cancel()).toBe(true);
    vi.advanceTimersByTime(100);
    expect(runs).toEqual([]);
    expect(timer.cancel()).toBe(false);
  });
});
