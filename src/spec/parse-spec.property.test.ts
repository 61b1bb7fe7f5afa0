import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkProperty } from '../core/test-utils/check-property.js';
import { createEvaluator } from './evaluator.js';
import { parseSpec, safeParseSpec } from './parse-spec.js';
import { presetNames, presetText } from './presets.js';
import { sourceKinds } from './source-kinds.js';
import { SpecError } from './spec-error.js';

const ISSUE_CODES = [
  'invalid_yaml',
  'schema',
  'unknown_kind',
  'unknown_preset',
  'duplicate_source',
  'params',
];
const PRESETS = presetNames().map((name) => presetText(name) as string);
const KINDS = [...sourceKinds.keys()];

/**
 * The property every spec text must keep: parsing gives a spec that compiles into an evaluator,
 * or a SpecError listing at least one located, worded issue — never another error, never a stack.
 */
function expectSpecOrIssues(text: string): void {
  let result: ReturnType<typeof safeParseSpec>;
  // A Node warning would print `(node:123) Warning: …` beside the command's own messages.
  const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
  let warned: unknown[][];
  try {
    result = safeParseSpec(text, 'spec.yaml');
  } catch (error) {
    throw new Error(`safeParseSpec threw instead of answering: ${(error as Error)?.stack ?? String(error)}`);
  } finally {
    warned = [...warnings.mock.calls];
    warnings.mockRestore();
  }
  expect(warned).toEqual([]);
  if (result.success) {
    expect(() => createEvaluator(result.data)).not.toThrow();
    return;
  }
  expect(result.error).toBeInstanceOf(SpecError);
  expect(result.error.issues.length).toBeGreaterThan(0);
  for (const issue of result.error.issues) {
    expect(ISSUE_CODES).toContain(issue.code);
    expect(issue.message).toMatch(/\S/);
    expect(issue.message).not.toMatch(/\n\s+at /);
  }
  expect(() => parseSpec(text, 'spec.yaml')).toThrow(SpecError);
}

// YAML's own machinery: anchors and aliases (and alias bombs), tags, merge keys, several documents.
const yamlToken = fc.constantFrom(
  '&a [1, 2]',
  '*a',
  '*missing',
  '!!binary aGVsbG8=',
  '!!set {a, b}',
  '!!omap [a: 1]',
  '!!timestamp 2001-12-14',
  '!!js/function "x"',
  '!custom 3',
  '<<: *a',
  '---',
  '...',
  '%YAML 1.2',
  '? complex key',
  '|',
  '>-',
  '"\\u0000"',
  '1e400',
  '-.inf',
  '.nan',
  '0x1F',
  '~',
);

/** A billion-laughs document: each alias level doubles the expanded size. */
const aliasBomb = fc.integer({ min: 2, max: 12 }).map((depth) => {
  const lines = ['a0: &a0 [x, x]'];
  for (let i = 1; i <= depth; i++) lines.push(`a${i}: &a${i} [*a${i - 1}, *a${i - 1}]`);
  return `name: bomb\n${lines.join('\n')}\nsources:\n  - kind: math\n    params: *a${depth}\n`;
});

const sourceLike = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('exact', 'f1', '9bad', 'a.b-c')),
    kind: fc.oneof(fc.constantFrom(...KINDS), fc.string({ maxLength: 8 })),
    weight: fc.oneof(fc.double(), fc.integer(), fc.jsonValue({ maxDepth: 1 })),
    veto: fc.oneof(fc.boolean(), fc.record({ reward: fc.double() }), fc.jsonValue({ maxDepth: 1 })),
    timeout_ms: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 4 })),
    params: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: ['kind'] },
);
const leafLike = fc.record(
  {
    version: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 0 })),
    name: fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 0 })),
    sources: fc.oneof(fc.array(sourceLike, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
    aggregate: fc.oneof(
      fc.constantFrom('weighted_mean', 'weighted_sum', 'min', 'max'),
      fc.string({ maxLength: 6 }),
    ),
    clamp: fc.oneof(fc.tuple(fc.double(), fc.double()), fc.jsonValue({ maxDepth: 1 })),
    veto_reward: fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 0 })),
    on_error: fc.oneof(
      fc.constantFrom('fail', 'exclude'),
      fc.record({ value: fc.double() }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
  { requiredKeys: ['sources'] },
);
const specRef = fc.oneof(fc.constantFrom(...presetNames(), 'mathh', '../math', ''), leafLike);
const routedLike = fc.record(
  {
    name: fc.string({ maxLength: 10 }),
    routes: fc.oneof(
      fc.array(
        fc.record({
          data_source: fc.oneof(
            fc.string({ maxLength: 8 }),
            fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
          ),
          spec: specRef,
        }),
        { maxLength: 3 },
      ),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    default: specRef,
  },
  { requiredKeys: ['routes'] },
);

/** Spec-shaped documents, valid and not, written as YAML (or JSON, which YAML reads too). */
const specDocument = fc
  .tuple(fc.oneof(leafLike, routedLike, fc.anything({ maxDepth: 2 })), fc.boolean())
  .map(([value, json]) => (json ? (JSON.stringify(value) ?? 'null') : (stringify(value) ?? '')));

/** A shipped preset with a few edits: text spliced in or cut out, or one value replaced. */
const presetMutation = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...PRESETS),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.nat(40),
          fc.oneof(
            yamlToken,
            fc.string({ maxLength: 12, unit: 'binary' }),
            fc.constantFrom('\n', '  ', ':', '- ', '#'),
          ),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    )
    .map(([text, edits]) =>
      edits.reduce((doc, [at, cut, insert]) => {
        const i = at % (doc.length + 1);
        const removed = cut % 3 === 0 ? cut : 0;
        return doc.slice(0, i) + insert + doc.slice(i + removed);
      }, text),
    ),
  fc
    .tuple(
      fc.constantFrom(...PRESETS),
      fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([text, steps, replacement]) => stringify(replaceAt(parse(text), steps, replacement))),
);

/** The value with the node reached by `steps` (each an index into the current node's keys) replaced. */
function replaceAt(value: unknown, steps: readonly number[], replacement: unknown): unknown {
  if (steps.length === 0 || value === null || typeof value !== 'object') return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  const keys = Object.keys(copy);
  const key = keys[(steps[0] as number) % Math.max(1, keys.length)];
  if (key === undefined) return replacement;
  copy[key] = replaceAt(copy[key], steps.slice(1), replacement);
  return copy;
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.oneof(yamlToken, fc.constantFrom('\n', '  ', ': ', '- ', 'sources', 'kind', 'routes')), {
      maxLength: 12,
    })
    .map((t) => t.join('')),
);

describe('spec YAML (property-based)', () => {
  test('should parse any text into a spec or a SpecError with issues', async () => {
    await checkProperty('spec: any text', fc.property(anyText, expectSpecOrIssues), 1000);
  });

  test('should parse spec-shaped documents into a spec that compiles or a SpecError with issues', async () => {
    await checkProperty('spec: spec-shaped documents', fc.property(specDocument, expectSpecOrIssues), 800);
  });

  test('should parse mutated presets into a spec that compiles or a SpecError with issues', async () => {
    await checkProperty('spec: mutated presets', fc.property(presetMutation, expectSpecOrIssues), 800);
  });

  test('should answer alias bombs with issues instead of expanding them', async () => {
    await checkProperty('spec: alias bombs', fc.property(aliasBomb, expectSpecOrIssues), 11);
  });
});

describe('inputs the spec properties found', () => {
  test.each([
    ['a merge key whose anchor is set later', '<<: *a\nsources:\n  - kind: math\n', 'Unresolved alias'],
    [
      'an alias bomb',
      'a0: &a0 [x, x]\na1: &a1 [*a0, *a0]\na2: &a2 [*a1, *a1]\na3: &a3 [*a2, *a2]\na4: &a4 [*a3, *a3]\nsources:\n  - kind: math\n    params: *a4\n',
      'Excessive alias count',
    ],
  ])('should answer %s with an invalid_yaml issue, not a ReferenceError', (_, text, message) => {
    const result = safeParseSpec(text, 'spec.yaml');
    expect(result.success).toBe(false);
    expect(!result.success && result.error.issues).toEqual([
      { code: 'invalid_yaml', path: [], message: expect.stringContaining(message) },
    ]);
  });

  test('should name a key that is a list as an issue, without a Node warning on stderr', () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const result = safeParseSpec('? [1, 2]\n: x\nsources:\n  - kind: math\n', 'spec.yaml');
    const warned = [...warnings.mock.calls];
    warnings.mockRestore();
    expect(warned).toEqual([]);
    expect(!result.success && result.error.issues).toEqual([
      expect.objectContaining({ code: 'schema', message: 'Unrecognized key: "[ 1, 2 ]"' }),
    ]);
  });
});
