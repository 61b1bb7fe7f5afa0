import { describe, expect, test } from 'vitest';
import { aggregateClaims, type ClaimAggregate } from './claim-aggregate.js';
import type { ClaimVerdict } from './claim-verdict.js';

const supported: ClaimVerdict = { sum: 3, verdict: 'supported', tie: false, label: 'entailment' };
const contradicted: ClaimVerdict = { sum: -3, verdict: 'fault', tie: false, label: 'contradiction' };
const unsupported: ClaimVerdict = { sum: -1, verdict: 'fault', tie: false, label: 'neutral' };

// Four claims: three supported, one contradicted.
const answer = [supported, supported, supported, contradicted];

describe('aggregateClaims', () => {
  test.each([
    ['zero_tolerance', -1, false],
    ['proportional', -0.1, false],
    ['ragas', 0.75, true],
    // 0.75 × exp(1 - 10/4)
    ['factscore', 0.75 * Math.exp(-1.5), false],
    // P = 0.75, R = min(1, 3/64): F1 = 2PR / (P + R)
    ['safe_f1', (2 * 0.75 * (3 / 64)) / (0.75 + 3 / 64), false],
    ['refchecker_strict', 0, false],
    ['refchecker_soft', 0.75, true],
    ['refchecker_majority', 1, true],
  ] as const)('%s over 3 supported + 1 contradicted -> %d', (aggregate, score, pass) => {
    const got = aggregateClaims(answer, aggregate);
    expect(got?.score).toBeCloseTo(score, 12);
    expect(got?.pass).toBe(pass);
  });

  test('should pass MARCH rewards only without faults and take SAFE K and passAt', () => {
    expect(aggregateClaims([supported, supported], 'zero_tolerance')).toMatchObject({ score: 0, pass: true });
    expect(aggregateClaims([supported, unsupported], 'safe_f1', { safeK: 1, passAt: 0.7 })).toMatchObject({
      pass: false,
      figures: { k: 1, precision: 0.5, recall: 1 },
    });
    expect(aggregateClaims([supported, unsupported], 'refchecker_strict')?.figures).toMatchObject({
      label: 'neutral',
    });
  });

  test.each(['zero_tolerance', 'ragas', 'refchecker_soft'] as ClaimAggregate[])(
    '%s should leave an answer with no claims unscored',
    (aggregate) => {
      expect(aggregateClaims([], aggregate)).toBeUndefined();
    },
  );
});
