import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RewardKitError } from '../core/index.js';
import { checkProperty } from '../core/test-utils/check-property.js';
import {
  applyFieldMappings,
  combineFieldMappings,
  type FieldMapping,
  parseFieldMapping,
} from './field-mapping.js';
import { lookUpField, parseFieldPath } from './field-path.js';

// Keys a dataset has, keys every JS object inherits, and the pieces of the `--map` syntax.
const KEYS = ['id', 'response', 'reference', 'responses', 'extra_info', 'a', 'b'];
const INHERITED = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const name = fc.oneof(
  fc.constantFrom(...KEYS),
  fc.constantFrom(...INHERITED),
  fc.stringMatching(/^[A-Za-z_]\w{0,4}$/),
);
const key = fc.oneof(name, fc.string({ maxLength: 6, unit: 'binary-ascii' }));
const validIndex = fc.oneof(
  fc.constantFrom('[-1]', '[*]'),
  fc.nat(2).map((n) => `[${n}]`),
);
const index = fc.oneof(validIndex, fc.constantFrom('[]', '[x]', '[', ']', '[1.5]'));
const wellFormedPath = fc
  .array(fc.tuple(name, fc.option(validIndex)), { minLength: 1, maxLength: 2 })
  .map((steps) => steps.map(([k, ix]) => k + (ix ?? '')).join('.'));
const anyPath = fc
  .array(fc.tuple(key, fc.array(index, { maxLength: 2 })), { minLength: 1, maxLength: 3 })
  .map((steps) => steps.map(([k, ix]) => k + ix.join('')).join('.'));
const targetPath = fc.array(name, { minLength: 1, maxLength: 2 }).map((keys) => keys.join('.'));

/** `--map` texts: well-formed ones, near misses built from the syntax's pieces, and any string at all. */
const mapText = fc.oneof(
  fc
    .tuple(
      targetPath,
      fc.array(wellFormedPath, { minLength: 1, maxLength: 2 }),
      fc.boolean(),
      fc.constantFrom('', ' '),
    )
    .map(
      ([target, sources, optional, pad]) =>
        `${target}${pad}=${pad}${sources.join('|')}${optional ? '?' : ''}`,
    ),
  fc
    .tuple(
      fc.oneof(targetPath, anyPath),
      fc.array(anyPath, { minLength: 1, maxLength: 3 }),
      fc.constantFrom('', '?', '??', '|'),
    )
    .map(([target, sources, tail]) => `${target}=${sources.join('|')}${tail}`),
  fc
    .array(fc.oneof(anyPath, fc.constantFrom('=', '|', '?', '.', ' ', '==', '=?', '|?')), { maxLength: 6 })
    .map((p) => p.join('')),
  fc.string({ unit: 'binary' }),
);

/** Dataset rows as JSON.parse makes them (an own `__proto__` key included), nested a few levels. */
const row = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.jsonValue({ maxDepth: 1 }),
      fc.dictionary(name, tie('value'), { maxKeys: 4 }),
      fc.array(tie('value'), { maxLength: 3 }),
    ),
  }))
  .value.map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/** JSON data as JSON.parse builds it: no functions, and no object whose prototype is not a plain object's. */
function isPlainJson(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  return (
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).every(isPlainJson)
  );
}

/** A mapping, or the RK_USAGE error `--map` answers with; anything else fails the property. */
function parseOrUsageError(text: string): FieldMapping | undefined {
  try {
    return parseFieldMapping(text);
  } catch (error) {
    expect(RewardKitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'RK_USAGE', message: expect.stringContaining(`--map "${text}"`) });
    return undefined;
  }
}

describe('--map expressions (property-based)', () => {
  test('should parse any text into a mapping or a usage error naming it, never a crash', async () => {
    await checkProperty(
      '--map text',
      fc.property(mapText, (text) => {
        const mapping = parseOrUsageError(text);
        if (mapping === undefined) return;
        expect(mapping.target.length).toBeGreaterThan(0);
        expect(mapping.sources.length).toBeGreaterThan(0);
      }),
      3000,
    );
  });

  test('should combine any list of mappings or refuse it with a usage error', async () => {
    await checkProperty(
      '--map lists',
      fc.property(fc.array(mapText, { maxLength: 5 }), (texts) => {
        const mappings = texts.map(parseOrUsageError).filter((m) => m !== undefined);
        try {
          combineFieldMappings(mappings);
        } catch (error) {
          expect(error).toMatchObject({ code: 'RK_USAGE', message: expect.stringContaining('[*]') });
        }
      }),
      1000,
    );
  });

  test("should give each mapped row only the row's own JSON values, at the target, or name the missing field", async () => {
    await checkProperty(
      '--map applied to rows',
      fc.property(mapText, row, (text, value) => {
        const mapping = parseOrUsageError(text);
        if (mapping === undefined) return;
        const mapped = applyFieldMappings(value, [mapping]);
        if (!mapped.ok) {
          for (const error of mapped.errors) {
            expect(error).toMatch(/^field ".*(--map .*)$/s);
          }
          return;
        }
        const hit = mapping.sources.map((s) => lookUpField(value, s)).find((l) => l.found);
        for (const [k, { fields }] of mapped.rows.entries()) {
          // Nothing but the row's own data: no inherited function or prototype slips in.
          expect(isPlainJson(fields)).toBe(true);
          // A source that was found is readable at the target (an optional one may be absent).
          const expected = hit?.each ? hit.values[k] : hit?.values[0];
          if (expected === undefined || expected === null) continue;
          const target = lookUpField(fields, parseFieldPath(mapping.target.join('.'), '--map'));
          expect(target.found).toBe(true);
        }
      }),
      3000,
    );
  });
});
