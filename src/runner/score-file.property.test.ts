import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { RewardKitError, type RewardResult, RewardResultSchema, SampleSchema } from '../core/index.js';
import { checkProperty } from '../core/test-utils/check-property.js';
import {
  applyFieldMappings,
  type FieldMapping,
  FORMAT_PRESET_NAMES,
  type FormatPresetName,
  formatPresetMappings,
  lineKey,
  rowId,
} from '../dataset/index.js';
import { createEvaluator, loadSpec, sourceKinds } from '../spec/index.js';
import type { CodeSandbox } from '../verify/code/index.js';
import { scoreFile } from './score-file.js';

/** No program runs here: a code row meets a sandbox that is down, and must fail, never score. */
const downSandbox: CodeSandbox = {
  isolation: () => 'none',
  runTests: async () => {
    throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in the property tests');
  },
  runCode: async () => {
    throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in the property tests');
  },
  close: async () => {},
};
// The `default` preset routes math, code and IFEval rows to their verifiers and the rest to reference match.
const evaluator = createEvaluator(loadSpec('default'), { codeSandbox: () => downSandbox });
const KINDS = new Set(sourceKinds.keys());

const dir = mkdtempSync(join(tmpdir(), 'rk-props-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const utf8 = (text: string) => new TextEncoder().encode(text);
/** A line's bytes: a newline inside would make two lines, so each is replaced by a space. */
const oneLine = (bytes: Uint8Array) => bytes.map((b) => (b === 0x0a ? 0x20 : b));

const dataSource = fc.oneof(
  fc.constantFrom('gsm8k', 'openai/gsm8k', 'lighteval/MATH', 'aime24', 'ifeval', 'apps', 'taco', 'nq', ''),
  fc.string({ maxLength: 8 }),
);
const response = fc.oneof(
  fc.constantFrom('\\boxed{3}', '#### 18', 'The answer is 2 + sqrt(5).', '```python\nprint(1)\n```', 'A', ''),
  fc.string({ maxLength: 60, unit: 'binary' }),
);
const metadata = fc.oneof(
  fc.record({
    instruction_id_list: fc.oneof(
      fc.array(fc.constantFrom('punctuation:no_comma', 'length_constraints:number_words', 'nope:x'), {
        maxLength: 2,
      }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    kwargs: fc.oneof(
      fc.array(fc.constantFrom({}, { relation: 'at least', num_words: 3 }, { num_words: 'x' }), {
        maxLength: 2,
      }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  }),
  fc.record(
    { tests: fc.jsonValue({ maxDepth: 2 }), input_output: fc.jsonValue({ maxDepth: 2 }) },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
/** Rows shaped like samples (and the trainers' layouts), each field sometimes missing or of the wrong type. */
const sampleLike = fc.record(
  {
    id: fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.integer({ min: -3, max: 30 }),
      fc.double(),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    key: fc.string({ maxLength: 4 }),
    response: fc.oneof(response, response, fc.jsonValue({ maxDepth: 1 })),
    reference: fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    prompt: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.array(
        fc.record({
          role: fc.constantFrom('user', 'system', 'tool', 'x'),
          content: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 0 })),
        }),
        { maxLength: 2 },
      ),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    data_source: fc.oneof(dataSource, dataSource, fc.jsonValue({ maxDepth: 0 })),
    group: fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.jsonValue({ maxDepth: 1 })),
    metadata,
    // verl / OpenRLHF / TRL layouts, for the --format presets.
    responses: fc.oneof(fc.array(response, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    reward_model: fc.record({
      ground_truth: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.jsonValue({ maxDepth: 1 })),
    }),
    extra_info: fc.record({ index: fc.oneof(fc.nat(20), fc.string({ maxLength: 3 })) }, { requiredKeys: [] }),
    input: fc.string({ maxLength: 10 }),
    output: response,
    label: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
    completion: fc.oneof(
      response,
      fc.array(fc.record({ role: fc.constant('assistant'), content: response }), { maxLength: 2 }),
    ),
    solution: fc.string({ maxLength: 6 }),
  },
  { requiredKeys: [] },
);

/** Rows that are good samples (and good rows of each trainer layout), so the scoring path is exercised too. */
const goodRow = fc.record(
  {
    id: fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 30 })),
    response,
    reference: fc.oneof(
      fc.constantFrom('3', '18', 'A', 'Paris'),
      fc.array(fc.constantFrom('3', '18'), { maxLength: 2 }),
    ),
    data_source: dataSource,
    metadata: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    responses: fc.array(response, { minLength: 1, maxLength: 3 }),
    reward_model: fc.record({ ground_truth: fc.constantFrom('3', '18') }),
    input: fc.string({ maxLength: 10 }),
    output: response,
    completion: response,
    solution: fc.constantFrom('3', '18'),
  },
  { requiredKeys: ['id', 'response', 'responses', 'input', 'output', 'completion'] },
);

/** A good row with one field replaced by any JSON value (or removed). */
const oneFieldWrong = fc
  .tuple(
    goodRow,
    fc.constantFrom('id', 'response', 'reference', 'data_source', 'metadata', 'prompt', 'group', 'responses'),
    fc.option(fc.jsonValue({ maxDepth: 2 })),
  )
  .map(([row, field, value]) => ({ ...row, [field]: value ?? undefined }));

/** Number literals JSON.stringify never writes: beyond a double, past a safe integer, negative zero. */
const HUGE = ['1e400', '-1e400', '123456789012345678901234567890', '-0', '1e-400', '9007199254740993'];

/** One line of a JSONL file as bytes: sample-like rows, any JSON, any text, any bytes, blanks. */
const line = fc.oneof(
  { arbitrary: goodRow.map((row) => utf8(JSON.stringify(row))), weight: 6 },
  { arbitrary: oneFieldWrong.map((row) => utf8(JSON.stringify(row))), weight: 3 },
  { arbitrary: sampleLike.map((row) => utf8(JSON.stringify(row))), weight: 3 },
  {
    arbitrary: fc
      .tuple(sampleLike, fc.constantFrom('id', 'response', 'reference', 'group'), fc.constantFrom(...HUGE))
      .map(([row, field, number]) =>
        utf8(JSON.stringify({ ...row, [field]: '\u0000' }).replace('"\\u0000"', number)),
      ),
    weight: 1,
  },
  {
    // Invalid UTF-8 inside a string that is otherwise a good row.
    arbitrary: fc
      .tuple(fc.uint8Array({ minLength: 1, maxLength: 4, min: 0x80 }), fc.nat(20))
      .map(([bad, id]) => new Uint8Array([...utf8(`{"id": ${id}, "response": "`), ...bad, ...utf8('"}')])),
    weight: 1,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => utf8(JSON.stringify(v))), weight: 2 },
  { arbitrary: fc.string({ maxLength: 40, unit: 'binary' }).map(utf8), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constantFrom('', '  ', '\r', '\t \r', '\u00a0', '\ufeff').map(utf8), weight: 1 },
);

const file = fc.record({
  lines: fc.array(line.map(oneLine), { minLength: 1, maxLength: 10 }),
  trailingNewline: fc.boolean(),
  format: fc.option(fc.constantFrom(...FORMAT_PRESET_NAMES), { nil: undefined }),
});

/** What a row should be: a Sample, text that is not UTF-8 or JSON, or JSON with a field wrong or missing. */
type Expected = 'sample' | 'unreadable' | 'malformed';

/** What one non-blank line should become: each of its rows (several when `[*]` expands it). */
interface ExpectedLine {
  readonly line: number;
  readonly rows: number;
  readonly samples: readonly Expected[];
}

/**
 * The oracle: the line decoded as strict UTF-8 and parsed as JSON, the mappings applied, and each
 * row checked as a Sample with a missing id filled in by its place (as `score` keys such rows).
 */
function expectedLines(lines: readonly Uint8Array[], mappings: readonly FieldMapping[]): ExpectedLine[] {
  const expected: ExpectedLine[] = [];
  lines.forEach((bytes, i) => {
    const lineNumber = i + 1;
    const body = bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      expected.push({ line: lineNumber, rows: 1, samples: ['unreadable'] });
      return;
    }
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      expected.push({ line: lineNumber, rows: 1, samples: ['unreadable'] });
      return;
    }
    const mapped = applyFieldMappings(value, mappings);
    if (!mapped.ok) {
      expected.push({ line: lineNumber, rows: 1, samples: ['malformed'] });
      return;
    }
    const samples = mapped.rows.map(({ fields, element }): Expected => {
      // A row expanded by `[*]` is always keyed `<id or place>#<element>`.
      const keyed =
        element !== undefined ||
        ((fields.id === undefined || fields.id === null) && rowId(fields) === undefined);
      const withId = keyed ? { ...fields, id: lineKey({ file: 'x', line: lineNumber }) } : fields;
      return SampleSchema.safeParse(withId).success ? 'sample' : 'malformed';
    });
    expected.push({ line: lineNumber, rows: samples.length, samples });
  });
  return expected;
}

/** A result that says `ok` must have been scored: a finite reward from at least one source that really ran. */
function expectScoredOrFailed(result: RewardResult): void {
  expect(RewardResultSchema.safeParse(result).success).toBe(true);
  if (result.status === 'ok') {
    expect(Number.isFinite(result.reward)).toBe(true);
    const ran = result.evidence.filter(
      (e) => KINDS.has(e.kind) && !e.invalid && e.verdict !== 'error' && Number.isFinite(e.score),
    );
    expect(ran.length).toBeGreaterThan(0);
    return;
  }
  expect(result.reward).toBeNull();
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) expect(error).toMatch(/\S/);
}

let runs = 0;

describe('dataset rows through score (property-based)', () => {
  test('should write one result per row, each scored by a verifier or failed with file and line, never thrown', async () => {
    await checkProperty(
      'dataset rows (score)',
      fc.asyncProperty(file, async ({ lines, trailingNewline, format }) => {
        const path = join(dir, `rows-${runs}.jsonl`);
        const output = join(dir, `out-${runs++}.jsonl`);
        const joined: number[] = [];
        lines.forEach((bytes, i) => {
          joined.push(...bytes);
          if (i < lines.length - 1 || trailingNewline) joined.push(0x0a);
        });
        writeFileSync(path, new Uint8Array(joined));
        const mappings = format === undefined ? [] : formatPresetMappings(format as FormatPresetName);

        const { summary } = await scoreFile({
          evaluator,
          specName: 'default',
          input: path,
          output,
          mappings,
        });

        const results = readFileSync(output, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as RewardResult);
        const expected = expectedLines(lines, mappings);
        expect(results.length).toBe(expected.reduce((n, e) => n + e.rows, 0));
        expect(summary.rows).toBe(results.length);
        expect(summary.failed).toBe(results.filter((r) => r.status === 'failed').length);
        let at = 0;
        for (const { line: lineNumber, samples } of expected) {
          for (const kind of samples) {
            const result = results[at++] as RewardResult;
            expectScoredOrFailed(result);
            if (kind !== 'sample') {
              // A bad row fails, and its first reason names the file and the line (and the field, if it was read).
              expect(result.status).toBe('failed');
              const place = `${path}:${lineNumber}: ${kind === 'malformed' ? 'field "' : ''}`;
              expect(result.errors[0]?.startsWith(place), result.errors[0]).toBe(true);
            } else if (result.status === 'failed' && result.errors.some((e) => e.includes('duplicate id'))) {
              expect(result.errors[0]?.startsWith(`${path}:${lineNumber}: field "id": duplicate id`)).toBe(
                true,
              );
            } else {
              // A well-formed row is never failed as malformed: any failure is the verifier's.
              expect(result.errors.some((e) => e.startsWith(`${path}:`))).toBe(false);
            }
          }
        }
      }),
      300,
    );
  });
});
