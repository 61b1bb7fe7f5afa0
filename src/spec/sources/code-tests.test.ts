import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RewardKitError, SampleSchema } from '../../core/index.js';
import { createCodeSandbox, verifyCode } from '../../verify/code/index.js';
import { codeTestsOf } from './code-tests.js';

const sampleOf = (fields: { reference?: string | string[]; metadata?: Record<string, unknown> }) =>
  SampleSchema.parse({ id: 's', response: '', ...fields });

describe('codeTestsOf', () => {
  test("should read verl's stdin/stdout ground_truth JSON from the reference (prime_code, sandbox_fusion)", () => {
    const reference = JSON.stringify({ inputs: ['1 2\n', ['3', '4']], outputs: ['3\n', ['7']] });
    expect(codeTestsOf(sampleOf({ reference }))).toEqual([
      { kind: 'stdio', stdin: '1 2\n', expected_stdout: '3\n' },
      { kind: 'stdio', stdin: '3\n4', expected_stdout: '7' },
    ]);
  });

  test('should read an empty or null fn_name as stdin/stdout pairs', () => {
    for (const fn_name of ['', null]) {
      expect(
        codeTestsOf(sampleOf({ reference: JSON.stringify({ fn_name, inputs: ['1'], outputs: ['2'] }) })),
      ).toEqual([{ kind: 'stdio', stdin: '1', expected_stdout: '2' }]);
    }
  });

  test('should prefer the metadata to the reference', () => {
    const tests = codeTestsOf(
      sampleOf({
        reference: JSON.stringify({ inputs: ['x'], outputs: ['y'] }),
        metadata: { input_output: { inputs: ['a'], outputs: ['b'] } },
      }),
    );
    expect(tests).toEqual([{ kind: 'stdio', stdin: 'a', expected_stdout: 'b' }]);
  });

  test('should read MBPP test_list asserts after their imports and setup, from metadata or reference', () => {
    const mbpp = {
      test_list: ['assert f(1) == 2', 'assert f(2) == 3'],
      test_setup_code: 'BASE = 1',
      test_imports: ['import math'],
    };
    const expected = [
      { kind: 'assert', code: 'import math\nBASE = 1\nassert f(1) == 2' },
      { kind: 'assert', code: 'import math\nBASE = 1\nassert f(2) == 3' },
    ];
    expect(codeTestsOf(sampleOf({ metadata: mbpp }))).toEqual(expected);
    expect(codeTestsOf(sampleOf({ reference: JSON.stringify(mbpp) }))).toEqual(expected);
    expect(codeTestsOf(sampleOf({ metadata: { test_list: ['assert g()'] } }))).toEqual([
      { kind: 'assert', code: 'assert g()' },
    ]);
  });

  test("should read sandbox_fusion's assert_case, skipping empty cases", () => {
    const reference = JSON.stringify({
      assert_case: ['assert f() == 1', ''],
      inputs: ['', ''],
      outputs: [null, null],
    });
    expect(codeTestsOf(sampleOf({ reference }))).toEqual([{ kind: 'assert', code: 'assert f() == 1' }]);
  });

  test('should make fn_name pairs call-based assert tests', () => {
    const [test1] = codeTestsOf(
      sampleOf({ reference: JSON.stringify({ fn_name: 'add', inputs: ['1\n2'], outputs: ['3'] }) }),
    );
    expect(test1?.kind).toBe('assert');
    expect(test1?.kind === 'assert' && test1.code).toContain('_args = _json.loads("[1,2]")');
  });

  test.each([
    [{ reference: '{"inputs": ["1"]' }, /^reference: not valid JSON/],
    [
      { reference: JSON.stringify({ inputs: ['1'], outputs: [] }) },
      'reference: expected as many outputs as inputs (at least one), got 1 inputs and 0 outputs',
    ],
    [
      { reference: JSON.stringify({ inputs: [1], outputs: ['1'] }) },
      'reference.inputs.0: expected a string or a list of lines',
    ],
    [
      { reference: JSON.stringify({ fn_name: 'f', inputs: ['{'], outputs: ['1'] }) },
      /^reference\.inputs\.0: line 1 is not JSON/,
    ],
    [
      { reference: JSON.stringify({ fn_name: 'f', inputs: ['1'], outputs: ['not json'] }) },
      /^reference\.outputs\.0: expected the call's value as JSON text/,
    ],
    [
      { reference: JSON.stringify({ fn_name: 'os.system', inputs: ['1'], outputs: ['1'] }) },
      'fn_name "os.system" is not a Python identifier',
    ],
    [
      { reference: JSON.stringify({ answer: 3 }) },
      'reference: a JSON object with none of "inputs"/"outputs", "assert_case" or "test_list" (keys: answer)',
    ],
    [
      { reference: JSON.stringify({ assert_case: ['', ' '] }) },
      'reference.assert_case: expected at least one non-empty assert',
    ],
    [{ metadata: { test_list: [] } }, /^metadata\.test_list: /],
    [{ reference: '42' }, /^the sample has no tests: expected metadata\.tests/],
    [{}, /^the sample has no tests: expected metadata\.tests/],
  ])('should name the field of a malformed layout: %j', (fields, message) => {
    expect(() => codeTestsOf(sampleOf(fields))).toThrow(message);
  });
});

describe('call-based tests in the sandbox', () => {
  const sandbox = createCodeSandbox();
  const run = (response: string, groundTruth: unknown) =>
    verifyCode(sandbox, response, codeTestsOf(sampleOf({ reference: JSON.stringify(groundTruth) })));

  test.each([
    [
      'a function, prime_code lines',
      'def add(a, b):\n    return a + b\n',
      { fn_name: 'add', inputs: ['1\n2', '5\n5'], outputs: ['3', '10'] },
      1,
    ],
    [
      'a Solution method, APPS lists',
      '```python\nclass Solution:\n    def pair(self, a):\n        return (a, a)\n```',
      { fn_name: 'pair', inputs: [[1], [2]], outputs: [[[1, 1]], [2, 2]] },
      1,
    ],
    [
      'a wrong answer',
      'def add(a, b):\n    return a - b\n',
      { fn_name: 'add', inputs: ['1\n2', '2\n0'], outputs: ['3', '2'] },
      0.5,
    ],
    [
      'a missing function',
      'def other():\n    return 1\n',
      { fn_name: 'add', inputs: ['1\n2'], outputs: ['3'] },
      0,
    ],
  ])('should score %s', async (_name, response, groundTruth, score) => {
    expect((await run(response, groundTruth)).score).toBe(score);
  });
});

describe('codeTestsOf on any JSON', () => {
  test('should give tests or an input error naming a field, never another exception', () => {
    const layout = fc.record(
      {
        inputs: fc.array(fc.oneof(fc.string(), fc.array(fc.jsonValue()), fc.jsonValue()), { maxLength: 3 }),
        outputs: fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 3 }),
        fn_name: fc.oneof(fc.constant(null), fc.string(), fc.constant('f')),
        assert_case: fc.array(fc.string(), { maxLength: 3 }),
        test_list: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(layout, fc.jsonValue()), fc.boolean(), (value, asText) => {
        const sample = asText
          ? sampleOf({ reference: JSON.stringify(value) ?? 'null' })
          : sampleOf({ metadata: { input_output: value } });
        try {
          const tests = codeTestsOf(sample);
          expect(tests.length).toBeGreaterThan(0);
        } catch (error) {
          expect(RewardKitError.isInstance(error)).toBe(true);
          expect((error as RewardKitError).code).toBe('RK_INPUT_SCHEMA');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
