import { z } from 'zod';
import { RewardKitError, referencesOf, type Sample } from '../../core/index.js';
import { type CodeTest, CodeTestSchema } from '../../verify/code/index.js';
import { inputOutputTests, schemaError } from './input-output-tests.js';

const WHERE =
  'expected metadata.tests, metadata.input_output, metadata.test or metadata.test_list, or a reference holding JSON tests (verl\'s reward_model.ground_truth: {"inputs", "outputs", "fn_name"?}, {"assert_case"} or {"test_list"})';

/**
 * Reads a sample's tests in the layouts datasets ship them, from its metadata first:
 * `tests` (rewardkit's own list), `input_output` (APPS/TACO stdin-stdout pairs or `fn_name`
 * calls, object or JSON string), `test` (HumanEval assert code, with `entry_point` calling
 * `check`) or `test_list` (MBPP assert lines, after `test_setup_code` and `test_imports`). A
 * sample with none of these is read from its reference, where verl code rows keep their tests
 * (`reward_model.ground_truth`, a JSON string): prime_code's and sandbox_fusion's
 * `{"inputs", "outputs", "fn_name"?}`, sandbox_fusion's `{"assert_case"}`, or `{"test_list"}`.
 */
export function codeTestsOf(sample: Pick<Sample, 'metadata' | 'reference'>): CodeTest[] {
  const { metadata } = sample;
  if (metadata.tests !== undefined) {
    const parsed = z.array(CodeTestSchema).min(1).safeParse(metadata.tests);
    if (!parsed.success) throw schemaError('metadata.tests', parsed.error);
    return parsed.data;
  }
  if (metadata.input_output !== undefined) {
    return inputOutputTests(jsonOf(metadata.input_output, 'metadata.input_output'), 'metadata.input_output');
  }
  if (typeof metadata.test === 'string' && metadata.test.trim() !== '') {
    const entry = metadata.entry_point;
    const call = typeof entry === 'string' && /^[A-Za-z_]\w*$/.test(entry) ? `\ncheck(${entry})\n` : '';
    return [{ kind: 'assert', code: `${metadata.test}${call}` }];
  }
  if (metadata.test_list !== undefined) return testListTests(metadata, 'metadata');
  const references = referencesOf(sample);
  const reference = references.length === 1 ? (references[0] as string).trim() : '';
  if (reference.startsWith('{')) return referenceTests(jsonOf(reference, 'reference'));
  throw new RewardKitError('RK_INPUT_SCHEMA', `the sample has no tests: ${WHERE}`);
}

/** The tests a reference's JSON object holds, in the layouts verl's code scorers read. */
function referenceTests(value: unknown): CodeTest[] {
  const object = z.record(z.string(), z.unknown()).safeParse(value);
  if (!object.success)
    throw new RewardKitError('RK_INPUT_SCHEMA', 'reference: expected a JSON object of tests');
  const tests = object.data;
  if (Array.isArray(tests.assert_case)) {
    const cases = z.array(z.string()).safeParse(tests.assert_case);
    if (!cases.success) throw schemaError('reference.assert_case', cases.error);
    // sandbox_fusion runs the program followed by each assert case; empty cases assert nothing.
    const asserts = cases.data.filter((code) => code.trim() !== '');
    if (asserts.length === 0) {
      throw new RewardKitError(
        'RK_INPUT_SCHEMA',
        'reference.assert_case: expected at least one non-empty assert',
      );
    }
    return asserts.map((code) => ({ kind: 'assert', code }));
  }
  if (tests.test_list !== undefined) return testListTests(tests, 'reference');
  if (tests.inputs !== undefined || tests.outputs !== undefined) return inputOutputTests(tests, 'reference');
  throw new RewardKitError(
    'RK_INPUT_SCHEMA',
    `reference: a JSON object with none of "inputs"/"outputs", "assert_case" or "test_list" (keys: ${Object.keys(tests).slice(0, 10).join(', ') || 'none'})`,
  );
}

const TestListSchema = z.object({
  test_list: z.array(z.string().min(1)).min(1),
  test_setup_code: z.string().optional(),
  test_imports: z.array(z.string()).optional(),
});

/** MBPP: one assert test per line of `test_list`, each after the imports and setup code. */
function testListTests(fields: Record<string, unknown>, at: string): CodeTest[] {
  const parsed = TestListSchema.safeParse(fields);
  if (!parsed.success) throw schemaError(at, parsed.error);
  const { test_list, test_setup_code, test_imports } = parsed.data;
  const prelude = [...(test_imports ?? []), test_setup_code ?? '']
    .filter((line) => line.trim() !== '')
    .join('\n');
  return test_list.map((line) => ({ kind: 'assert', code: prelude === '' ? line : `${prelude}\n${line}` }));
}

/** A field that datasets store either as a JSON value or as its JSON text. */
function jsonOf(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new RewardKitError('RK_INPUT_SCHEMA', `${field}: not valid JSON: ${(error as Error).message}`);
  }
}
