import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { bubblewrapWorks } from '../src/verify/code/index.js';
import { repoRoot } from './cli-harness.js';

// The smoke-size run of bench/run-code-overhead.mjs: two languages, two rounds, a few requests at
// concurrency 1 and 2 — that every mode answers, and that the tables it writes are whole.
describe.skipIf(!bubblewrapWorks())('bench/run-code-overhead.mjs --smoke', () => {
  test('should measure every mode against the direct run and report requests/s', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'bench/run-code-overhead.mjs'), '--smoke'],
      { cwd: repoRoot, timeout: 120_000 },
    );
    const number = String.raw`[\d,.]+`;
    const cell = `${number} / ${number}`;
    const above = String.raw`[+−]${number} ms \([+−]?${number}%\)`;
    for (const language of ['python', 'bash']) {
      expect(stdout).toMatch(
        new RegExp(
          `^\\| ${language} \\| ${cell} \\| ${cell} \\| ${cell} \\| ${cell} \\| ${cell} \\| ${above} \\| ${above} \\| ${above} \\|$`,
          'm',
        ),
      );
    }
    for (const clients of [1, 2]) {
      expect(stdout).toMatch(
        new RegExp(
          `^\\| ${clients} \\| 4 \\| ${number} \\| ${number} \\(${number}×\\) \\| ${number} \\(${number}×\\) \\|$`,
          'm',
        ),
      );
    }
    expect(stdout).toMatch(/load average \(1, 5, 15 min\) was [\d.]+, [\d.]+, [\d.]+ before/);
    expect(stdout).not.toMatch(/NaN|undefined/);
  }, 150_000);
});
