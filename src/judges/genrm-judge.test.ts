import { describe, expect, test } from 'vitest';
import type { ChatModel } from '../llm/index.js';
import { createGenrmJudge } from './genrm-judge.js';

describe('createGenrmJudge', () => {
  test('should give a failure that repeats across orders once in the reason', async () => {
    const model: ChatModel = {
      name: 'unreadable',
      complete: async () => ({
        content: 'not json',
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        model: 'unreadable',
        endpoint: 'test',
        latencyMs: 0,
        retries: 0,
      }),
    };
    const judgment = await createGenrmJudge({ model, reasks: 0 }).judge({
      prompt: 'p',
      first: 'a',
      second: 'b',
    });
    expect(judgment.verdict).toBe('invalid');
    expect(judgment.comparisons).toHaveLength(2);
    const reasons = judgment.comparisons.map((c) => c.invalid);
    expect(reasons[0]).toBeDefined();
    expect(reasons[1]).toBe(reasons[0]);
    expect(judgment.reason).toBe(reasons[0]);
  });
});
