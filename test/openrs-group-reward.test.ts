import { describe, expect, test } from 'vitest';
import { SampleSchema } from '../src/core/index.js';
import { createOpenrsJudge } from '../src/judges/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { brpoGroup } from '../src/rl/index.js';
import { createEvaluator, parseSpec } from '../src/spec/index.js';
import { openrsComparison, openrsIntentRule } from './judge-fixtures.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();
const model = () =>
  createOpenAICompatibleModel({
    name: 'judge',
    model: 'judge',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });

/** An OpenRS judge that prefers the response with the higher number, in whichever position it sits. */
const higherNumberWins = (values: number[]): ScriptRule[] => [
  openrsIntentRule,
  ...values.flatMap((a) =>
    values
      .filter((b) => b !== a)
      .map((b) => ({
        match: {
          contains: new RegExp(
            `Response A:\\n<response-a-\\w+>\\nR${a}\\n[\\s\\S]*Response B:\\n<response-b-\\w+>\\nR${b}\\n`,
          ),
        },
        reply: { content: openrsComparison(a > b ? 'A' : 'B') },
      })),
  ),
];

describe('OpenRS as a group reward', () => {
  test('should score each rollout by its round-robin win rate through the spec (against: group)', async () => {
    server.script(...higherNumberWins([1, 2, 3]));
    const evaluator = createEvaluator(
      parseSpec(
        'sources:\n  - kind: openrs\n    params: {model: judge, against: group, reasks: 0, constraints: false}\n',
        'spec.yaml',
      ),
      { models: new Map([['judge', model()]]) },
    );
    expect(evaluator.needsGroups).toBe(true);
    const rollout = (id: string, response: string) =>
      SampleSchema.parse({ id, prompt: 'A line about rain.', response, group: 'g' });
    const results = await evaluator.evaluateGroup([
      rollout('a', 'R3'),
      rollout('b', 'R1'),
      rollout('c', 'R2'),
    ]);
    expect(results.map((r) => [r.id, r.reward])).toEqual([
      ['a', 1],
      ['b', 0],
      ['c', 0.5],
    ]);
    // 3 pairs, each an intent call and one comparison per order.
    expect(server.requests).toHaveLength(9);
    expect(results[2]?.evidence[0]?.detail).toMatchObject({
      mode: 'round_robin',
      record: { wins: 1, losses: 1 },
    });
  });

  test("should be BRPO's judge: each rollout against the seeded reference, both orders, +1 only for a clean sweep", async () => {
    server.script(...higherNumberWins([1, 2, 3]));
    const responses = ['R3', 'R1', 'R2'];
    const result = await brpoGroup(
      { prompt: 'A line about rain.', responses },
      createOpenrsJudge({ model: model(), reasks: 0 }),
      {
        seed: 4,
        skewThreshold: 1,
      },
    );
    const reference = Number(responses[result.referenceIndex]?.slice(1));
    for (const rollout of result.rollouts) {
      if (rollout.index === result.referenceIndex) continue;
      const mine = Number(responses[rollout.index]?.slice(1));
      expect(rollout.outcomes).toEqual(mine > reference ? ['win', 'win'] : ['loss', 'loss']);
      expect(result.rewards[rollout.index]).toBe(mine > reference ? 1 : -1);
    }
    expect(result.rewards[result.referenceIndex]).toBe(0);
  });
});
