import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadDomainPools } from '../src/judges/openrs/index.js';
import { DEFAULT_DOMAINS_DIR } from '../src/judges/openrs/openrs-files.js';
import { runCli, tempDir } from './cli-harness.js';

const shipped = loadDomainPools(DEFAULT_DOMAINS_DIR);

async function exported() {
  const dir = tempDir();
  const review = join(dir, 'review');
  const run = await runCli(['rubrics', 'export-pools', '--out', review]);
  expect(run.code).toBe(0);
  const edit = (id: string, change: (text: string) => string) =>
    writeFileSync(join(review, `${id}.md`), change(readFileSync(join(review, `${id}.md`), 'utf8')));
  return { dir, review, edit };
}

describe('rewardkit rubrics export-pools / import-pools', () => {
  test('should round-trip the pools: approved edits applied with their changes named, rejected and pending kept as exported', async () => {
    const { dir, review, edit } = await exported();
    expect(
      readdirSync(review)
        .filter((n) => n.endsWith('.md'))
        .sort(),
    ).toEqual(['index.md', ...[...shipped.keys()].map((id) => `${id}.md`)].sort());
    expect(readFileSync(join(review, 'math.md'), 'utf8')).toMatch(
      /^<!-- rewardkit domain pool review file[^\n]*\nstatus: pending\n\n# /,
    );
    edit(
      'math',
      (t) =>
        `${t.replace('status: pending', 'status: approved')}- [important] Units: every quantity carries its unit.\n`,
    );
    // A rejected file is not read: its broken edit is thrown away with it.
    edit('code', (t) => t.replace('status: pending', 'status: rejected').replace(/^- \[/gm, '- ('));
    edit('chit-chat', (t) => `${t}- [core] Pending idea: not applied until approved.\n`);
    const out = join(dir, 'domains-v2');
    const run = await runCli(['rubrics', 'import-pools', review, '--out', out]);
    expect(run.stderr).toMatch(/math approved: added Units; removed none; edited none/);
    expect(run.stderr).toMatch(/code rejected by the reviewer: kept as exported/);
    expect(run.stderr).toMatch(/chit-chat still pending: kept as exported/);
    expect(run.code).toBe(0);
    const pools = loadDomainPools(out);
    expect([...pools.keys()]).toEqual([...shipped.keys()]);
    expect(pools.get('math')?.criteria.at(-1)).toMatchObject({ type: 'important', name: 'Units' });
    expect(
      pools
        .get('math')
        ?.criteria.slice(0, -1)
        .map((c) => c.name),
    ).toEqual(shipped.get('math')?.criteria.map((c) => c.name));
    expect(readFileSync(join(out, 'code.md'), 'utf8')).toBe(
      readFileSync(join(DEFAULT_DOMAINS_DIR, 'code.md'), 'utf8'),
    );
    expect(pools.get('chit-chat')?.criteria.map((c) => c.name)).not.toContain('Pending idea');
  });

  test('should refuse a broken approved pool and a bad status by file and line, writing nothing', async () => {
    const { dir, review, edit } = await exported();
    edit(
      'math',
      (t) =>
        `${t.replace('status: pending', 'status: approved')}- [vital] Units: every quantity carries its unit.\n`,
    );
    edit('code', (t) => t.replace('status: pending', 'status: done'));
    const lines = readFileSync(join(review, 'math.md'), 'utf8').trimEnd().split('\n').length;
    const out = join(dir, 'domains-v2');
    const run = await runCli(['rubrics', 'import-pools', review, '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`math.md:${lines}: type: `);
    expect(run.stderr).toMatch(
      /code\.md:2: write "status: pending", "status: approved" or "status: rejected"/,
    );
    expect(run.stderr).toMatch(/nothing written/);
    expect(existsSync(out)).toBe(false);
  });
});
