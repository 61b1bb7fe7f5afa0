import { describe, expect, test } from 'vitest';
import { corruptionCurve, type StudyProblem } from './corruption-curve.js';
import { ruleBasedPremiseAuditor } from './rule-premise-audit.js';

// A misreads both counts (two High: p = 0) but its steps were all judged +1; B reads right and
// has one step wrongly judged −1. Ungated, A wins; gated, B does — until the facts are dropped.
const problem: StudyProblem = {
  id: 'p',
  constraints: { caption: 'fruit', key_facts: ['apples: 3', 'pears: 2'], uncertain: [] },
  candidates: [
    {
      steps: [
        { text: 'a', visualDependency: 'apples: 4' },
        { text: 'b', visualDependency: 'pears: 1' },
        { text: 'c' },
      ],
      stepScores: [1, 1, 1],
      correct: false,
    },
    {
      steps: [{ text: 'a', visualDependency: 'apples: 3' }, { text: 'b' }, { text: 'c' }, { text: 'd' }],
      stepScores: [1, 1, 1, -1],
      correct: true,
    },
    // Unreadable output: never selected, even though it is "correct".
    { steps: null, stepScores: null, correct: true },
  ],
};

describe('corruptionCurve', () => {
  test('should let gating pick the sound candidate on clean facts, and lose it when every fact is dropped', async () => {
    const curve = await corruptionCurve([problem], {
      ratios: [0, 1],
      seed: 3,
      trials: 2,
      modes: ['drop'],
      audit: ruleBasedPremiseAuditor,
    });
    expect(curve.ungated.mean).toBe(0);
    const [clean, dropped] = curve.points;
    expect(clean).toMatchObject({ mode: 'drop', ratio: 0, mean_p: 0.5, invalid_audits: 0 });
    expect(clean?.accuracy.mean).toBe(1);
    expect(clean?.accuracy.geometric).toBe(1);
    expect(dropped).toMatchObject({ ratio: 1, mean_p: 1 });
    expect(dropped?.accuracy.mean).toBe(0);
  });

  test('should count an unreadable audit as p = 0', async () => {
    const curve = await corruptionCurve([problem], {
      ratios: [0],
      seed: 1,
      trials: 1,
      modes: ['flip'],
      audit: async () => ({ status: 'invalid', p: 0, reason: 'unreadable', raw: 'x', calls: [] }),
    });
    expect(curve.points[0]).toMatchObject({ invalid_audits: 2, mean_p: 0 });
  });

  test('should give the same curve for the same seed', async () => {
    const run = (seed: number) =>
      corruptionCurve([problem], { ratios: [0.5], seed, trials: 4, audit: ruleBasedPremiseAuditor });
    expect(await run(9)).toEqual(await run(9));
  });

  test('should use only the first k candidates with k', async () => {
    const curve = await corruptionCurve([problem], {
      ratios: [0],
      seed: 0,
      trials: 1,
      k: 1,
      modes: ['drop'],
      audit: ruleBasedPremiseAuditor,
    });
    expect(curve.k).toBe(1);
    expect(curve.points[0]?.accuracy.mean).toBe(0);
  });
});
