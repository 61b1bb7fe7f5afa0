import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';

const mathRows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `m${i}`, response: `#### ${i}`, reference: String(i) })).join('\n')}\n`;

describe('rewardkit score: paths, locks and signals', () => {
  test.each([
    ['an output in a missing folder', (dir: string) => join(dir, 'nope', 'out.jsonl'), 'does not exist'],
    ['an output that is a folder', (dir: string) => dir, 'is a folder; give a file path'],
  ])('should refuse %s with one line and no stack trace', async (_, outputOf, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), mathRows(1));
    const run = await runCli(['score', '--spec', 'math', '-i', join(dir, 'in.jsonl'), '-o', outputOf(dir)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test('should name an input that is a folder', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'rows'));
    const run = await runCli([
      'score',
      '--spec',
      'math',
      '-i',
      join(dir, 'rows'),
      '-o',
      join(dir, 'out.jsonl'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `rewardkit: ${join(dir, 'rows')}: no dataset files (.parquet, .jsonl, .json) in the folder, its data/ folder or its split folders\n`,
    );
  });

  test('should refuse a second writer of the same output and leave the file to the first', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    writeFileSync(join(dir, 'in.jsonl'), mathRows(3));
    // This test process stands for a live first writer.
    writeFileSync(`${out}.lock`, `${process.pid} ${(await import('node:os')).hostname()}\n`);
    const run = await runCli(['score', '--spec', 'math', '-i', join(dir, 'in.jsonl'), '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Another rewardkit (pid ${process.pid}`);
    expect(existsSync(out)).toBe(false);
  });

  test('should drain on SIGTERM like SIGINT: rows in flight written, the lock released', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const rows = 20_000;
    writeFileSync(join(dir, 'in.jsonl'), mathRows(rows));
    const run = await runCli(['score', '--spec', 'math', '-i', join(dir, 'in.jsonl'), '-o', out, '-c', '1'], {
      onSpawn: (kill) => {
        const poll = setInterval(() => {
          try {
            if (readFileSync(out, 'utf8').length > 2000) {
              clearInterval(poll);
              kill('SIGTERM');
            }
          } catch {}
        }, 20);
      },
    });
    expect(run.code).toBe(130);
    const written = readJsonl(out).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(rows);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});
