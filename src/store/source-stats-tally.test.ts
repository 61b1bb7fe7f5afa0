import { describe, expect, test } from 'vitest';
import { createSourceStatsTally, mergeSourceStats } from './source-stats-tally.js';

const usage = (calls: number) => ({
  calls,
  prompt_tokens: 10 * calls,
  completion_tokens: calls,
  cache_hits: 0,
});

describe('mergeSourceStats', () => {
  test.each([
    { name: 'no parts', parts: [], expected: [] },
    {
      name: 'counts add, means weighted by count',
      parts: [
        [{ source: 'math', count: 3, mean: 1, invalid: 0 }],
        [{ source: 'math', count: 1, mean: 0, invalid: 2 }],
      ],
      expected: [{ source: 'math', count: 4, mean: 0.75, invalid: 2 }],
    },
    {
      name: 'a source without a score keeps a null mean',
      parts: [
        [{ source: 'judge', count: 0, mean: null, invalid: 1 }],
        [{ source: 'judge', count: 0, mean: null, invalid: 3 }],
      ],
      expected: [{ source: 'judge', count: 0, mean: null, invalid: 4 }],
    },
    {
      name: 'usage adds up; the first part decides the order, a source only in a later one follows',
      parts: [
        [
          { source: 'fmt', count: 2, mean: 0.5, invalid: 0 },
          { source: 'judge', count: 1, mean: 0.8, invalid: 0, usage: usage(2) },
        ],
        [
          { source: 'judge', count: 1, mean: 0.4, invalid: 0, usage: usage(3) },
          { source: 'extra', count: 1, mean: 1, invalid: 0 },
        ],
      ],
      expected: [
        { source: 'fmt', count: 2, mean: 0.5, invalid: 0 },
        { source: 'judge', count: 2, mean: 0.6000000000000001, invalid: 0, usage: usage(5) },
        { source: 'extra', count: 1, mean: 1, invalid: 0 },
      ],
    },
  ])('$name', ({ parts, expected }) => {
    expect(mergeSourceStats(parts)).toEqual(expected);
  });

  test('merging the tallies of disjoint halves gives the tally of the whole', () => {
    const pieces = Array.from({ length: 10 }, (_, i) => [
      { source: 'math', score: i % 3 === 0 ? 1 : 0, invalid: false },
      { source: 'fmt', ...(i % 4 === 0 ? { invalid: true } : { score: 0.5, invalid: false }) },
    ]);
    const whole = createSourceStatsTally();
    const halves = [createSourceStatsTally(), createSourceStatsTally()];
    pieces.forEach((evidence, i) => {
      whole.add(evidence);
      halves[i % 2]?.add(evidence);
    });
    const merged = mergeSourceStats(halves.map((half) => half.stats()));
    expect(merged.map((s) => [s.source, s.count, s.invalid])).toEqual(
      whole.stats().map((s) => [s.source, s.count, s.invalid]),
    );
    merged.forEach((stat, i) => {
      expect(stat.mean).toBeCloseTo(whole.stats()[i]?.mean as number, 12);
    });
  });
});
