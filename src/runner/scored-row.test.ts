import { describe, expect, test } from 'vitest';
import { failedChunk } from './scored-row.js';

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
    expect(rows.map((r) => r.kind)).toEqual(['scored', 'done', 'scored', 'scored']);
    const scored = rows.flatMap((r) => (r.kind === 'scored' ? [r] : []));
    expect(scored.map((r) => r.id)).toEqual(['a', 'line:3', 'line:4']);
    for (const row of scored) {
      expect(row.summary.status).toBe('failed');
      expect(row.summary.errors.at(-1)).toContain('a scoring worker stopped');
      expect(JSON.parse(row.line as string).id).toBe(row.id);
      expect(row.sqliteRow?.[0]).toBe(row.id);
    }
    expect(scored[2]?.summary.errors[0]).toMatch(/^in\.jsonl:4: invalid JSON/);
    // The text judged is kept for the store where the row could be read.
    expect(scored[0]?.sqliteRow?.[12]).toBe('4');
  });
});
