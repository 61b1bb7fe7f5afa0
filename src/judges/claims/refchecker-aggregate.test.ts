import { describe, expect, test } from 'vitest';
import { type RefcheckerLabel, refcheckerAggregate } from './refchecker-aggregate.js';

const E: RefcheckerLabel = 'entailment';
const N: RefcheckerLabel = 'neutral';
const C: RefcheckerLabel = 'contradiction';

describe('refcheckerAggregate', () => {
  test.each([
    ['strict', [E, E, E], E, 1],
    ['strict', [E, E, N], N, 0],
    ['strict', [E, N, C], C, 0],
    ['majority', [E, E, C], E, 1],
    ['majority', [E, N, N], N, 0],
    // A tie goes to the more severe label.
    ['majority', [E, E, C, C], C, 0],
    ['majority', [E, N], N, 0],
    ['soft', [E, E, N, C], E, 0.5],
    ['soft', [E, C, C], C, 1 / 3],
  ] as const)('%s over %j -> %s, score %d', (mode, labels, label, score) => {
    const got = refcheckerAggregate(labels, mode);
    expect(got?.label).toBe(label);
    expect(got?.score).toBeCloseTo(score, 12);
  });

  test('should report the share of each label', () => {
    expect(refcheckerAggregate([E, E, N, C], 'soft')?.shares).toEqual({
      entailment: 0.5,
      neutral: 0.25,
      contradiction: 0.25,
    });
    expect(refcheckerAggregate([], 'strict')).toBeUndefined();
  });
});
