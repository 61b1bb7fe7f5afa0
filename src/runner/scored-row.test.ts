import { describe, expect, test } from 'vitest';
import { failedResult } from '../core/index.js';
import { okResult } from '../store/test-utils/store-conformance.js';
import { failedChunk, replaceScoredRows, scoredRowsBuilder } from './scored-row.js';

const keeps = { line: true, sqliteRow: true, result: false, text: true };
const origin = (line: number) => ({ file: 'in.jsonl', line });
describe('failedChunk', () => {
  test("should fail every row of a stopped worker's chunk with the reason, under the ids they would have had", () => {
    const rows = failedChunk(
      [
        { origin: origin(1), text: '{"id": "a", "response": "4", "reference": "4"}' },
        { origin: origin(2), text: '{"id": "done", "response": "4"}' },
        { origin: origin(3), text: '{"response": "x"}' },
        { origin: origin(4), text: '{not json' },
      ],
      'internal error while scoring: a scoring worker stopped (exit code 1)',
      { mappings: undefined, done: new Set(['done']), keeps },
    );
    expect(rows.ids).toEqual(['a', 'done', 'line:3', 'line:4']);
    expect(rows.recordOf).toEqual([0, 1, 2, 3]);
    expect(rows.summaryOf[1]).toBe(-1);
    const summaries = rows.summaries.map((json) => JSON.parse(json));
    const scored = [0, 2, 3].map((i) => summaries[rows.summaryOf[i] as number]);
    for (const summary of scored) {
      expect(summary.status).toBe('failed');
      expect(summary.errors.at(-1)).toContain('a scoring worker stopped');
    }
    expect(scored[2].errors[0]).toMatch(/^in\.jsonl:4: invalid JSON/);
    const lines = rows.lines.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(['a', 'line:3', 'line:4']);
    expect(rows.lineEnds).toHaveLength(3);
    expect(rows.sqliteRows.map((row) => row[0])).toEqual(['a', 'line:3', 'line:4']);
    // The text judged is kept for the store where the row could be read.
    expect(rows.sqliteRows[0]?.[12]).toBe('4');
    expect(rows.sqliteRows[1]?.[12]).toBe('x');
    expect(rows.sqliteRows[2]?.[12]).toBeNull();
  });
});

describe('scoredRowsBuilder', () => {
  test('should send a summary that rows share once, and each row its own index into them', () => {
    const builder = scoredRowsBuilder(keeps);
    builder.scored(okResult('a', 1), { response: 'ra' }, 0);
    builder.scored(okResult('b', 0), { response: 'rb' }, 1);
    builder.done('c', 2);
    builder.scored(okResult('d', 1), { response: 'rd' }, 2);
    const rows = builder.finish();
    expect(rows.ids).toEqual(['a', 'b', 'c', 'd']);
    expect(rows.summaryOf).toEqual([0, 1, -1, 0]);
    expect(rows.summaries).toHaveLength(2);
    expect(JSON.parse(rows.summaries[0] as string)).toEqual({
      status: 'ok',
      reward: 1,
      errors: [],
      evidence: [
        { source: 'math', verdict: 'pass', invalid: false, score: 1 },
        { source: 'fmt', verdict: 'error', invalid: true },
      ],
    });
    expect(rows.recordOf).toEqual([0, 1, 2, 2]);
    expect(rows.results).toEqual([]);
  });

  test('should keep results and their texts instead of lines and store rows when asked', () => {
    const builder = scoredRowsBuilder({ line: false, sqliteRow: false, result: true, text: true });
    builder.scored(okResult('a', 1), { response: 'ra' }, 0);
    const rows = builder.finish();
    expect(rows.lines).toBe('');
    expect(rows.sqliteRows).toEqual([]);
    expect(rows.results.map((r) => r.id)).toEqual(['a']);
    expect(rows.texts).toEqual([{ response: 'ra' }]);
  });
});

describe('replaceScoredRows', () => {
  test('should replace the scored rows named, in every form, and keep the others as they were', () => {
    const builder = scoredRowsBuilder({ ...keeps, result: true });
    builder.scored(okResult('a', 1), { response: 'ra' }, 0);
    builder.done('skipped', 1);
    builder.scored(okResult('b', 1), { response: 'rb' }, 2);
    builder.scored(okResult('c', 0), { response: 'rc' }, 3);
    const rows = builder.finish();
    const failed = failedResult('line:3', ['in.jsonl:3: field "id": duplicate id "a"']);
    const replaced = replaceScoredRows(rows, new Map([[1, failed]]), { ...keeps, result: true });
    const lines = replaced.lines
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(['a', 'line:3', 'c']);
    expect(lines[1].status).toBe('failed');
    expect(replaced.lines.endsWith('\n')).toBe(true);
    expect(replaced.sqliteRows.map((row) => row[0])).toEqual(['a', 'line:3', 'c']);
    expect(replaced.sqliteRows[1]?.[12]).toBeNull();
    expect(replaced.results.map((r) => r.id)).toEqual(['a', 'line:3', 'c']);
    expect(replaced.texts).toEqual([{ response: 'ra' }, undefined, { response: 'rc' }]);
    // The chunk as received is left as it was.
    expect(rows.sqliteRows.map((row) => row[0])).toEqual(['a', 'b', 'c']);
  });
});
