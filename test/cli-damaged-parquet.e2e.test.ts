import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeDamagedParquet } from '../src/dataset/test-utils/damaged-parquet.js';
import { runCli, tempDir } from './cli-harness.js';

describe('a Parquet input with a corrupt data page', () => {
  test.each([
    ['score', ['score', '--spec', 'math', '--store', 'none']],
    ['score on worker threads', ['score', '--spec', 'math', '--store', 'none', '--workers', '2']],
    ['verify math', ['verify', 'math']],
  ])('should stop %s with one line naming the file, row group and column', async (_name, command) => {
    const dir = tempDir();
    const input = join(dir, 'damaged.parquet');
    writeDamagedParquet(input, 'response', 1);
    const run = await runCli([...command, '-i', input, '-o', join(dir, 'out.jsonl')]);
    expect(run.stderr).not.toMatch(/^ {4}at /m);
    expect(run.stderr).toContain(
      `${input}: row group 2 of 3 (rows 11–20), column "response": cannot be decoded`,
    );
    expect(run.code).toBe(1);
  });
});
