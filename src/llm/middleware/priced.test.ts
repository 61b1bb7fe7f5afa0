import { describe, expect, test } from 'vitest';
import type { ChatModel, ChatResponse } from '../chat-model.js';
import { callUsageOf, usageOf } from '../usage-of.js';
import { costOf, priced } from './priced.js';

const response = (promptTokens: number | undefined, completionTokens: number | undefined): ChatResponse => ({
  content: 'ok',
  finishReason: 'stop',
  usage: { promptTokens, completionTokens },
  model: 'm',
  endpoint: 'e',
  latencyMs: 1,
  retries: 0,
});

describe('costOf', () => {
  test.each([
    // $3 in and $15 out per million tokens.
    [1_000_000, 0, 3],
    [0, 1_000_000, 15],
    [10, 5, 0.000105],
    [200_000, 50_000, 1.35],
  ])('should price %i tokens in and %i out at $%d', (input, output, usd) => {
    expect(costOf(response(input, output), { input: 3, output: 15 })).toBeCloseTo(usd, 12);
  });

  test('should give no cost when the backend reported no token counts, rather than price zero tokens', () => {
    expect(costOf(response(undefined, 5), { input: 3, output: 15 })).toBeUndefined();
    expect(costOf(response(10, undefined), { input: 3, output: 15 })).toBeUndefined();
  });
});

describe('priced', () => {
  const backend = (r: ChatResponse): ChatModel => ({ name: 'judge', complete: async () => r });

  test("should put the cost on each answer, and usage should sum it, a cache hit's as free", async () => {
    const model = priced({ input: 3, output: 15 })(backend(response(10, 5)));
    const answer = await model.complete({ messages: [] });
    expect(answer.costUsd).toBeCloseTo(0.000105, 12);
    const hit = { ...answer, cached: true };
    const usage = usageOf([callUsageOf(answer), callUsageOf(answer), callUsageOf(hit)]);
    expect(usage.cost_usd).toBeCloseTo(0.00021, 12);
    expect(usage.cache_hits).toBe(1);
  });

  test('should leave cost_usd out of the usage of calls that had no price', () => {
    expect(usageOf([callUsageOf(response(10, 5))])).not.toHaveProperty('cost_usd');
  });
});
