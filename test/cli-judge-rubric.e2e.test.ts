import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const grades = (...rows: Array<[string, number | string]>) =>
  JSON.stringify({ grades: rows.map(([id, grade]) => ({ id, reason: 'r', grade })) });

/** One scripted grading per example row, matched on its response. */
function scriptExampleRows() {
  server.script(
    {
      match: { contains: 'about 70 C on top of Everest' },
      reply: { content: grades(['c1', 10], ['c2', 8], ['c3', 6]) },
    },
    {
      match: { contains: 'closer to the Sun in summer' },
      reply: { content: grades(['c1', 0], ['c2', 2], ['c3', 10]) },
    },
    {
      match: { contains: 'sunlit half as it orbits us' },
      reply: { content: grades(['c1', 'yes'], ['c2', 'no']) },
    },
    { match: { contains: 'About eight minutes.' }, reply: { content: grades(['c1', 'fully_met']) } },
  );
}

function setup() {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  judge:\n    model: rubric-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { dir, models, out: join(dir, 'out.jsonl') };
}

// The examples' hand-worked rewards: criteria.yaml's weights are 50/30/20 points out of 100.
const EXPECTED: Array<[string, number]> = [
  ['boil', (50 * 1 + 30 * 0.8 + 20 * 0.6) / 100],
  ['seasons', (50 * 0 + 30 * 0.2 + 20 * 1) / 100],
  // Its own checklist, all_must_pass, one "no".
  ['moon', 0],
  // Its own reference rubric, fully met.
  ['light', 1],
];

describe('rewardkit judge rubric', () => {
  test('should judge every row against the rubric file, or against its own rubric, through the CLI', async () => {
    const { models, out } = setup();
    scriptExampleRows();
    const run = await runCli([
      'judge',
      'rubric',
      '--models',
      models,
      '--model',
      'judge',
      '--rubric-file',
      'examples/rubric/criteria.yaml',
      '--input',
      'examples/rubric/rows.jsonl',
      '--output',
      out,
      '--no-progress',
    ]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward])).toEqual(
      EXPECTED.map(([id, reward]) => [id, expect.closeTo(reward, 12)]),
    );
    expect(server.requests).toHaveLength(4);
    // The reference goes only to the reference rubric's judge, in its own block.
    const sent = server.requests.map((r) => JSON.stringify(r.body.messages));
    expect(sent.filter((s) => s.includes('Reference answer:'))).toHaveLength(1);
  });

  test('should refuse a bad --rubric before any call, naming the field', async () => {
    const { models, out } = setup();
    const run = await runCli([
      'judge',
      'rubric',
      '--models',
      models,
      '--model',
      'judge',
      '--rubric',
      '{"mode":"criteria","aggregate":"min","criteria":[{"name":"a","description":"b","weight":2}]}',
      '--input',
      'examples/rubric/rows.jsonl',
      '--output',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('weights have no effect under aggregate "min"');
    expect(run.stderr).toContain('--rubric (at criteria.0.weight): weights have no effect');
    expect(server.requests).toHaveLength(0);
  });

  test('should write a row whose judge never answers readably as failed, with the reason and no reward', async () => {
    const { models, out } = setup();
    server.script({ reply: { content: 'Looks good to me.' } });
    const run = await runCli([
      'judge',
      'rubric',
      '--models',
      models,
      '-m',
      'judge',
      '--reasks',
      '0',
      '--rubric-file',
      'examples/rubric/likert.yaml',
      '--input',
      'examples/rubric/rows.jsonl',
      '--output',
      out,
      '--no-progress',
    ]);
    expect(run.code).toBe(3);
    const [first] = readJsonl(out);
    expect(first).toMatchObject({ id: 'boil', status: 'failed', reward: null });
    expect(JSON.stringify(first)).toContain('has no readable grade');
  });
});

describe('rewardkit score with a kind: rubric spec', () => {
  test('should read the rubric file beside the spec and score the rows, from any working folder', async () => {
    const { dir, models, out } = setup();
    scriptExampleRows();
    const run = await runCli(
      [
        'score',
        '--spec',
        join(repoRoot, 'examples/rubric/spec.yaml'),
        '--models',
        models,
        '--input',
        join(repoRoot, 'examples/rubric/rows.jsonl'),
        '--output',
        out,
        '--no-progress',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward])).toEqual(
      EXPECTED.map(([id, reward]) => [id, expect.closeTo(reward, 12)]),
    );
    // pass_at 0.6 in the spec
    expect(results.map((r) => (r.evidence as Array<{ verdict: string }>)[0]?.verdict)).toEqual([
      'pass',
      'fail',
      'fail',
      'pass',
    ]);
  });

  test('should refuse a spec whose rubric file is bad, naming its line and field, before any call', async () => {
    const { dir, models, out } = setup();
    writeFileSync(
      join(dir, 'r.yaml'),
      'mode: likert\ncriteria:\n  - name: a\n    description: b\nanchors:\n  1: low\n  3: high\n',
    );
    writeFileSync(
      join(dir, 's.yaml'),
      'sources:\n  - kind: rubric\n    params: {model: judge, rubric_file: r.yaml}\n',
    );
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 's.yaml'),
      '--models',
      models,
      '--input',
      join(repoRoot, 'examples/rubric/rows.jsonl'),
      '--output',
      out,
    ]);
    // A bad spec cannot run (exit 1), as for any other spec problem.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${join(dir, 'r.yaml')}:6: field "anchors": every point from 1 to 3 needs an anchor; missing 2`,
    );
    expect(server.requests).toHaveLength(0);
  });
});
