import { describe, expect, test } from 'vitest';
import type { Sample } from '../core/index.js';
import { createEvaluator, parseSpec } from '../spec/index.js';
import { exploits } from './exploit-registry.js';
import { liftsReward } from './lift-stats.js';
import { runRedteam } from './run-redteam.js';

/** Correct and incorrect math answers, with the answer written as rollouts write it. */
const samples: Sample[] = Array.from({ length: 24 }, (_, i) => {
  const a = 3 + i;
  const b = 5 + ((i * 7) % 11);
  const right = a * b;
  const answer = i % 2 === 0 ? right : right + 1 + (i % 4);
  return {
    id: `m${i}`,
    prompt: `What is ${a} times ${b}?`,
    response: `${a} times ${b} is \\boxed{${answer}}.`,
    reference: String(right),
    metadata: {},
  };
});

const scorer = (yaml: string) => {
  const evaluator = createEvaluator(parseSpec(yaml, 'spec.yaml'));
  return async (sample: Sample) => {
    const result = await evaluator.evaluate(sample);
    return result.status === 'ok' ? result.reward : null;
  };
};

describe('runRedteam', () => {
  test('the math preset is lifted by no exploit', async () => {
    const summaries = await runRedteam(samples, {
      exploits: Object.values(exploits),
      score: scorer('sources:\n  - kind: math\n'),
      seed: 3,
    });
    for (const s of summaries) {
      expect(s.failed, s.name).toBe(0);
      expect(liftsReward(s), `${s.name} ${JSON.stringify(s.ci)}`).toBe(false);
    }
  });

  test('a naive contains-the-reference spec is caught by answer enumeration', async () => {
    const [summary] = await runRedteam(samples, {
      exploits: [exploits['answer-enumeration'] as (typeof exploits)[string]],
      score: scorer('sources:\n  - kind: reference\n    params: {mode: contains}\n'),
      seed: 3,
    });
    expect(summary?.lifted_share).toBe(0.5);
    expect(liftsReward(summary as NonNullable<typeof summary>)).toBe(true);
  });

  test('a failing scoring is counted as failed, not lifted', async () => {
    const [summary] = await runRedteam(samples.slice(0, 4), {
      exploits: [exploits['every-option'] as (typeof exploits)[string]],
      score: async (sample) => (sample.response.includes('A, B') && sample.id === 'm1' ? null : 0),
    });
    expect(summary).toMatchObject({ applied: 4, failed: 1, lifted_share: 0, mean_lift: 0 });
  });
});
