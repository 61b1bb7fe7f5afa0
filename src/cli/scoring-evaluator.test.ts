import { describe, expect, test } from 'vitest';
import { AUTO_WORKERS_MIN_ROWS, autoWorkers, scoreWorkers } from './scoring-evaluator.js';

describe('scoreWorkers', () => {
  test.each([
    // flag, rows, cores, threads
    ['auto', AUTO_WORKERS_MIN_ROWS, 16, 8],
    ['auto', 1_000_000, 4, 3],
    ['auto', AUTO_WORKERS_MIN_ROWS, 2, 1],
    ['auto', AUTO_WORKERS_MIN_ROWS - 1, 16, 0],
    ['auto', undefined, 16, 0],
    ['auto', 1_000_000, 1, 0],
    [0, 1_000_000, 16, 0],
    [3, 10, 16, 3],
    [12, undefined, 2, 12],
  ] as const)('--workers %s with %s rows on %i cores: %i threads', (flag, rows, cores, threads) => {
    expect(scoreWorkers(flag, rows, cores)).toBe(threads);
  });

  test('auto is the cores less the main thread, at least 1, at most 8', () => {
    expect([1, 2, 3, 9, 10, 64].map((cores) => autoWorkers(cores))).toEqual([1, 1, 2, 8, 8, 8]);
  });
});
