import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createEvaluator, loadSpec } from '../spec/index.js';
import { openSqliteStore, type Store } from '../store/index.js';
import { scoreFile } from './score-file.js';

const folder = () => mkdtempSync(join(tmpdir(), 'rk-score-file-'));
const samples = (dir: string) => {
  const input = join(dir, 'in.jsonl');
  writeFileSync(input, '{"id": "a", "response": "#### 1", "reference": "1"}\n');
  return input;
};
const score = (input: string, output: string | Writable) =>
  scoreFile({ evaluator: createEvaluator(loadSpec('math')), specName: 'math', input, output });

describe('scoreFile paths and output faults', () => {
  test.each([
    [
      'an output in a missing folder',
      (dir: string) => join(dir, 'missing', 'out.jsonl'),
      /Output folder .*missing does not exist/,
    ],
    ['an output that is a folder', (dir: string) => dir, /Output .* is a directory; give a file path/],
  ])('should refuse %s before scoring, naming it', async (_, outputOf, message) => {
    const dir = folder();
    await expect(score(samples(dir), outputOf(dir))).rejects.toMatchObject({
      code: 'RK_USAGE',
      message: expect.stringMatching(message),
    });
  });

  test('should refuse an input folder with no dataset files, naming it, before the output exists', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'rows'));
    await expect(score(join(dir, 'rows'), join(dir, 'out.jsonl'))).rejects.toThrow(
      `${join(dir, 'rows')}: no dataset files (.parquet, .jsonl, .json) in the folder`,
    );
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
  });

  test('should raise a failing output stream as an RK_OUTPUT error instead of crashing', async () => {
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
      },
    });
    await expect(score(samples(folder()), broken)).rejects.toMatchObject({
      code: 'RK_OUTPUT',
      message: 'Writing <stdout> failed: ENOSPC: no space left on device',
    });
  });
});

describe('scoreFile and its store', () => {
  test('should leave a run whose store lost rows unfinished, loudly, and finish it once a resume stores them from the output', async () => {
    const dir = folder();
    const input = join(dir, 'in.jsonl');
    const output = join(dir, 'out.jsonl');
    writeFileSync(
      input,
      Array.from(
        { length: 10 },
        (_, i) => `{"id": "s${i}", "response": "#### ${i}", "reference": "${i % 2 === 0 ? i : i + 1}"}\n`,
      ).join(''),
    );
    const store = openSqliteStore(join(dir, 'store.sqlite'));
    // A store that acknowledges every save and keeps none (the rows of a batch that never committed).
    const { saveEncodedResults: _, ...rest } = store;
    const lossy: Store = { ...rest, saveResults: async () => {} };
    const options = { evaluator: createEvaluator(loadSpec('math')), specName: 'math', input, output };

    await expect(scoreFile({ ...options, store: lossy })).rejects.toMatchObject({
      code: 'RK_STORE',
      message: expect.stringMatching(
        /is not finished: the store holds 0 of its results but .*out\.jsonl has 10/,
      ),
    });
    const [run] = await store.listRuns();
    expect(run?.status).toBe('interrupted');

    const warnings: string[] = [];
    const resumed = await scoreFile({ ...options, store, onWarning: (m) => warnings.push(m) });
    expect(resumed.run?.id).toBe(run?.id);
    expect(resumed.summary).toMatchObject({ rows: 0, skipped: 10 });
    expect(warnings).toEqual([expect.stringContaining(`stored 10 results of ${output}`)]);
    expect((await store.getRun(run?.id as string))?.status).toBe('finished');
    expect(await store.runTotals(run?.id as string)).toMatchObject({ results: 10, mean_reward: 0.5 });
    await store.close();
  });
});
