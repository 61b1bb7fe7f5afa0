import { describe, expect, test } from 'vitest';
import { startScoreWorkers } from '../src/runner/score-workers.js';
import { loadSpec } from '../src/spec/index.js';

const records = (prefix: string, count: number, firstLine: number) =>
  Array.from({ length: count }, (_, i) => ({
    origin: { file: 'in.jsonl', line: firstLine + i },
    // JavaScript runs in QuickJS on threads of its own: each row waits on a real message.
    text: JSON.stringify({
      id: `${prefix}${i}`,
      response: '```javascript\nconsole.log(2 + 2);\n```',
      metadata: { language: 'javascript', input_output: { inputs: [''], outputs: ['4'] } },
    }),
  }));

describe('a scoring worker thread', () => {
  test('should score the chunks it holds one after another, not at once', async () => {
    const workers = startScoreWorkers(1, {
      spec: loadSpec('code'),
      allowUnsafeCode: false,
      traces: false,
      mappings: undefined,
      done: [],
      concurrency: 4,
      keeps: { line: true, sqliteRow: false, result: false, text: false },
    });
    try {
      const finished: string[] = [];
      // Both chunks wait in the thread at once, as `score` keeps them; the one-row chunk would
      // finish first if the thread scored both together (twice its share of --concurrency).
      const big = workers.score(records('a', 40, 1)).then((rows) => {
        finished.push('big');
        return rows;
      });
      const small = workers.score(records('b', 1, 41)).then((rows) => {
        finished.push('small');
        return rows;
      });
      const [bigRows, smallRows] = await Promise.all([big, small]);
      expect(finished).toEqual(['big', 'small']);
      expect(bigRows.ids).toHaveLength(40);
      expect(smallRows.ids).toEqual(['b0']);
    } finally {
      await workers.close();
    }
  });
});
