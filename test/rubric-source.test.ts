import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { createRewardApp } from '../src/server/create-reward-app.js';
import { createEvaluator, loadSpec, parseSpec, type ResolvedSpec } from '../src/spec/index.js';
import { createCodeSandbox } from '../src/verify/code/index.js';
import { tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();
const models = () =>
  new Map([
    [
      'judge',
      createOpenAICompatibleModel({
        name: 'judge',
        model: 'judge-model',
        endpoints: [{ baseURL: server.url }],
        maxRetries: 0,
      }),
    ],
  ]);
const grades = (...rows: Array<[string, number | string]>) =>
  JSON.stringify({ grades: rows.map(([id, grade]) => ({ id, reason: 'r', grade })) });

const SPEC = `name: graded
sources:
  - kind: rubric
    params:
      model: judge
      rubric:
        mode: criteria
        criteria:
          - name: correct
            description: gives the right answer
            weight: 3
          - name: brief
            description: answers in one sentence
            weight: 1
`;

const problemsOf = (text: string, file = 'spec.yaml') => {
  try {
    parseSpec(text, file);
  } catch (error) {
    return (error as Error).message;
  }
  return 'parsed';
};

describe('kind: rubric in a spec', () => {
  test('should score a sample against the inline rubric', async () => {
    server.script({ reply: { content: grades(['c1', 10], ['c2', 0]) } });
    const evaluator = createEvaluator(parseSpec(SPEC, 'spec.yaml'), { models: models() });
    try {
      const result = await evaluator.evaluate({
        id: 's',
        prompt: 'What is 2+2?',
        response: '4',
        metadata: {},
      });
      expect(result.reward).toBeCloseTo(0.75, 12);
      expect(result.evidence[0]).toMatchObject({
        verdict: 'pass',
        reason: 'criteria, weighted_mean: correct 1, brief 0',
        detail: { rubric_from: 'spec', mode: 'criteria' },
      });
    } finally {
      await evaluator.close();
    }
  });

  test.each([
    [
      'weights under min',
      SPEC.replace('        criteria:', '        aggregate: min\n        criteria:'),
      'weights have no effect under aggregate "min"; remove them or use weighted_mean\n  → at sources[0].params.rubric.criteria[0].weight (spec.yaml:12:21)',
    ],
    [
      'a zero weight',
      SPEC.replace('weight: 3', 'weight: 0'),
      '→ at sources[0].params.rubric.criteria[0].weight (spec.yaml:11:21)',
    ],
    [
      'an unknown mode',
      SPEC.replace('mode: criteria', 'mode: scorecard'),
      "Invalid discriminator value. Expected 'criteria' | 'checklist' | 'likert' | 'reference'\n  → at sources[0].params.rubric.mode (spec.yaml:7:15)",
    ],
    [
      'no criteria',
      'sources:\n  - kind: rubric\n    params:\n      model: judge\n      rubric: {mode: checklist, items: []}\n',
      'a checklist needs at least one item\n  → at sources[0].params.rubric.items (spec.yaml:5:40)',
    ],
    [
      'weights that miss their total',
      SPEC.replace('        criteria:', '        total: 10\n        criteria:'),
      'the weights add up to 4, not to total 10\n  → at sources[0].params.rubric.total (spec.yaml:8:16)',
    ],
  ])('should refuse %s before any call, naming file:line:field', (_name, text, expected) => {
    expect(problemsOf(text)).toContain(expected);
    expect(server.requests).toHaveLength(0);
  });

  test('should read rubric_file relative to the spec and carry the rubric in the resolved spec', () => {
    const dir = join(tempDir(), 'specs');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'checklist.yaml'),
      'mode: checklist\nitems:\n  - name: unit\n    description: Does it give a unit?\n',
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: rubric\n    params: {model: judge, rubric_file: checklist.yaml}\n',
    );
    const spec: ResolvedSpec = loadSpec(join(dir, 'spec.yaml'));
    const params = spec.default?.sources[0]?.params;
    expect(params).not.toHaveProperty('rubric_file');
    expect(params).toMatchObject({
      rubric: { mode: 'checklist', aggregate: 'all_must_pass', items: [{ name: 'unit' }] },
    });
    // The resolved spec is self-contained: parsed again, as the store reads it back, it is the same.
    expect(parseSpec(JSON.stringify(spec.default), 'stored').default?.sources[0]?.params).toEqual(params);
  });

  test("should name the rubric file's line and field and the spec's param when the file is bad", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'bad.yaml'),
      'mode: criteria\ncriteria:\n  - name: a\n    description: x\n    weight: -2\n',
    );
    const message = problemsOf(
      'sources:\n  - kind: rubric\n    params:\n      model: judge\n      rubric_file: bad.yaml\n',
      join(dir, 'spec.yaml'),
    );
    expect(message).toContain(
      `${join(dir, 'bad.yaml')}:5: field "criteria.0.weight": Too small: expected number to be >0`,
    );
    expect(message).toContain(`→ at sources[0].params.rubric_file (${join(dir, 'spec.yaml')}:5:20)`);
  });

  test('should refuse a rubric both inline and in a file', () => {
    expect(
      problemsOf(SPEC.replace('      model: judge\n', '      model: judge\n      rubric_file: r.yaml\n')),
    ).toContain('give the rubric inline (rubric) or in a file (rubric_file), not both');
  });

  test("should fail only the sample whose own rubric is bad, naming the field, and use a good sample's own rubric", async () => {
    server.script({ reply: { content: grades(['c1', 'yes']) } });
    const evaluator = createEvaluator(parseSpec(SPEC, 'spec.yaml'), { models: models() });
    try {
      const bad = await evaluator.evaluate({
        id: 'bad',
        response: 'x',
        metadata: { rubric: { mode: 'criteria', criteria: [{ name: 'a', description: 'b', weight: 0 }] } },
      });
      expect(bad.status).toBe('failed');
      expect(bad.reward).toBeNull();
      expect(bad.evidence[0]?.reason).toContain(
        'metadata.rubric is not a valid rubric: field "metadata.rubric.criteria.0.weight": Too small',
      );
      expect(server.requests).toHaveLength(0);
      const own = await evaluator.evaluate({
        id: 'own',
        response: 'x',
        metadata: { rubric: { mode: 'checklist', items: [{ name: 'q', description: 'Is it x?' }] } },
      });
      expect(own).toMatchObject({
        status: 'ok',
        reward: 1,
        evidence: [{ detail: { rubric_from: 'sample' } }],
      });
      expect(String(server.requests[0]?.body.messages?.[1]?.content)).toContain('[c1] q: Is it x?');
    } finally {
      await evaluator.close();
    }
  });

  test('should fail a sample with no rubric anywhere, naming where one goes', async () => {
    const evaluator = createEvaluator(
      parseSpec('sources:\n  - kind: rubric\n    params: {model: judge}\n', 's.yaml'),
      {
        models: models(),
      },
    );
    try {
      const result = await evaluator.evaluate({ id: 'n', response: 'x', metadata: {} });
      expect(result.status).toBe('failed');
      expect(result.evidence[0]?.reason).toContain('put one in metadata.rubric');
    } finally {
      await evaluator.close();
    }
  });
});

describe('kind: rubric behind the server', () => {
  test('should answer POST /v1/rewards with the rubric reward, and a failed sample without a score', async () => {
    server.script(
      { match: { contains: 'Paris' }, reply: { content: grades(['c1', 10], ['c2', 10]) } },
      { reply: { content: 'unreadable' } },
    );
    const evaluator = createEvaluator(
      parseSpec(SPEC.replace('      model: judge\n', '      model: judge\n      reasks: 0\n'), 'spec.yaml'),
      { models: models() },
    );
    const { app } = createRewardApp({ evaluator, codeSandbox: () => createCodeSandbox() });
    try {
      const res = await app.request('http://localhost/v1/rewards', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          samples: [
            { id: 'a', prompt: 'Capital of France?', response: 'Paris.' },
            { id: 'b', prompt: 'Capital of Peru?', response: 'Lima.' },
          ],
        }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        results: Array<{ id: string; reward: number | null; status: string }>;
      };
      expect(body.results.map((r) => [r.id, r.status, r.reward])).toEqual([
        ['a', 'ok', 1],
        ['b', 'failed', null],
      ]);
    } finally {
      await evaluator.close();
    }
  });
});
