import { describe, expect, it } from 'vitest';
import { finishReasonOf } from './chat-model.js';
import { addUsage, usageOf } from './usage-of.js';

const call = (
  promptTokens: number | undefined,
  completionTokens: number | undefined,
  cached = false,
  answeredAt = Date.UTC(2026, 10, 27, 18, 0, 0),
) => ({
  promptTokens,
  completionTokens,
  latencyMs: 10,
  retries: 1,
  cached,
  answeredAt,
});
const at = (second: number) => Date.UTC(2026, 10, 27, 18, 0, second);

describe('usageOf', () => {
  it('sums reported tokens and counts the calls that reported none', () => {
    expect(usageOf([call(10, 5), call(undefined, undefined, true), call(3, 2)])).toEqual({
      calls: 3,
      prompt_tokens: 13,
      completion_tokens: 7,
      latency_ms: 30,
      retries: 3,
      cache_hits: 1,
      unreported_calls: 1,
      first_call_at: '2026-11-27T18:00:00.000Z',
      last_call_at: '2026-11-27T18:00:00.000Z',
    });
  });

  it('spans the calls from the first answer to the last, in any order', () => {
    expect(
      usageOf([call(1, 1, false, at(9)), call(1, 1, false, at(2)), call(1, 1, false, at(5))]),
    ).toMatchObject({
      first_call_at: '2026-11-27T18:00:02.000Z',
      last_call_at: '2026-11-27T18:00:09.000Z',
    });
  });

  it('gives no call times when there were no calls', () => {
    const none = usageOf([]);
    expect(none).not.toHaveProperty('first_call_at');
    expect(none).not.toHaveProperty('last_call_at');
  });

  it('leaves unreported_calls out when every call reported', () => {
    expect(usageOf([call(1, 1)])).not.toHaveProperty('unreported_calls');
  });

  it('adds usages field by field', () => {
    const sum = addUsage(usageOf([call(1, 2)]), usageOf([call(undefined, 4)]));
    expect(sum).toMatchObject({ calls: 2, prompt_tokens: 1, completion_tokens: 6, unreported_calls: 1 });
  });

  it('adds call spans as the earlier first and the later last, keeping one where the other has none', () => {
    const a = usageOf([call(1, 1, false, at(4)), call(1, 1, false, at(6))]);
    const b = usageOf([call(1, 1, false, at(1)), call(1, 1, false, at(5))]);
    expect(addUsage(a, b)).toMatchObject({
      first_call_at: '2026-11-27T18:00:01.000Z',
      last_call_at: '2026-11-27T18:00:06.000Z',
    });
    const { first_call_at: _f, last_call_at: _l, ...untimed } = b;
    expect(addUsage(a, untimed)).toMatchObject({
      first_call_at: a.first_call_at,
      last_call_at: a.last_call_at,
    });
    expect(addUsage(untimed, untimed)).not.toHaveProperty('first_call_at');
  });
});

describe('finishReasonOf', () => {
  it.each([
    ['stop', { finishReason: 'stop' }],
    ['length', { finishReason: 'length' }],
    ['tool_calls', { finishReason: 'tool_calls' }],
    ['content_filter', { finishReason: 'content_filter' }],
    ['max_tokens', { finishReason: 'length', rawFinishReason: 'max_tokens' }],
    ['eos', { finishReason: 'stop', rawFinishReason: 'eos' }],
    ['abort', { finishReason: 'other', rawFinishReason: 'abort' }],
    [null, { finishReason: 'other', rawFinishReason: 'none' }],
  ] as const)('%s -> %o', (raw, expected) => {
    expect(finishReasonOf(raw)).toEqual(expected);
  });
});
