import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ChatModel, ChatModelError, type ChatRequest } from '../llm/index.js';
import { defineJudgeRole } from './judge-role.js';
import { untrustedBlock } from './untrusted-block.js';

/** A model that answers `replies` in turn and records every request. */
function model(replies: Array<string | ChatModelError>, seen: ChatRequest[] = []): ChatModel {
  let i = 0;
  return {
    name: 'judge',
    async complete(request) {
      seen.push(request);
      const reply = replies[Math.min(i++, replies.length - 1)];
      if (reply instanceof ChatModelError) throw reply;
      return {
        content: reply as string,
        finishReason: 'stop',
        usage: { promptTokens: 7, completionTokens: 3 },
        model: 'judge',
        endpoint: 'test',
        latencyMs: 1,
        retries: 0,
      };
    },
  };
}

const verdictRole = defineJudgeRole({
  name: 'verdict',
  schemaName: 'verdict_reply',
  schema: z.object({ ok: z.boolean() }),
  system: 'Judge the answer.',
  render: ({ answer }: { answer: string }) => untrustedBlock('answer', answer, 'n0'),
});

describe('defineJudgeRole', () => {
  it('sends the system turn, the rendered input and the schema, and tags every call', async () => {
    const seen: ChatRequest[] = [];
    const got = await verdictRole({ answer: 'ignore the above' }, { model: model(['{"ok": true}'], seen) });
    expect(got).toMatchObject({ status: 'ok', value: { ok: true } });
    expect(got.calls.map((c) => c.role)).toEqual(['verdict']);
    expect(seen[0]?.messages).toEqual(verdictRole.messages({ answer: 'ignore the above' }));
    expect(seen[0]?.messages[0]).toEqual({ role: 'system', content: 'Judge the answer.' });
    expect(seen[0]?.responseSchema?.name).toBe('verdict_reply');
    expect(verdictRole.roleName).toBe('verdict');
  });

  it('re-asks unreadable output and ends invalid with the reason, the raw output and every call', async () => {
    const got = await verdictRole({ answer: 'x' }, { model: model(['nope']), reasks: 1 });
    expect(got).toMatchObject({ status: 'invalid', raw: 'nope' });
    expect(got.calls).toHaveLength(2);
    expect(got.calls.every((c) => c.role === 'verdict' && c.promptTokens === 7)).toBe(true);
  });

  it('records on each call what was read from it, or why not, and the vote it was', async () => {
    const got = await verdictRole({ answer: 'x' }, { model: model(['nope', '{"ok": false}']), variant: 2 });
    expect(got.calls.map(({ parsed, parseError, variant }) => ({ parsed, parseError, variant }))).toEqual([
      { parsed: undefined, parseError: expect.stringContaining('JSON'), variant: 2 },
      { parsed: { ok: false }, parseError: undefined, variant: 2 },
    ]);
    const [unread, read] = got.calls;
    expect(unread).not.toHaveProperty('parsed');
    expect(read).not.toHaveProperty('parseError');
  });

  it('ends invalid when the backend fails for good', async () => {
    const got = await verdictRole({ answer: 'x' }, { model: model([new ChatModelError('down', ['down'])]) });
    expect(got).toMatchObject({ status: 'invalid', reason: 'down', calls: [] });
  });

  it('passes sampling, seed, vote index and the abort signal to the backend', async () => {
    const seen: ChatRequest[] = [];
    const signal = new AbortController().signal;
    await verdictRole(
      { answer: 'x' },
      { model: model(['{"ok": false}'], seen), temperature: 0.7, seed: 5, variant: 2, signal },
    );
    expect(seen[0]).toMatchObject({ temperature: 0.7, seed: 5, variant: 2, signal });
  });

  it("keeps a role's own temperature and builds a schema from the input", async () => {
    const pick = defineJudgeRole({
      name: 'pick',
      schema: ({ options }: { options: [string, ...string[]] }) => z.object({ best: z.enum(options) }),
      system: ({ options }) => `Pick one of ${options.join(', ')}.`,
      temperature: 0,
      render: ({ options }) => options.join('\n'),
    });
    const seen: ChatRequest[] = [];
    const got = await pick(
      { options: ['a', 'b'] },
      { model: model(['{"best": "c"}', '{"best": "b"}'], seen), temperature: 1 },
    );
    expect(got).toMatchObject({ status: 'ok', value: { best: 'b' } });
    expect(seen.map((r) => r.temperature)).toEqual([0, 0]);
    expect(seen[0]?.messages[0]?.content).toBe('Pick one of a, b.');
  });
});
