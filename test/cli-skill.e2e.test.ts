import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';

function writePackage(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('rewardkit skill validate', () => {
  test('should exit 0 on the shipped reward-judge skill', async () => {
    const run = await runCli(['skill', 'validate', 'skills/reward-judge']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^skills\/reward-judge: skill "reward-judge" is valid \(\d+ body lines, 5 references, \d+ resources\)\n$/,
    );
  });

  test('should print one file:line line per violation on stdout and exit 1', async () => {
    const dir = writePackage({
      'SKILL.md': `---\nname: Bad Name\ndescription: ok\n---\n# X\n\n[gone](references/gone.md)\n${'line\n'.repeat(600)}`,
      'references/a.md': '# A\n\n[b](b.md)\n',
      'resources.yaml': 'resources:\n  - id: x\n    type: nonsense\n',
    });
    const run = await runCli(['skill', 'validate', dir]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((line) => line.slice(dir.length + 1).replace(/: .*/, ''))).toEqual([
      'SKILL.md:2',
      'SKILL.md:7',
      'SKILL.md:504',
      'references/a.md:1',
      'references/a.md:3',
      // Eight required fields missing, each reported at the entry's line.
      ...Array.from({ length: 8 }, () => 'resources.yaml:2'),
      'resources.yaml:3',
    ]);
    expect(lines[0]).toBe(
      `${dir}/SKILL.md:2: front matter "name" must be kebab-case: lowercase letters and digits joined by single hyphens`,
    );
    expect(run.stderr).toBe(`14 violations in ${dir}\n`);
  });

  test('should refuse a path that is not a directory with a usage error', async () => {
    const run = await runCli(['skill', 'validate', join(tempDir(), 'missing')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Not a directory: .*missing; pass a skill package directory/);
  });
});

describe('rewardkit skill show', () => {
  test('should print the skill as JSON with references and every resource field', async () => {
    const run = await runCli(['skill', 'show', 'skills/reward-judge', '--json']);
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as {
      name: string;
      references: { path: string; lines: number }[];
      resources: Record<string, unknown>[];
    };
    expect(shown).toMatchObject({ spec: 'rk-skill/v1', name: 'reward-judge' });
    expect(shown.references.map((r) => r.path)).toContain('references/math-answers.md');
    expect(shown.resources.find((r) => r.id === 'math-verifier')).toEqual({
      id: 'math-verifier',
      type: 'verifier',
      implementation: 'verifier',
      binding: 'math',
      description: expect.any(String),
      applies_to: ['math'],
      cost: 'low',
      hard_or_soft: 'hard',
      decision_impact: 'strong',
      inputs_required: ['response', 'reference'],
      outputs_produced: ['correct', 'extracted_answer'],
      visibility: 'benchmark_visible',
    });
  });

  test('should print a table as text, and the violations of an invalid package with exit 1', async () => {
    const text = await runCli(['skill', 'show', 'skills/reward-judge']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^name: reward-judge\n/);
    expect(text.stdout).toMatch(/references\/code\.md +\d+ lines/);
    expect(text.stdout).toMatch(/math-verifier +verifier +verifier +math +strong +benchmark_visible +low/);
    const dir = writePackage({ 'SKILL.md': '# no front matter\n' });
    const invalid = await runCli(['skill', 'show', dir, '--json']);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe(
      `${dir}/SKILL.md:1: SKILL.md must open with YAML front matter between two "---" lines (name, description)\n`,
    );
  });
});
