import { describe, expect, test } from 'vitest';
import { SampleSchema } from '../../core/index.js';
import { createEvaluator } from '../evaluator.js';
import { parseSpec } from '../parse-spec.js';

const evaluate = (yaml: string, response: string, reference: string) =>
  createEvaluator(parseSpec(yaml, 't.yaml')).evaluate(SampleSchema.parse({ id: 's', response, reference }));

describe('math source', () => {
  test('scores an undecided comparison 0 by default, with the reason recorded', async () => {
    const result = await evaluate('sources:\n  - {kind: math}\n', '\\boxed{\\sqrt{x}}', '\\sqrt{-x}');
    expect(result).toMatchObject({ status: 'ok', reward: 0 });
    expect(result.evidence[0]).toMatchObject({
      verdict: 'abstain',
      reason: expect.stringMatching(/could not decide/),
    });
    expect(result.warnings).toEqual([expect.stringMatching(/undecided, scored 0: could not decide/)]);
  });

  test('leaves an undecided comparison to the spec on_error policy on request', async () => {
    const failing = await evaluate(
      'sources:\n  - {kind: math, params: {on_undecided: error}}\n',
      '\\boxed{\\sqrt{x}}',
      '\\sqrt{-x}',
    );
    expect(failing).toMatchObject({ status: 'failed', reward: null });
    expect(failing.errors[0]).toMatch(/could not decide/);
    const valued = await evaluate(
      'sources:\n  - {kind: math, params: {on_undecided: {value: 0.5}}}\n',
      '\\boxed{\\sqrt{x}}',
      '\\sqrt{-x}',
    );
    expect(valued.reward).toBe(0.5);
  });

  test('passes every option to the verifier', async () => {
    const spec = (params: string) => `sources:\n  - {kind: math, params: {${params}}}\n`;
    expect((await evaluate(spec(''), '\\boxed{3} \\boxed{4}', '4')).reward).toBe(0);
    expect((await evaluate(spec('multiple_answers: last'), '\\boxed{3} \\boxed{4}', '4')).reward).toBe(1);
    expect((await evaluate(spec('relative_tolerance: 0.001'), '\\boxed{33.33}', '33.333')).reward).toBe(1);
    expect((await evaluate(spec('precision: 4'), '\\boxed{0.3333}', '1/3')).reward).toBe(1);
    expect((await evaluate(spec('percent_aware: false'), '\\boxed{50\\%}', '0.5')).reward).toBe(0);
    expect((await evaluate(spec('relations: relation'), '\\boxed{x \\ge 5}', '[5, \\infty)')).reward).toBe(0);
    expect((await evaluate(spec('variables: strict'), '\\boxed{y = 3}', 'x = 3')).reward).toBe(0);
    expect((await evaluate(spec('last_number_fallback: false'), 'it is 7 then', '7')).reward).toBe(0);
  });

  test('names an unknown option', () => {
    expect(() =>
      parseSpec('sources:\n  - {kind: math, params: {multiple_answer: last}}\n', 't.yaml'),
    ).toThrow(/multiple_answer/);
  });
});
