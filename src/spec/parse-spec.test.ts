import { describe, expect, test } from 'vitest';
import { RewardKitError } from '../core/index.js';
import { loadSpec, parseSpec, safeParseSpec } from './parse-spec.js';
import { presetNames } from './presets.js';
import { SpecError } from './spec-error.js';

function issuesOf(text: string) {
  const result = safeParseSpec(text, 'spec.yaml');
  if (result.success) throw new Error('expected the spec to be invalid');
  return result.error;
}

describe('parseSpec', () => {
  test('should fill defaults for a leaf spec', () => {
    const spec = parseSpec('sources:\n  - kind: math\n', 'spec.yaml');
    expect(spec.routes).toEqual([]);
    expect(spec.default).toMatchObject({
      aggregate: 'weighted_mean',
      veto_reward: 0,
      on_error: 'fail',
      sources: [{ kind: 'math', weight: 1, veto: false, timeout_ms: 60000, params: { timeout_ms: 2000 } }],
    });
  });

  test('should resolve presets inside routes into inline leaf specs', () => {
    const spec = parseSpec(
      'routes:\n  - data_source: [gsm8k, "math*"]\n    spec: math\ndefault: reference\n',
      'r.yaml',
    );
    expect(spec.routes[0]?.data_source).toEqual(['gsm8k', 'math*']);
    expect(spec.routes[0]?.spec.sources[0]?.kind).toBe('math');
    expect(spec.default?.sources.map((s) => s.name)).toEqual(['exact_match', 'token_f1']);
  });

  test('should report every problem at once with path, line and column', () => {
    const error = issuesOf(
      [
        'sources:',
        '  - kind: mathh', // line 2
        '  - kind: regex', // line 3
        '    params:',
        '      pattern: 5', // line 5
        '  - kind: length',
        '    weight: -1', // line 7
        '    params: {max: 10}',
        'aggregate: median', // line 9
      ].join('\n'),
    );
    expect(error).toBeInstanceOf(SpecError);
    expect(error.issues.map((i) => [i.code, i.path.join('.'), i.position?.line])).toEqual([
      ['unknown_kind', 'sources.0.kind', 2],
      ['params', 'sources.1.params.pattern', 5],
      ['schema', 'sources.2.weight', 7],
      ['schema', 'aggregate', 9],
    ]);
    expect(error.message).toContain('Unknown source kind "mathh" (did you mean "math"?)');
  });

  test('should report a kind typo in a route together with a bad weight', () => {
    const error = issuesOf(
      [
        'routes:',
        '  - data_source: gsm8k',
        '    spec:',
        '      sources:',
        '        - kind: mathh', // line 5
        '          weight: -2', // line 6
        'default: math',
      ].join('\n'),
    );
    expect(error.issues.map((i) => [i.code, i.path.join('.'), i.position?.line])).toEqual([
      ['unknown_kind', 'routes.0.spec.sources.0.kind', 5],
      ['schema', 'routes.0.spec.sources.0.weight', 6],
    ]);
  });

  test('should check kinds and params once the document shape is valid', () => {
    const error = issuesOf('sources:\n  - kind: mathh\n  - kind: regex\n    params:\n      pattern: 5\n');
    expect(error.issues.map((i) => [i.code, i.path.join('.'), i.position?.line])).toEqual([
      ['unknown_kind', 'sources.0.kind', 2],
      ['params', 'sources.1.params.pattern', 5],
    ]);
    expect(error.message).toContain('Unknown source kind "mathh" (did you mean "math"?)');
    expect(error.message).toContain('→ at sources[1].params.pattern (spec.yaml:5:16)');
  });

  test.each([
    ['sources: [\n', 'invalid_yaml'],
    ['sources: []\n', 'schema'],
    ['sources:\n  - kind: math\n    extra: 1\n', 'schema'],
    ['sources:\n  - kind: math\n  - kind: math\n', 'duplicate_source'],
    ['routes:\n  - data_source: x\n    spec: maths\n', 'unknown_preset'],
    ['routes:\n  - data_source: x\n    spec: default\n', 'unknown_preset'],
    ['sources:\n  - kind: math\n    weight: 0\n', 'schema'],
    ['sources:\n  - kind: length\n    params: {unit: words}\n', 'params'],
    ['sources:\n  - kind: math\nclamp: [1, 0]\n', 'schema'],
    ['- just\n- a list\n', 'schema'],
  ])('should reject %j with a %s issue', (text, code) => {
    expect(issuesOf(text).issues[0]?.code).toBe(code);
  });

  test('should render issues with the file name', () => {
    const error = issuesOf('sources:\n  - kind: math\n    weight: "heavy"\n');
    expect(error.message).toMatchInlineSnapshot(`
      "Invalid reward spec spec.yaml (1 problem):
      ✖ Invalid input: expected number, received string
        → at sources[0].weight (spec.yaml:3:13)"
    `);
  });
});

describe('loadSpec', () => {
  test.each(presetNames())('should load the built-in preset %s', (name) => {
    const spec = loadSpec(name);
    expect(spec.default ?? spec.routes[0]).toBeDefined();
  });

  test('should name the presets and suggest one for an unknown name', () => {
    expect(() => loadSpec('mth')).toThrow(
      /Unknown preset "mth" \(did you mean "math"\?\)\. Built-in presets: code, default, ifeval, math, reference/,
    );
    try {
      loadSpec('nope');
    } catch (error) {
      expect(RewardKitError.isInstance(error) && error.code).toBe('RK_UNKNOWN_PRESET');
    }
  });

  test('should say when a spec file does not exist', () => {
    expect(() => loadSpec('missing/spec.yaml')).toThrow('Spec file not found: missing/spec.yaml');
  });
});
