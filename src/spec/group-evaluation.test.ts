import { describe, expect, test } from 'vitest';
import { SampleSchema } from '../core/index.js';
import type { ChatModel, ChatRequest } from '../llm/index.js';
import { createEvaluator } from './evaluator.js';
import { parseSpec } from './parse-spec.js';

/**
 * A judge model that prefers the response with the higher number in it, whatever its position,
 * and cannot read ROTTEN responses: in-process, so the test sees exactly which pairs were judged.
 */
function numberLovingJudge(): ChatModel & { seen: string[] } {
  const seen: string[] = [];
  return {
    name: 'judge',
    seen,
    async complete(request: ChatRequest) {
      const text = String(request.messages.at(-1)?.content);
      const values = [...text.matchAll(/<response-[12]-\w+>\n(\w+)/g)].map((m) => m[1] as string);
      seen.push(values.join(' vs '));
      const [one, two] = values.map((v) => Number(v.replace(/\D/g, '')));
      const content = values.some((v) => v.startsWith('ROTTEN'))
        ? 'unreadable'
        : JSON.stringify({ principles: ['p'], critique: 'c', score_1: one, score_2: two });
      return {
        content,
        finishReason: 'stop',
        usage: { promptTokens: 10, completionTokens: 2 },
        model: 'judge',
        endpoint: 'memory',
        latencyMs: 1,
        retries: 0,
      };
    },
  };
}

const rollout = (id: string, response: string, group = 'g') =>
  SampleSchema.parse({ id, prompt: 'Rate me.', response, group });

const evaluatorWith = (model: ChatModel) =>
  createEvaluator(
    parseSpec(
      'sources:\n  - kind: genrm\n    params: {model: judge, against: group, reasks: 0}\n',
      'spec.yaml',
    ),
    { models: new Map([['judge', model]]) },
  );

describe('pairwise sources within a group', () => {
  test('should score each rollout by its round-robin win rate, judging every pair in both orders', async () => {
    const model = numberLovingJudge();
    const evaluator = evaluatorWith(model);
    expect(evaluator.needsGroups).toBe(true);
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
    // 3 pairs × 2 orders, each pair charged once.
    expect(model.seen).toHaveLength(6);
    expect(results.reduce((sum, r) => sum + (r.evidence[0]?.usage?.calls ?? 0), 0)).toBe(6);
    expect(results[2]?.evidence[0]?.detail).toMatchObject({
      mode: 'round_robin',
      record: { wins: 1, losses: 1, ties: 0, winRate: 0.5 },
    });
  });

  test("should keep each pair's calls with the rollout they are charged to, naming the opponent and the order", async () => {
    const results = await evaluatorWith(numberLovingJudge()).evaluateGroup([
      rollout('a', 'R3'),
      rollout('b', 'R1'),
      rollout('c', 'R2'),
    ]);
    const callsOf = (i: number) =>
      (results[i]?.evidence[0]?.calls ?? []).map((c) => [c.role, c.opponent, c.order, c.variant]);
    expect(callsOf(0)).toEqual([
      ['genrm_scores', 'b', 'forward', 0],
      ['genrm_scores', 'b', 'backward', 0],
      ['genrm_scores', 'c', 'forward', 0],
      ['genrm_scores', 'c', 'backward', 0],
    ]);
    expect(callsOf(1)).toEqual([
      ['genrm_scores', 'c', 'forward', 0],
      ['genrm_scores', 'c', 'backward', 0],
    ]);
    expect(callsOf(2)).toEqual([]);
    expect(results[2]?.evidence[0]).not.toHaveProperty('calls');
    // a's first call showed a's response first: the order is the evidence's own.
    expect(results[0]?.evidence[0]?.calls?.[0]?.messages.at(-1)?.content).toMatch(/<response-1-\w+>\nR3/);
    // The calls are kept once, on the evidence, not again inside each match's judgment.
    expect(JSON.stringify(results[0]?.evidence[0]?.detail)).not.toContain('"calls"');
  });

  test('should leave an unreadable match out of the win rate and fail only a rollout with none readable', async () => {
    const results = await evaluatorWith(numberLovingJudge()).evaluateGroup([
      rollout('a', 'R3'),
      rollout('b', 'R1'),
      rollout('c', 'ROTTEN'),
    ]);
    expect(results.map((r) => r.reward)).toEqual([1, 0, null]);
    expect(results[0]?.warnings.join()).toMatch(/1 match\(es\) had no readable verdict/);
    expect(results[2]?.status).toBe('failed');
    expect(results[2]?.errors.join()).toMatch(/no match of this rollout had a readable verdict/);
    expect(results[2]?.evidence[0]?.usage?.calls).toBe(0);
  });

  test('should explain why a lone sample or a sample without a group cannot be compared', async () => {
    const evaluator = evaluatorWith(numberLovingJudge());
    const [alone] = await evaluator.evaluateGroup([rollout('a', 'R3')]);
    expect(alone?.errors.join()).toMatch(/group "g" has only one sample/);
    const loose = await evaluator.evaluate(SampleSchema.parse({ id: 'x', response: 'R1' }));
    expect(loose.errors.join()).toMatch(/the sample has no "group"/);
  });

  test('should refuse to compare rollouts of different prompts', async () => {
    const results = await evaluatorWith(numberLovingJudge()).evaluateGroup([
      rollout('a', 'R3'),
      SampleSchema.parse({ id: 'b', prompt: 'Another prompt.', response: 'R1', group: 'g' }),
    ]);
    expect(results.every((r) => r.status === 'failed')).toBe(true);
    expect(results[0]?.errors.join()).toMatch(/different prompts/);
  });

  test('should keep per-sample specs scoring one sample at a time', () => {
    const evaluator = createEvaluator(parseSpec('sources:\n  - kind: math\n', 'spec.yaml'));
    expect(evaluator.needsGroups).toBe(false);
  });
});

describe('openrs within a group', () => {
  test('should compile to a group check only when asked to compare within the group', () => {
    const spec = (against: string) =>
      createEvaluator(
        parseSpec(`sources:\n  - kind: openrs\n    params: {model: judge, against: ${against}}\n`, 's.yaml'),
      );
    expect(spec('group').needsGroups).toBe(true);
    expect(spec('reference').needsGroups).toBe(false);
  });
});
