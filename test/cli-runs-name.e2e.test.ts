import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempDir } from './cli-harness.js';

describe('rewardkit runs list', () => {
  test.each([
    ['its name:', 'name: my-reward\n', 'my-reward'],
    ['its file, when it has no name:', '', 'spec.yaml'],
  ])('should show a spec file by %s', async (_title, nameLine, shown) => {
    const dir = tempDir();
    const spec = join(dir, 'spec.yaml');
    writeFileSync(spec, `${nameLine}sources:\n  - kind: math\n`);
    const store = join(dir, 'store.sqlite');
    const input = join(repoRoot, 'examples/mixed.jsonl');
    const score = await runCli([
      'score',
      '-s',
      spec,
      '-i',
      input,
      '-o',
      join(dir, 'out.jsonl'),
      '--store',
      store,
    ]);
    expect(score.stderr).not.toMatch(/internal error/);
    const list = await runCli(['runs', 'list', '--store', store]);
    expect(list.code).toBe(0);
    const columns = list.stdout.trim().split(/\s{2,}/);
    expect(columns[2]).toBe(shown === 'spec.yaml' ? spec : shown);
  });
});
