import { describe, expect, test } from 'vitest';
import { gateStepScores } from './gate-step-scores.js';

describe('gateStepScores', () => {
  test.each<[string, number[], number[], number, number[]]>([
    ['the methods vector', [1, 1, -1, 1], [0, 2], 0.3, [0.3, 1, -1, 1]],
    ['a failure is never softened', [-1, 1, -1], [0, 1, 2], 0.5, [-1, 0.5, -1]],
    ['p = 0 removes visual credit only', [1, 1, 1], [1], 0, [1, 0, 1]],
    ['p = 1 changes nothing', [1, -1, 1], [0, 1, 2], 1, [1, -1, 1]],
    ['no visual steps changes nothing', [1, -1], [], 0, [1, -1]],
  ])('should gate %s', (_, raw, visual, p, gated) => {
    const got = gateStepScores(raw, visual, p);
    expect(got).toHaveLength(gated.length);
    for (const [i, g] of got.entries()) expect(g).toBeCloseTo(gated[i] as number, 12);
  });
});
