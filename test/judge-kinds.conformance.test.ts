import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import type { Sample } from '../src/core/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import {
  createEvaluator,
  isJudgeKind,
  type JudgeKind,
  parseSpec,
  type SourceFailedError,
  sourceKinds,
} from '../src/spec/index.js';
import { repoRoot } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';
import { tracedCalls } from './traced-calls.js';

/**
 * What every judge kind must do, whatever it judges: documented params that validate with their
 * defaults, unreadable model output ending as a failed sample with the reason, its usage and its
 * calls kept,
 * the abort signal reaching every call, and usage that adds up to what the server was asked.
 * A new judge kind gets a sample here and passes the same tests.
 */
const inlineRubric = JSON.parse(
  readFileSync(join(repoRoot, 'examples/medical-rows.jsonl'), 'utf8').trim().split('\n')[2] as string,
).metadata.rubric;
const samples: Record<string, Sample> = {
  genrm: {
    id: 'g',
    prompt: 'Write a line about rain.',
    response: 'Rain taps the roof.',
    reference: 'Rain falls.',
    metadata: {},
  },
  openrs: {
    id: 'o',
    prompt: 'Write a line about rain.',
    response: 'Rain taps the roof.',
    reference: 'Rain falls.',
    metadata: {},
  },
  medical_rubric: {
    id: 'm',
    prompt: 'Can I take ibuprofen with a cold?',
    response: 'Usually yes, at the package dose.',
    metadata: { rubric: inlineRubric },
  },
  rubric: {
    id: 'r',
    prompt: 'Write a line about rain.',
    response: 'Rain taps the roof.',
    reference: 'Rain falls.',
    metadata: {
      rubric: {
        mode: 'criteria',
        criteria: [
          { name: 'imagery', description: 'Uses a concrete image' },
          { name: 'brevity', description: 'Is one line' },
        ],
      },
    },
  },
  claims: {
    id: 'c',
    prompt: 'What is the capital of France?',
    response: 'The capital of France is Paris, with 2.1 million people.',
    metadata: { documents: ['Paris is the capital of France; about 2.1 million people live there.'] },
  },
  tool_plan: {
    id: 't',
    prompt: 'How do I recognise a red panda?',
    response: 'Red pandas are small.\n<image_search>red panda</image_search>\nLook at the ringed tail.',
    metadata: { doc: ['Red pandas have a ringed tail.'], images: [] },
  },
  evpv: {
    id: 'e',
    prompt: 'How many apples are on the table?',
    response:
      '<step>I count 9 apples.\n<visual_dependency>apples: 9</visual_dependency></step>\n<step>So 9.</step>',
    metadata: { constraints: { caption: 'A table with 9 apples.', key_facts: ['apples: 9'] } },
  },
  skill_rm: {
    id: 's',
    prompt: 'What is 6 times 7?',
    response: 'The answer is 42.',
    reference: '42',
    metadata: { data_source: 'arith' },
  },
};

/** A row in each judge's own benchmark format, for the kinds that declare one (`rows`). */
const benchmarkRows: Record<string, unknown> = {
  medical_rubric: {
    id: 'm',
    prompt: 'Can I take ibuprofen with a cold?',
    response: 'Usually yes.',
    rubric: inlineRubric,
  },
  claims: {
    id: 'c',
    question: 'What is the capital of France?',
    documents: ['Paris is the capital of France.'],
    answer: 'The capital of France is Paris.',
  },
  tool_plan: {
    trace_id: 't',
    category: 'travel',
    query: 'How do I recognise a red panda?',
    image_query: null,
    doc: ['Red pandas have a ringed tail.'],
    images: [],
    gt: 'hidden',
    response: 'Red pandas are small.\n<image_search>red panda</image_search>\nLook at the ringed tail.',
  },
};

const judgeKinds = [...sourceKinds.values()].filter(isJudgeKind);

const server = scriptedServerPerTest();

const model = () =>
  createOpenAICompatibleModel({
    name: 'judge',
    model: 'judge-model',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });

function evaluatorFor(kind: JudgeKind) {
  const spec = parseSpec(
    JSON.stringify({ sources: [{ kind: kind.kind, params: { model: 'judge', reasks: 0 } }] }),
    'conformance',
  );
  return createEvaluator(spec, { models: new Map([['judge', model()]]) });
}

describe('every judge kind', () => {
  test('should be covered here (a new judge kind needs a sample above, and a row if it has a format)', () => {
    expect(judgeKinds.map((k) => k.kind).sort()).toEqual(Object.keys(samples).sort());
    expect(
      judgeKinds
        .filter((k) => k.rows)
        .map((k) => k.kind)
        .sort(),
    ).toEqual(Object.keys(benchmarkRows).sort());
  });

  describe.each(
    judgeKinds.filter((kind) => kind.rows).map((kind) => [kind.rows?.command.join(' '), kind] as const),
  )('row command %s', (_name, kind) => {
    const rows = kind.rows as NonNullable<JudgeKind['rows']>;
    test("should judge its benchmark's row with the kind's check, and write an unreadable judgment as a failed line with its cost", async () => {
      server.script({
        reply: { content: 'I would rather not say.', usage: { prompt_tokens: 7, completion_tokens: 3 } },
      });
      const row = rows.schema.parse(benchmarkRows[kind.kind]);
      expect(rows.idOf(row)).toBe(
        kind.kind === 'tool_plan' ? 't' : (benchmarkRows[kind.kind] as { id: string }).id,
      );
      const check = kind.create(kind.params.parse({ model: 'judge', reasks: 0 }));
      const services = {
        model: () => model(),
        codeSandbox: () => {
          throw new Error('no code');
        },
      };
      const judged = await Promise.resolve(
        check(rows.sample(row), { services, signal: new AbortController().signal }),
      ).then(
        (outcome) => ({ detail: outcome.detail, usage: outcome.usage }),
        (error: SourceFailedError) => ({ detail: error.trace.detail, usage: error.trace.usage }),
      );
      const line = rows.line(judged, row);
      const calls = server.requests.length;
      expect(calls).toBeGreaterThan(0);
      expect(line.error).toEqual(expect.any(String));
      expect(line).toMatchObject({ calls, tokens: 10 * calls, usage: { calls } });
      // Untrusted fields the judge must not see stay out of every request (ATP-Bench's gold).
      expect(JSON.stringify(server.requests)).not.toContain('hidden');
    });
  });

  describe.each(judgeKinds.map((kind) => [kind.kind, kind] as const))('%s', (_name, kind) => {
    test('should validate params with only a model, filling the defaults, and document every param', () => {
      const parsed = kind.params.safeParse({ model: 'judge' });
      expect(parsed.success).toBe(true);
      const shape = (kind.params as unknown as z.ZodObject).shape;
      const undocumented = Object.entries(shape)
        .filter(([, schema]) => {
          let s = schema as z.ZodType & { _zod: { def: { innerType?: z.ZodType } } };
          while (s.description === undefined && s._zod.def.innerType) s = s._zod.def.innerType as typeof s;
          return s.description === undefined;
        })
        .map(([key]) => key);
      expect(undocumented).toEqual([]);
      expect(kind.judge.examples.length).toBeGreaterThan(0);
    });

    test('should fail the sample with the reason and keep the usage when the model never answers readably', async () => {
      server.script({
        reply: { content: 'I would rather not say.', usage: { prompt_tokens: 7, completion_tokens: 3 } },
      });
      const evaluator = evaluatorFor(kind);
      try {
        const result = await evaluator.evaluate(samples[kind.kind] as Sample);
        expect(result.status).toBe('failed');
        expect(result.reward).toBeNull();
        const evidence = result.evidence[0];
        expect(evidence?.invalid).toBe(true);
        expect(evidence?.reason).toBeTruthy();
        // Usage adds up to exactly what the server was asked: every call counted, none invented.
        const calls = server.requests.length;
        expect(calls).toBeGreaterThan(0);
        expect(evidence?.usage).toMatchObject({
          calls,
          prompt_tokens: 7 * calls,
          completion_tokens: 3 * calls,
        });
        // And every call is kept with the failed judgment: its role, what was sent, what came back.
        const traced = tracedCalls(evidence);
        expect(traced.every((c) => c.raw === 'I would rather not say.' && c.prompt_tokens === 7)).toBe(true);
        const sent = (messages: ReadonlyArray<{ content: unknown }> = []) =>
          messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
        expect(traced.map((c) => sent(c.messages)).sort()).toEqual(
          server.requests.map((r) => sent(r.body.messages)).sort(),
        );
      } finally {
        await evaluator.close();
      }
    });

    test('should pass the abort signal to every call: an abort ends a hung judgment', async () => {
      server.script({ reply: { hang: true } });
      const evaluator = evaluatorFor(kind);
      const controller = new AbortController();
      try {
        const pending = evaluator.evaluate(samples[kind.kind] as Sample, { signal: controller.signal });
        await expect.poll(() => server.requests.length).toBeGreaterThan(0);
        const asked = server.requests.length;
        controller.abort();
        const settled = await pending.then(
          (result) => result,
          (error: unknown) => error,
        );
        expect(settled).toBeDefined();
        // Nothing is asked after the abort.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(server.requests.length).toBe(asked);
      } finally {
        await evaluator.close();
      }
    });
  });
});
