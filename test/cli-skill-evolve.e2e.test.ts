import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { type RecordedRequest, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const SKILL = `---
name: demo-skill
description: A demo skill for tests.
---
# Demo Skill

## Checks

- Read the task twice.

## Output

Answer with one line.
`;

function writeTree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A hash of every path and byte under `dir`. */
function hashDir(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = join(rel, name);
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else
        hash
          .update(path)
          .update('\0')
          .update(readFileSync(join(dir, path)))
          .update('\0');
    }
  };
  walk('');
  return hash.digest('hex');
}

const lesson = (title: string) => ({ title, description: `about ${title}`, content: `do ${title}` });
const failure = (answer: string) =>
  JSON.stringify({
    failure_cause: lesson('unit mix-up'),
    lessons: [lesson('check units')],
    fix: { description: 'convert first', answer },
  });
const edit = (fields: Record<string, unknown>) => ({
  file: 'SKILL.md',
  op: 'append_to_section',
  target_section: null,
  target_text: null,
  content: null,
  old_text: null,
  after_section: null,
  supports: [],
  ...fields,
});

const systemOf = (r: RecordedRequest) =>
  String(r.body.messages?.find((m) => m.role === 'system')?.content ?? '');
const analystRequests = () => server.requests.filter((r) => systemOf(r).includes('You analyse one run'));

function setup() {
  const root = tempDir();
  const skill = writeTree(join(root, 'skill'), {
    'SKILL.md': SKILL,
    'resources.yaml': 'resources: []\n',
  });
  const traces = join(root, 'traces.jsonl');
  writeFileSync(
    traces,
    [
      {
        id: 't1',
        task: 'How far is 3 km in m?',
        transcript: 'answered 3',
        outcome: { pass: false },
        reference: '3000',
      },
      {
        id: 't2',
        task: 'How heavy?',
        steps: [{ action: 'guess' }],
        outcome: { pass: false, feedback: 'wrong' },
        reference: '7',
      },
      { id: 't3', task: 'Add 2 and 2', transcript: 'answered 4', outcome: { pass: true, score: 1 } },
      { id: 't4', task: 'broken', outcome: { pass: 'maybe' } },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  const models = join(root, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  analyst:\n    model: analyst\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  server.script(
    { match: { contains: 'Instance: t1' }, reply: { content: failure('3000') } },
    { match: { contains: 'Instance: t2' }, reply: { content: failure('9') } },
    {
      match: { contains: 'Instance: t3' },
      reply: { content: JSON.stringify({ lessons: [lesson('show work')] }) },
    },
    {
      match: { contains: 'You improve an agent skill' },
      reply: {
        content: JSON.stringify({
          reasoning: 'units go wrong',
          edits: [
            edit({
              target_section: 'checks',
              content: '- Convert units first; see [units](references/units.md).',
              supports: ['t1'],
            }),
            edit({
              op: 'create',
              file: 'references/units.md',
              content: '# Units\n\n1 km = 1000 m.\n',
              supports: ['t1'],
            }),
            edit({ op: 'create', file: 'resources.yaml', content: 'x' }),
            edit({ op: 'insert_after', target_text: 'a line that is not there', content: '- nope' }),
          ],
          changelog: 'Added a units check.',
        }),
      },
    },
  );
  return { root, skill, traces, models, out: join(root, 'evolved') };
}

describe('rewardkit skill evolve', () => {
  test('should write the evolved skill, patch, changelog and report, never touching the source, and resume without analyst calls', async () => {
    const { skill, traces, models, out } = setup();
    const before = hashDir(skill);
    const args = [
      'skill',
      'evolve',
      '--skill',
      skill,
      '--traces',
      traces,
      '--out',
      out,
      '--models',
      models,
      '--model',
      'analyst',
      '--protect',
      'resources.yaml',
    ];
    const first = await runCli(args);
    expect(first.stderr).toContain(`warning: skipped row: ${traces}:4: field "outcome.pass"`);
    expect(first.code).toBe(0);
    expect(hashDir(skill)).toBe(before);

    const evolved = readFileSync(join(out, 'skill/SKILL.md'), 'utf8');
    expect(evolved).toContain('- Convert units first; see [units](references/units.md).');
    expect(readFileSync(join(out, 'skill/references/units.md'), 'utf8')).toContain('1 km = 1000 m.');
    expect(readFileSync(join(out, 'skill/resources.yaml'), 'utf8')).toBe('resources: []\n');
    const patch = JSON.parse(readFileSync(join(out, 'patch.json'), 'utf8'));
    expect(patch.edits[0].target_section).toBe('## Checks');
    expect(readFileSync(join(out, 'CHANGELOG.md'), 'utf8')).toContain('Added a units check.');

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(JSON.parse(first.stdout)).toEqual(report);
    expect(report.input).toMatchObject({ rows_read: 3, rows_rejected: 1 });
    expect(report.trajectories).toMatchObject({ given: 3, analysed: 3, resumed: 0, failed: 2, passed: 1 });
    expect(report.lessons).toMatchObject({ kept: 3, gated_out: 2, runs_gate_passed: 1, runs_gate_failed: 1 });
    expect(report.seeds[0].patches).toMatchObject({ proposed: 1, failed_proposals: 0 });
    expect(report.seeds[0].edits).toMatchObject({
      merged: 4,
      dropped_at_translation: 1,
      applied: 2,
      skipped: 1,
      skipped_by_cause: { protected: 1 },
    });
    expect(report).toMatchObject({ valid: true, selected_seed: 0, out: { written: true } });
    expect(report.usage.calls).toBe(4);
    expect(readJsonl(join(out, 'analyses.jsonl'))).toHaveLength(3);
    expect(analystRequests()).toHaveLength(3);

    server.requests.length = 0;
    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(analystRequests()).toHaveLength(0);
    const resumed = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(resumed.trajectories).toMatchObject({ analysed: 0, resumed: 3 });
    expect(readFileSync(join(out, 'skill/SKILL.md'), 'utf8')).toBe(evolved);
    expect(hashDir(skill)).toBe(before);
  });

  test('should create a skill from a skeleton in create mode', async () => {
    const { traces, models, out } = setup();
    const run = await runCli([
      'skill',
      'evolve',
      '--mode',
      'create',
      '--name',
      'unit-skill',
      '--traces',
      traces,
      '--out',
      out,
      '--models',
      models,
      '--model',
      'analyst',
      '--protect',
      'resources.yaml',
    ]);
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    // The skeleton has no "## Checks": that edit is dropped at translation, the rest apply.
    const text = readFileSync(join(out, 'skill/SKILL.md'), 'utf8');
    expect(text).toMatch(/^---\nname: unit-skill\n/);
    expect(JSON.parse(run.stdout).mode).toBe('create');
    expect((await runCli(['skill', 'validate', join(out, 'skill')])).code).toBe(0);
  });

  test('should refuse an output inside the source skill and a non-empty unrelated output', async () => {
    const { skill, traces, models, root } = setup();
    const inside = await runCli([
      'skill',
      'evolve',
      '--skill',
      skill,
      '--traces',
      traces,
      '--out',
      join(skill, 'out'),
      '--models',
      models,
      '--model',
      'analyst',
    ]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/overlaps the skill/);
    expect(existsSync(join(skill, 'out'))).toBe(false);
    const busy = await runCli([
      'skill',
      'evolve',
      '--skill',
      skill,
      '--traces',
      traces,
      '--out',
      writeTree(join(root, 'busy'), { 'notes.txt': 'mine' }),
      '--models',
      models,
      '--model',
      'analyst',
    ]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/not empty and holds no earlier evolve output/);
    expect(server.requests).toHaveLength(0);
  });

  test('should exit 1 and write no skill when the fix rounds cannot make it valid', async () => {
    const { skill, traces, models, out } = setup();
    // With no resources.yaml to protect, the proposal creates a broken one; the fixer never answers.
    rmSync(join(skill, 'resources.yaml'));
    const run = await runCli([
      'skill',
      'evolve',
      '--skill',
      skill,
      '--traces',
      traces,
      '--out',
      out,
      '--models',
      models,
      '--model',
      'analyst',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no seed gave a valid skill');
    expect(existsSync(join(out, 'skill'))).toBe(false);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ valid: false, out: { written: false, skill: null } });
    expect(report.seeds[0].fix_rounds).toBe(3);
    expect(report.violations[0].file).toBe('resources.yaml');
    expect(server.requests.filter((r) => systemOf(r).includes('fails its package validator'))).toHaveLength(
      3,
    );
  });

  test('should show the stages, the outputs and examples in --help', async () => {
    const help = await runCli(['skill', 'evolve', '--help']);
    expect(help.code).toBe(0);
    for (const text of ['--traces <file>', '--seeds <n>', '--protect <path>', 'analyses.jsonl', 'Examples:'])
      expect(help.stdout).toContain(text);
  });
});
