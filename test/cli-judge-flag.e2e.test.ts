import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';

describe('--judge names a judge kind everywhere; a judge model is --judge-model', () => {
  test('should offer --judge only as a judge kind in every --help', async () => {
    const pairwise = await runCli(['judge', 'pairwise', '--help']);
    expect(pairwise.stdout).toMatch(/--judge <name> +which pairwise judge: a judge kind/);
    const bench = await runCli(['bench', '--help']);
    expect(bench.stdout).toMatch(/--judge <name> +pairwise judge for pairwise benchmarks: genrm,\s+openrs/);
    for (const [command, flag] of [
      [['selfplay'], '--judge-model <name>'],
      [['advantages'], '--judge-model <name>'],
      [['serve'], '--group-judge-model <name>'],
    ] as const) {
      const help = await runCli([...command, '--help']);
      expect(help.stdout).toContain(flag);
      expect(help.stdout).not.toMatch(/--(group-)?judge </);
    }
  });

  test('should keep serve --group-judge working, naming --group-judge-model once', async () => {
    const dir = tempDir();
    const models = join(dir, 'models.yaml');
    writeFileSync(models, 'models:\n  policy:\n    model: p\n    base_url: http://127.0.0.1:9\n');
    writeFileSync(join(dir, 'spec.yaml'), 'name: cheap\nsources:\n  - {kind: length, params: {max: 100}}\n');
    const args = [
      'serve',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      models,
      '--store',
      'none',
      '--port',
      '0',
    ];
    const unknown = `rewardkit: no model named "checker" in ${models} (configured: policy)\n`;
    const canonical = await runCli([...args, '--group-judge-model', 'checker']);
    expect([canonical.code, canonical.stderr]).toEqual([1, unknown]);
    const alias = await runCli([...args, '--group-judge', 'checker']);
    expect([alias.code, alias.stderr]).toEqual([
      1,
      `rewardkit: warning: --group-judge is deprecated; use --group-judge-model\n${unknown}`,
    ]);
  });
});
