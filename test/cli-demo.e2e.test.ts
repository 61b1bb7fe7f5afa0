import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OPTIONAL_PARTS } from '../src/core/optional-package.js';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';

// `rewardkit demo` at test sizes (--tiny): the invariants of its three parts, never a rise.
const mixedRows = readJsonl(join(repoRoot, 'examples/mixed.jsonl')).length;
// The demo's scoring exits as `score` does: 3 where the sandbox is missing and the Python rows fail.
const scoredCode = bubblewrapWorks() ? 0 : 3;
const EVAL_LINE = /^ {2}step +\d+ {2}greedy [01]\.\d{3} {2}sampled [01]\.\d{3}/;
const register = join(repoRoot, 'test/hide-packages/register.mjs');

describe('rewardkit demo', () => {
  test('scores the bundled dataset, prints a line per evaluation, writes the report', async () => {
    const cwd = tempDir();
    const run = await runCli(['demo', '--tiny', '--out', 'demo'], { cwd });
    expect(run.code).toBe(scoredCode);
    const out = join(cwd, 'demo');
    expect(readJsonl(join(out, 'scored.jsonl'))).toHaveLength(mixedRows);
    expect(run.stdout).toContain(`rewardkit score: ${mixedRows} rows`);
    // --tiny: 4 RL steps, evaluated every 2, after the SFT start's line.
    const evals = run.stdout.split('\n').filter((line) => EVAL_LINE.test(line));
    expect(evals.map((line) => Number(/step +(\d+)/.exec(line)?.[1]))).toEqual([0, 2, 4]);
    expect(evals[0]).toContain('(SFT start');
    for (const line of evals.slice(1)) expect(line).toMatch(/mean reward [01]\.\d{3}$/);
    expect(run.stdout).toContain('after 4 RL steps, held-out accuracy:');
    for (const kind of ['sampled', 'greedy'])
      expect(run.stdout).toMatch(
        new RegExp(`${kind} +[01]\\.\\d{3} at the SFT start → [01]\\.\\d{3} \\([+-]`),
      );
    expect(run.stdout).toContain('One seed at toy scale');
    expect(run.stdout).toContain(`report: ${join(out, 'report.html')}`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('rewardkit demo');
    const rl = readJsonl(join(out, 'metrics.jsonl')).filter((m) => m.phase === 'rl');
    expect(rl.map((m) => m.step)).toEqual([0, 1, 2, 3]);
    // A second demo into the same folder trains afresh: the same lines, nothing read back.
    const again = await runCli(['demo', '--tiny', '--out', 'demo'], { cwd });
    expect(again.stdout.split('\n').filter((line) => EVAL_LINE.test(line))).toEqual(evals);
  }, 120_000);

  test('without the lab packages it scores, then says in one line what it skipped and the install line', async () => {
    const cwd = tempDir();
    const run = await runCli(['demo', '--tiny'], {
      cwd,
      env: {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${register}`.trim(),
        RK_HIDE_PACKAGES: OPTIONAL_PARTS.lab.packages.join(','),
      },
    });
    expect(run.code).toBe(scoredCode);
    expect(readJsonl(join(cwd, 'rewardkit-demo', 'scored.jsonl'))).toHaveLength(mixedRows);
    const skipped = run.stderr.split('\n').filter((line) => line.includes('skipped'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/^rewardkit demo: skipped the RL run and its report: /);
    expect(skipped[0]).toContain(
      'npm install @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4 vega@6 vega-lite@6',
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(cwd, 'rewardkit-demo', 'report.html'))).toBe(false);
    expect(run.stdout).not.toMatch(EVAL_LINE);
  }, 60_000);

  test('refuses an --out that is a file before scoring', async () => {
    const cwd = tempDir();
    const run = await runCli(['demo', '--tiny', '--out', join(repoRoot, 'package.json')], { cwd });
    expect(run.code).toBe(2);
    expect(existsSync(join(cwd, 'rewardkit-demo'))).toBe(false);
  }, 30_000);
});
