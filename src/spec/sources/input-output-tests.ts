import { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import { type CodeTest, callBasedTest } from '../../verify/code/index.js';

/** APPS / TACO / verl: `{"inputs": [...], "outputs": [...], "fn_name"?: "..."}`. */
const InputOutputSchema = z.object({
  inputs: z.array(z.unknown()),
  outputs: z.array(z.unknown()),
  // Absent, null or "" (as some TACO rows write it): stdin/stdout pairs.
  fn_name: z.string().nullish(),
});

/** A stdin or stdout: a string, or a list of lines (APPS writes both). */
const StdioText = z.union([z.string(), z.array(z.string()).transform((lines) => lines.join('\n'))]);

/**
 * The tests of an inputs/outputs object, read as verl's prime_code does: with no `fn_name`, each
 * pair is stdin and the expected stdout; with one, each input is the call's arguments (a list, or
 * its text with one JSON value per line) and each output the expected value (or its JSON text).
 */
export function inputOutputTests(value: unknown, field: string): CodeTest[] {
  const parsed = InputOutputSchema.safeParse(value);
  if (!parsed.success) throw schemaError(field, parsed.error);
  const { inputs, outputs, fn_name } = parsed.data;
  if (inputs.length !== outputs.length || inputs.length === 0) {
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `${field}: expected as many outputs as inputs (at least one), got ${inputs.length} inputs and ${outputs.length} outputs`,
    );
  }
  return inputs.map((input, i) => {
    const output = outputs[i];
    if (fn_name)
      return callBasedTest(
        fn_name,
        callArguments(input, `${field}.inputs.${i}`),
        expectedValue(output, `${field}.outputs.${i}`),
      );
    const stdin = StdioText.safeParse(input);
    const stdout = StdioText.safeParse(output);
    if (!stdin.success)
      throw new RewardKitError(
        'RK_INPUT_SCHEMA',
        `${field}.inputs.${i}: expected a string or a list of lines`,
      );
    if (!stdout.success)
      throw new RewardKitError(
        'RK_INPUT_SCHEMA',
        `${field}.outputs.${i}: expected a string or a list of lines`,
      );
    return { kind: 'stdio', stdin: stdin.data, expected_stdout: stdout.data };
  });
}

/** A call's arguments: a JSON list as given, or text with one JSON value per line (prime_code's form). */
function callArguments(input: unknown, at: string): unknown[] {
  if (Array.isArray(input)) return input;
  if (typeof input !== 'string')
    throw new RewardKitError('RK_INPUT_SCHEMA', `${at}: expected a list of arguments or their JSON lines`);
  if (input.trim() === '') return [];
  return input.split('\n').map((line, n) => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new RewardKitError(
        'RK_INPUT_SCHEMA',
        `${at}: line ${n + 1} is not JSON: ${(error as Error).message}`,
      );
    }
  });
}

/** An expected value: as given, or parsed when it is a string (prime_code loads its JSON text); a string that is not JSON is an input-schema error. */
function expectedValue(output: unknown, at: string): unknown {
  if (typeof output !== 'string') return output;
  try {
    return JSON.parse(output);
  } catch {
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `${at}: expected the call's value as JSON text (fn_name tests), got ${JSON.stringify(output.slice(0, 60))}`,
    );
  }
}

/** The first issue of a failed parse of `field`, as an input-schema error naming where it is. */
export function schemaError(field: string, error: z.ZodError): RewardKitError {
  const issue = error.issues[0];
  const at = issue && issue.path.length > 0 ? `${field}.${issue.path.join('.')}` : field;
  return new RewardKitError('RK_INPUT_SCHEMA', `${at}: ${issue?.message ?? 'invalid'}`);
}
