import { describe, expect, test } from 'vitest';
import { RewardKitError, SampleSchema } from '../src/core/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import type { SourceContext } from '../src/spec/index.js';
import { sourceKinds } from '../src/spec/source-kinds.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const context = (): SourceContext => ({
  services: {
    model: (name) =>
      createOpenAICompatibleModel({
        name,
        model: name,
        endpoints: [{ baseURL: server.url }],
        backoffBaseMs: 1,
        maxRetries: 0,
      }),
    codeSandbox: () => {
      throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'none');
    },
  },
  signal: new AbortController().signal,
});

const kind = sourceKinds.get('proxy_grm');
const check = (params: Record<string, unknown> = {}) =>
  kind?.create(kind.params.parse({ proxy_model: 'proxy', ...params })) as NonNullable<
    ReturnType<NonNullable<typeof kind>['create']>
  >;

const sample = (
  response: string,
  metadata: Record<string, unknown> = { first: 'GOOD', second: 'BAD', label: 'first' },
) => SampleSchema.parse({ id: 's', prompt: 'PROMPT-TEXT', response, metadata });
const OUTPUT = '<rubric>RUBRIC-TEXT</rubric>\n<evaluation>EVALUATION-SECRET</evaluation>\n<answer>1</answer>';

/** The proxy prefers GOOD wherever it is shown. */
const proxyPrefersGood = () =>
  server.script(
    {
      match: { contains: /Response 1:\n<response-1-\w+>\nGOOD/ },
      reply: { content: JSON.stringify({ reason: 'r', preferred: 1 }) },
    },
    { reply: { content: JSON.stringify({ reason: 'r', preferred: 2 }) } },
  );

describe('proxy_grm source kind', () => {
  test('should reward a right answer from a rubric the proxy reads right, and show the proxy only the rubric', async () => {
    proxyPrefersGood();
    const outcome = await check()(sample(OUTPUT), context());
    expect(outcome.detail).toMatchObject({ terms: { acc: 1, proxy: 1, format: 1 }, reward: 2.5 });
    expect(outcome.score).toBe(1);
    expect(outcome.verdict).toBe('pass');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const text = JSON.stringify(request.body.messages);
      for (const shown of ['RUBRIC-TEXT', 'PROMPT-TEXT', 'GOOD', 'BAD']) expect(text).toContain(shown);
      expect(text).not.toContain('EVALUATION-SECRET');
      expect(text).not.toContain('<answer>');
    }
  });

  test('should score a hedged answer as acc -1 (judges.md: label 1, answer "1 or 2") and keep the raw reward with scale raw', async () => {
    proxyPrefersGood();
    const outcome = await check({ scale: 'raw' })(
      sample(OUTPUT.replace('<answer>1', '<answer>1 or 2')),
      context(),
    );
    expect(outcome.detail).toMatchObject({ terms: { acc: -1, proxy: 1, format: 1 } });
    expect(outcome.score).toBe(0.5);
  });

  test('should make a proxy that never answered 0, with a warning, not -1', async () => {
    server.script({ reply: { status: 503 } });
    const outcome = await check({ combiner: 'gated_strict', scale: 'raw' })(sample(OUTPUT), context());
    expect(outcome.detail).toMatchObject({ terms: { acc: 1, proxy: 0, format: 1 } });
    expect(outcome.score).toBe(1.5);
    expect(outcome.warnings?.[0]).toMatch(/never answered/);
  });

  test('should not call the proxy without a rubric block, and score its term -1', async () => {
    const outcome = await check({ scale: 'raw' })(sample('<answer>1</answer>'), context());
    expect(outcome.detail).toMatchObject({ terms: { acc: 1, proxy: -1, format: 0 } });
    expect(server.requests).toHaveLength(0);
  });

  test('should explain a sample without its pair', async () => {
    await expect(check()(sample(OUTPUT, { first: 'GOOD' }), context())).rejects.toThrow(/metadata\.second/);
  });
});
