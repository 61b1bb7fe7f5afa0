import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';
import { rolesOf, tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const grading = (grades: Record<string, string>) =>
  JSON.stringify({
    grades: Object.entries(grades).map(([id, grade]) => ({ id, evidence: '', reason: '', grade })),
  });

function setup() {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  judge:\n    model: med-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { dir, models, out: join(dir, 'out.jsonl'), store: join(dir, 'store.sqlite') };
}

describe('rewardkit judge <kind>: a judge kind through the score runner', () => {
  test('should grade with medical_rubric from flags named as the params, store the run and resume', async () => {
    const { models, out, store } = setup();
    server.script(
      {
        match: { contains: 'Lists warning signs that need urgent care' },
        reply: {
          content: grading({
            E1: 'fully_met',
            E2: 'fully_met',
            I1: 'fully_met',
            H1: 'fully_met',
            P1: 'no_pitfall',
          }),
        },
      },
      {
        match: { contains: 'raises simvastatin levels' },
        reply: { content: grading({ E1: 'not_met', I1: 'not_met', I2: 'not_met', P1: 'no_pitfall' }) },
      },
      {
        match: { contains: 'Says it is usually fine at the labelled dose' },
        reply: { content: grading({ E1: 'fully_met', I1: 'partially_met', P1: 'no_pitfall' }) },
      },
    );
    const args = [
      'judge',
      'medical-rubric',
      '--models',
      models,
      '--model',
      'judge',
      '--rubrics',
      join(repoRoot, 'examples/medical-rubrics.jsonl'),
      '--map',
      'metadata.rubric=rubric?',
      '--input',
      join(repoRoot, 'examples/medical-rows.jsonl'),
      '--output',
      out,
      '--store',
      store,
    ];
    const run = await runCli(args);
    expect(run.stderr).toBe(
      'rewardkit: warning: judge medical-rubric is deprecated; use judge medical_rubric\n',
    );
    expect(run.code).toBe(0);
    const results = readJsonl(out);
    expect(results.map((r) => r.id)).toEqual(['med-fever-child', 'med-statin-grapefruit', 'med-inline']);
    // The same scores as `judge pointwise` and as the spec source (the worked rubrics of the examples).
    expect(results[0]?.reward).toBeCloseTo(1, 12);
    expect(results[1]?.reward).toBeCloseTo(2 / 6, 12);
    expect(results[2]?.reward).toBeCloseTo(0.9, 12);
    const evidence = (results[1]?.evidence as Array<Record<string, unknown>> | undefined)?.at(0);
    expect(evidence).toMatchObject({ source: 'medical_rubric', verdict: 'fail', usage: { calls: 1 } });
    expect(rolesOf(tracedCalls(evidence))).toEqual(['medical_rubric_grades']);
    expect(run.stdout).toMatch(/scored\s+3/);
    const runs = await runCli(['runs', 'list'], { env: { REWARDKIT_STORE: store } });
    expect(runs.stdout).toContain('judge:medical_rubric');

    // A rerun skips what the output holds: no call is made.
    const calls = server.requests.length;
    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(calls);
  });

  test('should read switch params from their flags: --no-truncation and --no-saturation reach the scoring', async () => {
    const { models, out } = setup();
    server.script({
      reply: { content: grading({ E1: 'not_met', I1: 'fully_met', I2: 'fully_met', P1: 'no_pitfall' }) },
    });
    const base = ['judge', 'medical_rubric', '--models', models, '--model', 'judge', '--store', 'none'];
    const rubrics = ['--rubrics', join(repoRoot, 'examples/medical-rubrics.jsonl')];
    const rows = join(tempDir(), 'statin.jsonl');
    writeFileSync(rows, `${JSON.stringify({ id: 'med-statin-grapefruit', prompt: 'q', response: 'r' })}\n`);
    const truncated = await runCli([...base, ...rubrics, '--input', rows, '--output', out]);
    expect(truncated.code).toBe(0);
    const off = join(tempDir(), 'off.jsonl');
    const untruncated = await runCli([
      ...base,
      ...rubrics,
      '--no-truncation',
      '--no-saturation',
      '--input',
      rows,
      '--output',
      off,
    ]);
    expect(untruncated.code).toBe(0);
    const a = readJsonl(out)[0]?.reward as number;
    const b = readJsonl(off)[0]?.reward as number;
    // E1 not met truncates (and saturates) the Important credit; with both off the two Important grades count.
    expect(b).toBeGreaterThan(a);
    const [offResult] = readJsonl(off);
    const detail = (
      offResult?.evidence as Array<{ detail: { breakdown: { rules: string[] } } }> | undefined
    )?.at(0)?.detail;
    expect(detail?.breakdown.rules).not.toContain('truncation_essential');
  });

  test.each([
    [
      ['judge', 'medical_rubric', '--input', 'examples/medical-rows.jsonl', '--output', '-'],
      /--model: is required/,
    ],
    [
      [
        'judge',
        'medical_rubric',
        '--model',
        'j',
        '--pass-at',
        '3',
        '--input',
        'examples/medical-rows.jsonl',
        '--output',
        '-',
      ],
      /--pass-at: .*<=1/,
    ],
    [
      ['judge', 'claims', '--reward', 'most', '--input', 'x', '--output', '-'],
      /argument 'most' is invalid. Allowed choices are zero_tolerance/,
    ],
    [
      ['judge', 'genrm', '--model', 'j', '--votes', 'x', '--input', 'x', '--output', '-'],
      /--votes expects an integer, got "x"/,
    ],
    [
      ['judge', 'claims', '--input', 'examples/medical-rows.jsonl', '--output', '-'],
      /--model: name the models/,
    ],
  ])('should name the flag for %j', async (argv, message) => {
    const run = await runCli(argv);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
  });

  test('should give a judge without a readable answer a failed row with the reason, never a score', async () => {
    const { models, out } = setup();
    server.script({ reply: { content: 'I would rather not say.' } });
    const run = await runCli([
      'judge',
      'medical_rubric',
      '--models',
      models,
      '--model',
      'judge',
      '--reasks',
      '0',
      '--rubrics',
      join(repoRoot, 'examples/medical-rubrics.jsonl'),
      '--input',
      join(repoRoot, 'examples/medical-rows.jsonl'),
      '--output',
      out,
      '--store',
      'none',
    ]);
    expect(run.code).toBe(3);
    const [first] = readJsonl(out);
    expect(first).toMatchObject({ status: 'failed', reward: null });
    expect(JSON.stringify(first?.errors)).toMatch(/no readable grading/);
  });

  test.each([
    [['judge', 'pairwise', '--one-order'], '--one-order is deprecated; use --no-both-orders'],
    [['check', 'claims', '--aggregate', 'ragas'], '--aggregate is deprecated; use --reward'],
  ])('should keep the old option name %j working with a deprecation line', async (argv, warning) => {
    const run = await runCli([
      ...argv,
      '--models',
      'missing.yaml',
      '--model',
      'judge',
      '--input',
      'examples/medical-rows.jsonl',
    ]);
    expect(run.stderr).toContain(`rewardkit: warning: ${warning}`);
  });

  test('should list every judge kind under judge --help, with its params as flags in its own help', async () => {
    const help = await runCli(['judge', '--help']);
    // The list wraps its descriptions at the terminal's width.
    const listed = help.stdout.replace(/\s+/g, ' ');
    for (const kind of ['genrm', 'openrs', 'medical_rubric', 'tool_plan', 'claims', 'evpv']) {
      expect(listed).toContain(`(spec kind "${kind}")`);
    }
    // One name per judge: the dashed spellings still run (deprecated) but are not listed.
    expect(help.stdout).toMatch(/\n {2}medical_rubric \[options\]/);
    expect(help.stdout).not.toMatch(/medical-rubric|skill-rm/);
    const claims = await runCli(['judge', 'claims', '--help']);
    for (const flag of [
      '--proposer <name>',
      '--checker <name>',
      '-k, --k <n>',
      '--reward <name>',
      '--safe-k <n>',
      '--checker-temperature <n>',
    ]) {
      expect(claims.stdout).toContain(flag);
    }
    expect(claims.stdout).toContain('rewardkit judge claims --models models.yaml');
  });
});
