import { describe, expect, test } from 'vitest';
import { RewardResultSchema } from '../core/index.js';
import { evpvRowResult } from './evpv-row-result.js';

const run = {
  calls: [],
  usage: { calls: 3, prompt_tokens: 30, completion_tokens: 9, latency_ms: 12, retries: 0, cache_hits: 0 },
  elapsedMs: 40,
};
const candidate = (index: number, mean: number) => ({
  index,
  status: 'ok' as const,
  scores: { mean, weighted: mean / 2 },
});

describe('evpvRowResult', () => {
  test('should reward the candidate the mean aggregator selects, with a component per candidate', () => {
    const result = evpvRowResult(
      {
        id: 'p1',
        candidates: [
          candidate(0, 0.25),
          { index: 1, status: 'failed', error: 'no steps' },
          candidate(2, 0.75),
        ],
        selected: { mean: 2, weighted: 0 },
      },
      run,
    );
    expect(result).toMatchObject({
      id: 'p1',
      status: 'ok',
      reward: 0.75,
      components: { candidate_0: 0.25, candidate_1: null, candidate_2: 0.75 },
      evidence: [{ source: 'evpv', kind: 'evpv', score: 0.75, invalid: false, usage: { calls: 3 } }],
    });
    expect(RewardResultSchema.safeParse(result).success).toBe(true);
  });

  test.each([
    ['a failed row', { id: 'p2', error: 'image unreadable' }, /evpv: image unreadable/],
    [
      'a row no candidate of which could be scored',
      { id: 'p3', candidates: [{ index: 0, status: 'failed' as const, error: 'x' }], selected: {} },
      /no candidate could be scored/,
    ],
    [
      'a row kept whole but failed (the step judge never answered)',
      {
        id: 'p4',
        error: 'the step judge never answered readably',
        candidates: [candidate(0, -1)],
        selected: { mean: 0 },
      },
      /step judge never answered/,
    ],
  ])('should record %s as failed with its reason, never as 0', (_, line, reason) => {
    const result = evpvRowResult(line, run);
    expect(result).toMatchObject({ status: 'failed', reward: null });
    expect(result.errors[0]).toMatch(reason);
    expect(result.evidence[0]).toMatchObject({ invalid: true, verdict: 'error' });
    expect(result.evidence[0]).not.toHaveProperty('score');
  });
});
