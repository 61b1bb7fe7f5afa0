import { describe, expect, it } from 'vitest';
import { JudgeCallSchema } from '../core/index.js';
import { judgeCallOf, tagCallOrder } from './judge-call-of.js';
import type { CallTrace } from './structured-call.js';

const trace = (over: Partial<CallTrace> = {}): CallTrace => ({
  role: 'genrm_scores',
  messages: [
    { role: 'system', content: 'Judge.' },
    { role: 'user', content: 'Response 1: <script>alert(1)</script>' },
  ],
  raw: '{"score_1": 8, "score_2": 3}',
  parsed: { score_1: 8, score_2: 3 },
  finishReason: 'stop',
  latencyMs: 12.5,
  promptTokens: 40,
  completionTokens: 9,
  retries: 1,
  cached: false,
  answeredAt: Date.UTC(2026, 10, 27, 18, 30, 0, 250),
  ...over,
});

describe('judgeCallOf', () => {
  it('should keep a call in the stored snake_case shape, which the schema reads back unchanged', () => {
    const call = judgeCallOf(trace({ variant: 1, order: 'backward', warnings: ['seed ignored'] }));
    expect(call).toEqual({
      role: 'genrm_scores',
      order: 'backward',
      variant: 1,
      messages: [
        { role: 'system', content: 'Judge.' },
        { role: 'user', content: 'Response 1: <script>alert(1)</script>' },
      ],
      raw: '{"score_1": 8, "score_2": 3}',
      parsed: { score_1: 8, score_2: 3 },
      finish_reason: 'stop',
      latency_ms: 12.5,
      prompt_tokens: 40,
      completion_tokens: 9,
      retries: 1,
      cached: false,
      answered_at: '2026-11-27T18:30:00.250Z',
      warnings: ['seed ignored'],
    });
    expect(JudgeCallSchema.parse(JSON.parse(JSON.stringify(call)))).toEqual(call);
  });

  it('should leave out token counts the backend did not report, never turning them into 0', () => {
    const call = judgeCallOf(trace({ promptTokens: undefined, completionTokens: undefined }));
    expect(call).not.toHaveProperty('prompt_tokens');
    expect(call).not.toHaveProperty('completion_tokens');
    expect(JudgeCallSchema.safeParse({ ...call, prompt_tokens: -1 }).success).toBe(false);
  });

  it('should keep an unreadable call with its parse error and no parsed value', () => {
    const call = judgeCallOf(trace({ raw: 'no', parsed: undefined, parseError: 'not JSON' }));
    expect(call).toMatchObject({ raw: 'no', parse_error: 'not JSON' });
    expect(call).not.toHaveProperty('parsed');
  });

  it('should keep multimodal parts as text and name an inline image by its size, without its bytes', () => {
    const image = `data:image/png;base64,${'A'.repeat(5000)}`;
    const call = judgeCallOf(
      trace({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe the table.' },
              { type: 'image_url', image_url: { url: image } },
              { type: 'image_url', image_url: { url: 'https://example.org/a.png' } },
            ],
          },
        ],
      }),
    );
    expect(call.messages[0]?.content).toBe(
      'Describe the table.\n[image: data:image/png;base64, 5,022 characters, not stored]\n[image: https://example.org/a.png]',
    );
  });

  it('should keep a tool loop: the tools an assistant turn called and the call a tool result answers', () => {
    const call = judgeCallOf(
      trace({
        messages: [
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'view_resource', arguments: { id: 'tests' } }],
          },
          { role: 'tool', toolCallId: 'c1', content: 'assert f(2) == 4' },
        ],
      }),
    );
    expect(call.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', name: 'view_resource', arguments: { id: 'tests' } }],
      },
      { role: 'tool', content: 'assert f(2) == 4', tool_call_id: 'c1' },
    ]);
  });
});

describe('tagCallOrder', () => {
  it('should tag every call with the order it judged, leaving the calls given untouched', () => {
    const calls = [trace(), trace()];
    expect(tagCallOrder('forward', calls).map((c) => c.order)).toEqual(['forward', 'forward']);
    expect(calls[0]).not.toHaveProperty('order');
  });
});
