import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkProperty } from '../src/core/test-utils/check-property.js';
import { runCli, tempDir } from './cli-harness.js';

const text = (max: number) => fc.string({ maxLength: max, unit: 'binary' });
const response = fc.oneof(fc.constantFrom('\\boxed{3}', '#### 18', 'The answer is 3.', 'A', ''), text(30));
/** A sample row, sometimes with a field missing or of the wrong type. */
const row = fc.record(
  {
    id: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), fc.nat(50), fc.jsonValue({ maxDepth: 0 })),
    response: fc.oneof(response, response, response, fc.jsonValue({ maxDepth: 1 })),
    reference: fc.oneof(fc.constantFrom('3', '18', 'A'), fc.jsonValue({ maxDepth: 1 })),
    data_source: fc.constantFrom('gsm8k', 'lighteval/MATH', 'ifeval', 'apps', 'nq'),
    responses: fc.array(response, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['response'] },
);
/** One JSONL line: mostly rows, sometimes any JSON, any text, invalid UTF-8 or a huge number. */
const line = fc.oneof(
  { arbitrary: row.map((r) => Buffer.from(JSON.stringify(r))), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v))), weight: 1 },
  { arbitrary: text(30).map((t) => Buffer.from(t.replaceAll('\n', ' '))), weight: 1 },
  { arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), weight: 1 },
  { arbitrary: fc.constant(Buffer.from('{"id": 1e400, "response": "#### 1", "reference": "1"}')), weight: 1 },
);

/** Rows every one of which scores: distinct ids, a string response, a reference, a routed data source. */
const cleanLines = fc
  .array(fc.tuple(response, fc.constantFrom('gsm8k', 'nq', 'lighteval/MATH')), {
    minLength: 1,
    maxLength: 20,
  })
  .map((rows) =>
    rows.map(([r, source], i) =>
      Buffer.from(JSON.stringify({ id: `r${i}`, response: r, reference: '3', data_source: source })),
    ),
  );

/** Non-blank lines: what `score` reads as rows when no mapping expands one into several. */
const rowsOf = (lines: readonly Buffer[]) =>
  lines.filter((bytes) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes).trim() !== '';
    } catch {
      return true;
    }
  }).length;

describe('rewardkit score on fuzzed rows (property-based, through the CLI)', () => {
  test('should write one line per input row and exit 3 exactly when a row failed, without a stack trace', async () => {
    const dir = tempDir();
    let run = 0;
    await checkProperty(
      'score CLI on fuzzed JSONL',
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 40 }),
        cleanLines,
        fc.constantFrom('0', '2'),
        async (fuzzed, clean, workers) => {
          // Every third file is clean, so the exit code is seen both ways.
          const lines = run % 3 === 2 ? clean : fuzzed;
          const input = join(dir, `in-${run}.jsonl`);
          const output = join(dir, `out-${run++}.jsonl`);
          const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
          writeFileSync(input, bytes);
          // Every other file comes on stdin (`-i -`), which is read as a stream of its own.
          const stdin = run % 2 === 0;
          const cli = await runCli(
            [
              'score',
              '--spec',
              'default',
              '-i',
              stdin ? '-' : input,
              '-o',
              output,
              '--workers',
              workers,
              '--no-progress',
            ],
            stdin ? { stdin: bytes } : {},
          );
          expect(cli.stderr).not.toMatch(/\n\s+at /);
          const results = readFileSync(output, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as { status: string; reward: number | null; errors: string[] });
          expect(results.length).toBe(rowsOf(lines));
          const failed = results.filter((r) => r.status === 'failed');
          expect(failed.every((r) => r.reward === null && r.errors.length > 0)).toBe(true);
          expect(results.filter((r) => r.status === 'ok').every((r) => Number.isFinite(r.reward))).toBe(true);
          expect(cli.code).toBe(failed.length > 0 ? 3 : 0);
        },
      ),
      6,
    );
  });
});
