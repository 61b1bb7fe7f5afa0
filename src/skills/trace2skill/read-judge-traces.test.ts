import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJudgeTraces } from './read-judge-traces.js';

const result = (id: string, verdict: string) => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward: verdict === 'pass' ? 1 : 0,
  components: { judge: verdict === 'pass' ? 1 : 0 },
  evidence: [
    {
      source: 'judge',
      kind: 'genrm',
      verdict,
      score: 1,
      detail: { winner: 'A' },
      reason: 'A is right',
      elapsed_ms: 1,
    },
  ],
  errors: [],
  warnings: [],
  timings: { total_ms: 1 },
});

describe('readJudgeTraces', () => {
  test('should turn a labelled wrong verdict into a failed run and keep the label out of the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-judge-traces-'));
    const results = join(dir, 'results.jsonl');
    const labels = join(dir, 'labels.jsonl');
    writeFileSync(
      results,
      [result('a', 'pass'), result('b', 'pass'), result('c', 'fail'), { id: 'd' }]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    writeFileSync(
      labels,
      [
        { id: 'a', verdict: 'pass' },
        { id: 'b', verdict: 'fail' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const got = await readJudgeTraces({ results, labels });
    expect(got.trajectories.map((t) => [t.id, t.outcome.pass])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(got.unlabelled).toBe(1);
    expect(got.rejected.map((r) => r.line)).toEqual([4]);
    expect(got.trajectories[1]?.transcript).toContain('A is right');
    expect(JSON.stringify(got.trajectories[1]?.transcript)).not.toContain('"fail"');
  });
});
