import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(run.stderr).toMatch(/<dir> .*missing: not found; expected the skill package directory/);
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

describe('rewardkit skill apply', () => {
  const patch = (edits: Record<string, unknown>[]) => {
    const file = join(tempDir(), 'patch.json');
    writeFileSync(file, JSON.stringify({ reasoning: 'r', edits, changelog: 'c' }));
    return file;
  };

  test('should write the edited skill to --out, report each edit, and leave the source unchanged', async () => {
    const out = join(tempDir(), 'evolved');
    const file = patch([
      {
        file: 'SKILL.md',
        op: 'append_to_section',
        target_section: '## Confidence',
        content: '- Below 0.5: say what evidence is missing.',
      },
      { file: 'resources.yaml', op: 'insert_after', target_text: 'resources:', content: '  # edited' },
      { file: 'SKILL.md', op: 'delete_section', target_section: '## No such section' },
    ]);
    const run = await runCli([
      'skill',
      'apply',
      '--skill',
      'skills/reward-judge',
      '--patch',
      file,
      '--out',
      out,
      '--protect',
      'resources.yaml',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      written: true,
      applied: 1,
      dropped: [],
      skipped: [
        { index: 1, cause: 'protected' },
        { index: 2, cause: 'anchor_not_found' },
      ],
      violations: [],
    });
    expect(readFileSync(join(out, 'SKILL.md'), 'utf8')).toContain('say what evidence is missing');
    expect(readFileSync('skills/reward-judge/SKILL.md', 'utf8')).not.toContain(
      'say what evidence is missing',
    );
    expect((await runCli(['skill', 'validate', out])).code).toBe(0);
  });

  test('should refuse a malformed patch with exit 1 and write nothing', async () => {
    const file = join(tempDir(), 'patch.json');
    writeFileSync(file, '{"reasoning": ');
    const out = join(tempDir(), 'evolved');
    const run = await runCli([
      'skill',
      'apply',
      '--skill',
      'skills/reward-judge',
      '--patch',
      file,
      '--out',
      out,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/patch\.json dropped: malformed JSON/);
    expect(existsSync(out)).toBe(false);
  });
});
