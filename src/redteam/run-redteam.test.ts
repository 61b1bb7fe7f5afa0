import { describe, expect, test } from 'vitest';
import { createRng, type Sample } from '../core/index.js';
import { createEvaluator, parseSpec } from '../spec/index.js';
import { exploits } from './exploit-registry.js';
import { liftsReward } from './lift-stats.js';
import { ORIGINAL, runRedteam } from './run-redteam.js';

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
    return { reward: result.status === 'ok' ? result.reward : null, reasons: result.errors };
  };
};

describe('runRedteam', () => {
  test('the math preset is lifted by no exploit', async () => {
    const {
      exploits: summaries,
      failures,
      scorings,
    } = await runRedteam(samples, {
      exploits: Object.values(exploits),
      score: scorer('sources:\n  - kind: math\n'),
      seed: 3,
    });
    for (const s of summaries) {
      expect(s.failed, s.name).toBe(0);
      expect(liftsReward(s), `${s.name} ${JSON.stringify(s.ci)}`).toBe(false);
    }
    expect(failures).toEqual([]);
    // The original pass and one scoring per distinct exploited response, no more.
    const distinct = new Set(samples.map((s) => `${s.id}\u0000${s.response}`));
    for (const e of Object.values(exploits))
      for (const s of samples) for (const r of e.apply(s, createRng(3))) distinct.add(`${s.id}\u0000${r}`);
    expect(scorings).toBe(distinct.size);
  });

  test('a naive contains-the-reference spec is caught by answer enumeration', async () => {
    const {
      exploits: [summary],
    } = await runRedteam(samples, {
      exploits: [exploits['answer-enumeration'] as (typeof exploits)[string]],
      score: scorer('sources:\n  - kind: reference\n    params: {mode: contains}\n'),
      seed: 3,
    });
    expect(summary?.lifted_share).toBe(0.5);
    expect(liftsReward(summary as NonNullable<typeof summary>)).toBe(true);
  });

  test('a failing scoring is counted as failed with its reasons, not lifted', async () => {
    const {
      exploits: [summary],
      failures,
    } = await runRedteam(samples.slice(0, 4), {
      exploits: [exploits['every-option'] as (typeof exploits)[string]],
      // m1's original fails; m2's exploited response fails.
      score: async (sample, exploit) =>
        (sample.id === 'm1' && exploit === ORIGINAL) || (sample.id === 'm2' && exploit !== ORIGINAL)
          ? { reward: null, reasons: [`no answer (${exploit})`] }
          : { reward: 0 },
    });
    expect(summary).toMatchObject({ applied: 4, failed: 2, lifted_share: 0, mean_lift: 0 });
    expect(failures).toEqual([
      { id: 'm1', exploit: 'original', reasons: ['no answer (original)'] },
      { id: 'm2', exploit: 'every-option', reasons: ['no answer (every-option)'] },
    ]);
  });

  test('a response two exploits write, or one left as it was, is scored once; concurrency changes nothing', async () => {
    const seen: string[] = [];
    const same = (name: string) => ({
      name,
      description: name,
      apply: (s: Sample) => [s.response, `${s.response}!`],
    });
    const options = {
      exploits: [same('a'), same('b')],
      seed: 1,
      score: async (sample: Sample) => {
        seen.push(`${sample.id}:${sample.response}`);
        return { reward: sample.response.endsWith('!') ? 1 : 0 };
      },
    };
    const one = await runRedteam(samples.slice(0, 5), options);
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
    expect(one.scorings).toBe(10);
    expect(one.exploits.map((e) => e.lifted_share)).toEqual([1, 1]);
    const many = await runRedteam(samples.slice(0, 5), { ...options, concurrency: 4 });
    expect(many).toEqual(one);
  });

  test('an aborted signal stops the run before the next scoring', async () => {
    const controller = new AbortController();
    let scored = 0;
    const run = runRedteam(samples, {
      exploits: Object.values(exploits),
      signal: controller.signal,
      score: async () => {
        if (++scored === 3) controller.abort(new Error('backend down'));
        return { reward: 0 };
      },
    });
    await expect(run).rejects.toThrow('backend down');
    expect(scored).toBe(3);
  });
});
