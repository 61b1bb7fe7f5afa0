import { describe, expect, test } from 'vitest';
import { createEvaluatorPool } from '../src/evaluator-pool/index.js';
import { startScoreWorkers } from '../src/runner/score-workers.js';
import { loadSpec } from '../src/spec/index.js';

const fixture = (name: string) => new URL(`./fixtures/workers/${name}`, import.meta.url);
const sample = (id: string) => ({ id, response: '4', metadata: {} });
const record = (text: string, line: number) => ({ origin: { file: 'in.jsonl', line }, text });

describe('a worker thread that stops', () => {
  test("should fail the evaluator pool's jobs on it, and answer later jobs from its replacement", async () => {
    const pool = createEvaluatorPool({
      spec: loadSpec('math'),
      workers: 1,
      needsGroups: false,
      script: fixture('stopping-evaluator.mjs'),
    });
    try {
      const first = (await pool.evaluate(sample('a'))) as unknown as { thread: number };
      await expect(pool.evaluate(sample('die'))).rejects.toThrow(
        /an evaluator worker stopped \(exit code 7\)/,
      );
      const after = (await pool.evaluate(sample('b'))) as unknown as { id: string; thread: number };
      expect(after.id).toBe('b');
      expect(after.thread).not.toBe(first.thread);
    } finally {
      await pool.close();
    }
  });

  test("should fail a scoring worker's chunk, and score later chunks on its replacement", async () => {
    const workers = startScoreWorkers(
      1,
      {
        spec: loadSpec('math'),
        allowUnsafeCode: false,
        traces: true,
        mappings: undefined,
        done: [],
        concurrency: 8,
        keeps: { line: true, sqliteRow: false, result: false, text: false },
      },
      fixture('stopping-scorer.mjs'),
    );
    try {
      const {
        ids: [first],
      } = await workers.score([record('a', 1)]);
      await expect(workers.score([record('die', 2)])).rejects.toThrow(
        /a scoring worker stopped \(exit code 7\)/,
      );
      const {
        ids: [after],
      } = await workers.score([record('b', 3)]);
      expect(after).toMatch(/^b@/);
      expect(after).not.toBe(first?.replace(/^a/, 'b'));
    } finally {
      await workers.close();
    }
  });
});
