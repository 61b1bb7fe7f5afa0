import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { checkProperty } from '../core/test-utils/check-property.js';
import { rowId } from '../dataset/index.js';
import { checkInstructions, IfevalRowSchema } from '../verify/ifeval/index.js';
import { mapJsonlRows } from './map-jsonl-rows.js';

const dir = mkdtempSync(join(tmpdir(), 'rk-props-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INSTRUCTIONS = [
  'punctuation:no_comma',
  'length_constraints:number_words',
  'change_case:english_lowercase',
  'nope:x',
];
/** IFEval rows as `verify ifeval` reads them, sometimes with a field missing or of the wrong type. */
const ifevalRow = fc.integer({ min: 1, max: 3 }).chain((n) =>
  fc.record(
    {
      key: fc.oneof(fc.nat(40), fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 0 })),
      id: fc.oneof(fc.nat(40), fc.jsonValue({ maxDepth: 0 })),
      prompt: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 0 })),
      instruction_id_list: fc.oneof(
        fc.array(fc.constantFrom(...INSTRUCTIONS), { minLength: n, maxLength: n }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      kwargs: fc.oneof(
        fc.array(fc.constantFrom({}, null, { relation: 'at least', num_words: 3 }, { num_words: 'x' }), {
          minLength: n,
          maxLength: n,
        }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      response: fc.oneof(fc.string({ maxLength: 60, unit: 'binary' }), fc.jsonValue({ maxDepth: 0 })),
    },
    { requiredKeys: ['instruction_id_list', 'kwargs', 'response'] },
  ),
);
const line = fc.oneof(
  { arbitrary: ifevalRow.map((row) => JSON.stringify(row)), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 1 },
);

/** Lines that `verify` reads as rows: not blank once decoded. */
const rowLines = (lines: readonly string[]) =>
  lines.map((text, i) => ({ text, line: i + 1 })).filter(({ text }) => text.trim() !== '');

let runs = 0;

describe('dataset rows through verify (property-based)', () => {
  test('should write one line per row: the verifier answer, or an error naming file and line', async () => {
    await checkProperty(
      'dataset rows (verify ifeval)',
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 10 }), async (generated) => {
        const lines = generated.map((l) => l.replaceAll(/[\n\r\u2028\u2029]/g, ' '));
        const input = join(dir, `in-${runs}.jsonl`);
        const output = join(dir, `out-${runs++}.jsonl`);
        writeFileSync(input, `${lines.join('\n')}\n`);
        let handled = 0;
        const summary = await mapJsonlRows({
          input,
          output,
          schema: IfevalRowSchema,
          idOf: (row) => String(row.id ?? row.key),
          handle: (row) => {
            const r = checkInstructions(row);
            handled++;
            return { strict: r.strict, loose: r.loose };
          },
        });
        const written = readFileSync(output, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as { id: string; error?: string; strict?: boolean[] });
        const rows = rowLines(lines);
        expect(written.length).toBe(rows.length);
        expect(summary).toMatchObject({ rows: rows.length, ok: handled, failed: rows.length - handled });
        written.forEach((out, i) => {
          const { text, line: lineNumber } = rows[i] as { text: string; line: number };
          expect(typeof out.id).toBe('string');
          if (out.error === undefined) {
            // An answer only for a row the verifier read: one verdict per instruction.
            const raw = JSON.parse(text);
            // A row with no usable id or key is keyed by its place, as `verify` keys it.
            const keyed = rowId(raw) === undefined && (raw.id === undefined || raw.id === null);
            const row = IfevalRowSchema.parse(keyed ? { ...raw, id: `line:${lineNumber}` } : raw);
            expect(out.strict?.length).toBe(row.instruction_id_list.length);
            return;
          }
          expect(out.error.startsWith(`${input}:${lineNumber}: `), out.error).toBe(true);
        });
      }),
      300,
    );
  });
});
