import { describe, expect, test } from 'vitest';
import { createRng } from '../../core/index.js';
import { corruptConstraints, drawCorruption, flipFact, flipNumber } from './corrupt-constraints.js';

describe('flipNumber', () => {
  test.each<[number, number, number]>([
    [10, 0.0, 5], // ×0.5
    [10, 0.15, 8], // ×0.8
    [10, 0.25, 12], // ×1.2
    [10, 0.4, 15], // ×1.5
    [10, 0.5, 20], // ×2
    [10, 0.6, 11], // +1
    [10, 0.7, 9], // −1
    [10, 0.8, 12], // +2
    [10, 0.99, 8], // −2
    [3, 0.15, 2], // 2.4 rounds to 2: counts stay integers
    [1, 0.25, 2], // 1.2 rounds back to 1, so +1
    [2.5, 0.0, 1.25],
  ])('flipNumber(%s, choice %s) = %s', (x, choice, y) => {
    expect(flipNumber(x, choice)).toBe(y);
  });
});

describe('flipFact', () => {
  test.each([
    ['apples: 4', 0.5, 'apples: 8'],
    ['apples on shelf 2: 4', 0.5, 'apples on shelf 2: 8'],
    ['cup relative to plate: left of', 0, 'cup relative to plate: right of'],
    ['the lamp is above the desk', 0, 'the lamp is below the desk'],
    ['cup relative to plate: in front of', 0, 'cup relative to plate: behind'],
    ['ball colour: red', 0, 'ball colour: red'],
  ])('flipFact(%j) = %j', (fact, choice, flipped) => {
    expect(flipFact(fact, choice)).toBe(flipped);
  });
});

describe('corruptConstraints', () => {
  const constraints = { caption: 'c', key_facts: ['a: 1', 'b: 2', 'c: 3', 'd: 4'], uncertain: [] };
  const draws = [0.05, 0.15, 0.35, 0.9].map((u) => ({ u, choice: 0.5 }));

  test.each<[number, string[]]>([
    [0, ['a: 1', 'b: 2', 'c: 3', 'd: 4']],
    [0.1, ['b: 2', 'c: 3', 'd: 4']],
    [0.2, ['c: 3', 'd: 4']],
    [0.4, ['d: 4']],
    [1, []],
  ])('DROP at r = %s removes the facts whose draw is below r', (r, kept) => {
    expect(corruptConstraints(constraints, 'drop', r, draws).key_facts).toEqual(kept);
  });

  test('FLIP at r = 0.2 perturbs the facts whose draw is below r', () => {
    expect(corruptConstraints(constraints, 'flip', 0.2, draws).key_facts).toEqual([
      'a: 2',
      'b: 4',
      'c: 3',
      'd: 4',
    ]);
  });

  test('DROP removes about r of the facts over many draws', () => {
    const many = {
      caption: 'c',
      key_facts: Array.from({ length: 10000 }, (_, i) => `f${i}: 1`),
      uncertain: [],
    };
    const kept = corruptConstraints(many, 'drop', 0.2, drawCorruption(many, createRng(7))).key_facts.length;
    expect(kept / 10000).toBeGreaterThan(0.78);
    expect(kept / 10000).toBeLessThan(0.82);
  });
});
