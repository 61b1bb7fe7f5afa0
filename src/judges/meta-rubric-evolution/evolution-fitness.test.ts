import { describe, expect, test } from 'vitest';
import { evolutionFitness, pairFitness } from './evolution-fitness.js';
import { heldOutSplit } from './held-out-split.js';
import type { PairOutcome } from './pair-outcome.js';

const outcomes = (...kinds: PairOutcome['outcome'][]): PairOutcome[] =>
  kinds.map((outcome, i) => ({ id: String(i), outcome, verdict: 'first' }));

describe('evolution fitness', () => {
  test.each([
    // 2 right, 1 wrong, 1 tie, λ = 0.5: accuracy 2/4, tie rate 1/4 -> 0.5 - 0.125.
    [['right', 'right', 'wrong', 'tie'], 0.5, 0.375],
    // A failed pair is out of both rates.
    [['right', 'failed', 'tie'], 1, 0],
    [['right', 'right'], 2, 1],
  ] as const)('should score %j with λ = %d as %d', (kinds, lambda, expected) => {
    const got = evolutionFitness(outcomes(...kinds), lambda);
    expect(got.fitness).toBeCloseTo(expected, 12);
    const readable = kinds.map((k) => pairFitness(k, lambda)).filter((v) => v !== undefined);
    expect(readable.reduce((s, v) => s + v, 0) / readable.length).toBeCloseTo(expected, 12);
  });

  test('should leave fitness undefined when no pair was readable, and add the quality term', () => {
    expect(evolutionFitness(outcomes('failed'), 0.5)).toEqual({ right: 0, wrong: 0, ties: 0, failed: 1 });
    expect(evolutionFitness(outcomes('right', 'wrong'), 0.5, 0.25).fitness).toBeCloseTo(0.75, 12);
  });
});

describe('held-out split', () => {
  const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
  test('should be seeded, disjoint and whole', () => {
    const a = heldOutSplit(ids, 0.3, 1);
    expect(heldOutSplit([...ids].reverse(), 0.3, 1).heldOut.sort()).toEqual([...a.heldOut].sort());
    expect(a.heldOut).toHaveLength(3);
    expect([...a.train, ...a.heldOut].sort()).toEqual([...ids].sort());
    expect(heldOutSplit(ids, 0.3, 2).heldOut).not.toEqual(a.heldOut);
  });
  test('should keep a training pair when the set is tiny, and hold out nothing at 0', () => {
    expect(heldOutSplit(['a', 'b'], 0.9, 0)).toMatchObject({ train: [expect.any(String)] });
    expect(heldOutSplit(ids, 0, 0).heldOut).toEqual([]);
    expect(() => heldOutSplit(ids, 1, 0)).toThrow(/\[0, 1\)/);
  });
});
