import { describe, expect, test } from 'vitest';
import type { LlmUsage } from '../core/index.js';
import { pairwiseLineResult } from './pairwise-line-result.js';

const usage: LlmUsage = {
  calls: 2,
  prompt_tokens: 20,
  completion_tokens: 10,
  latency_ms: 3,
  retries: 0,
  cache_hits: 0,
};
const comparisons = [
  { order: 'forward', vote: 0, winner: 'first' },
  { order: 'backward', vote: 0, winner: 'first' },
];

describe('pairwiseLineResult', () => {
  test.each([
    ['first', 1, 'pass'],
    ['second', 0, 'fail'],
    ['tie', 0.5, 'fail'],
    ['inconsistent', 0.5, 'fail'],
  ] as const)('should score verdict %s as %d for the first response', (verdict, reward, evidenceVerdict) => {
    const result = pairwiseLineResult({ id: 'a', verdict, comparisons, usage }, 'genrm');
    expect(result).toMatchObject({ id: 'a', status: 'ok', reward, components: { pairwise: reward } });
    expect(result.evidence[0]).toMatchObject({
      source: 'pairwise',
      kind: 'genrm',
      score: reward,
      verdict: evidenceVerdict,
      usage,
      detail: { verdict, comparisons },
    });
  });

  test("should keep the judge's own detail and route under the names its view reads", () => {
    const result = pairwiseLineResult(
      {
        id: 'a',
        verdict: 'first',
        comparisons: [],
        detail: { orders: [] },
        decided_by: 'ground truth',
        warnings: ['w'],
      },
      'openrs',
    );
    expect(result.evidence[0]?.detail).toEqual({
      verdict: 'first',
      comparisons: [],
      detail: { orders: [] },
      decidedBy: 'ground truth',
      warnings: ['w'],
    });
    expect(result.warnings).toEqual(['w']);
  });

  test('should fail an invalid verdict with its error, and a line without a verdict with its error', () => {
    const invalid = pairwiseLineResult(
      {
        id: 'a',
        verdict: 'invalid',
        reason: 'HTTP 500',
        error: 'no readable verdict: HTTP 500',
        comparisons: [],
      },
      'genrm',
    );
    expect(invalid).toMatchObject({
      status: 'failed',
      reward: null,
      errors: ['no readable verdict: HTTP 500'],
    });
    expect(invalid.evidence[0]).toMatchObject({ verdict: 'error', invalid: true });
    expect(invalid.evidence[0]).not.toHaveProperty('score');
    const malformed = pairwiseLineResult({ id: 'b', error: 'pairs.jsonl:2: field "first"' }, 'genrm');
    expect(malformed).toMatchObject({
      status: 'failed',
      errors: ['pairs.jsonl:2: field "first"'],
      evidence: [],
    });
  });
});
