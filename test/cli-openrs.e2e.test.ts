import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { openrsComparisonRules, openrsIntentRule } from './judge-fixtures.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';
import { tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const rules = (table: Record<string, 'A' | 'B' | 'same'>): ScriptRule[] => [
  openrsIntentRule,
  ...openrsComparisonRules(table),
];

const modelsFile = (dir: string) => {
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: scripted-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return join(dir, 'models.yaml');
};
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('rewardkit judge pairwise --judge openrs', () => {
  test('should print a verdict per pair with its detail, decide by ground truth without calls, and flag a bad row', async () => {
    const dir = tempDir();
    // ALPHA wins as A and loses as B: it wins both orders. GAMMA wins as A in both orders: inconsistent.
    server.script(...rules({ ALPHA: 'A', BETA: 'B', GAMMA: 'A', DELTA: 'A' }));
    const rows = [
      { id: 1, prompt: 'A line about rain.', first: 'ALPHA', second: 'BETA' },
      { id: 2, prompt: 'A line about rain.', chosen: 'GAMMA', rejected: 'DELTA' },
      { id: 3, prompt: 'What is 2+2?', first: 'The answer is 5.', second: '\\boxed{4}', reference: '4' },
      { id: 4, prompt: 'q', first: 'x', second: 'y', constraints: [{ kwargs: {} }] },
    ];
    const run = await runCli(
      [
        'judge',
        'pairwise',
        '--judge',
        'openrs',
        '--models',
        modelsFile(dir),
        '--model',
        'judge',
        '--input',
        '-',
      ],
      { stdin: `${rows.map((r) => JSON.stringify(r)).join('\n')}\n` },
    );
    expect(run.code).toBe(3);
    const out = lines(run.stdout);
    expect(out.map((r) => [r.id, r.verdict ?? 'error'])).toEqual([
      ['1', 'first'],
      ['2', 'inconsistent'],
      ['3', 'second'],
      ['4', 'error'],
    ]);
    expect(out[0].calls).toBe(3);
    expect(out[0].detail.intent.domains).toEqual(['creative-writing']);
    expect(out[0].detail.orders.map((o: { aggregate: { score: number } }) => o.aggregate.score)).toEqual([
      2, -2,
    ]);
    expect(out[0].decided_by).toBe('rubric');
    expect(out[2]).toMatchObject({
      calls: 0,
      decided_by: 'ground truth',
      detail: { decidedBy: 'ground_truth', labels: { first: 'verifiable_bad', second: 'verifiable_good' } },
    });
    expect(out[3].error).toMatch(/constraints/);
    // The comparison prompts carry the shipped creative-writing pool that the intent chose.
    const comparison = server.requests.find((r) => JSON.stringify(r.body).includes('Response A:'));
    expect(String(comparison?.body.messages?.[0]?.content)).toMatch(/### Creative writing/);
  });

  test('should use a user meta-rubric and pool folder, and name the file and line of a broken one', async () => {
    const dir = tempDir();
    cpSync(join(repoRoot, 'presets/openrs'), join(dir, 'openrs'), { recursive: true });
    writeFileSync(
      join(dir, 'openrs/domains/creative-writing.md'),
      '# Verse\nPoems only.\n- [core] Scansion: every line scans.\n',
    );
    writeFileSync(
      join(dir, 'openrs/meta-rubric.md'),
      `# House rubric\n## Ideal answer\nShort.\n## Hard flaws\n### Factuality\n- lies\n### Harmfulness\n- harm\n### Response alignment\n- drift\n## Comparison protocol\nCompare. HOUSE-RULE-7.\n`,
    );
    server.script(...rules({ ALPHA: 'A', BETA: 'B' }));
    const args = [
      'judge',
      'pairwise',
      '--judge',
      'openrs',
      '--models',
      modelsFile(dir),
      '--model',
      'judge',
      '--input',
      '-',
      '--meta-rubric',
      join(dir, 'openrs/meta-rubric.md'),
      '--domains',
      join(dir, 'openrs/domains'),
    ];
    const stdin = `${JSON.stringify({ id: 1, prompt: 'p', first: 'ALPHA', second: 'BETA' })}\n`;
    const ok = await runCli(args, { stdin });
    expect(ok.code).toBe(0);
    const system = String(server.requests[1]?.body.messages?.[0]?.content);
    expect(system).toMatch(/HOUSE-RULE-7/);
    expect(system).toMatch(/### Verse\n- \[core\] Scansion: every line scans\./);

    writeFileSync(
      join(dir, 'openrs/domains/chit-chat.md'),
      '# Chat\nSmall talk.\n- [hard_flaw] Rude: is rude.\n',
    );
    const broken = await runCli(args, { stdin });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/chit-chat\.md:3: dimension: a hard_flaw criterion names its dimension/);
  });

  test('should refuse flags that belong to the other judge', async () => {
    const dir = tempDir();
    const base = ['judge', 'pairwise', '--models', modelsFile(dir), '--model', 'judge', '--input', '-'];
    const votes = await runCli([...base, '--judge', 'openrs', '--votes', '3'], { stdin: '' });
    expect(votes.code).not.toBe(0);
    expect(votes.stderr).toMatch(/--votes applies to --judge genrm only/);
    // An existing file: the flag, not the path, is what is wrong here.
    writeFileSync(join(dir, 'x.md'), '# meta-rubric\n');
    const rubric = await runCli([...base, '--meta-rubric', join(dir, 'x.md')], { stdin: '' });
    expect(rubric.stderr).toMatch(/--meta-rubric and --domains apply to --judge openrs only/);
    const unknown = await runCli([...base, '--judge', 'vibes'], { stdin: '' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Allowed choices are genrm, openrs/);
  });
});

describe('rewardkit score with an openrs source', () => {
  test('should score responses against their references, use IFEval instructions, and record inconsistency and failures', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: openrs\n    params:\n      model: judge\n      reasks: 0\n      inconsistent_score: 0.25\n',
    );
    const rows = [
      { id: 'wins', prompt: 'A line about rain.', response: 'GOOD-LINE', reference: 'REF-LINE' },
      { id: 'biased', prompt: 'A line about rain.', response: 'ODD-LINE', reference: 'REF-LINE-2' },
      { id: 'math', prompt: 'What is 6*7?', response: 'The answer is 41.', reference: '42' },
      {
        id: 'ifeval',
        prompt: 'A line about rain, no commas.',
        response: 'Rain falls soft and slow.',
        reference: 'Rain, rain, go away.',
        metadata: { instruction_id_list: ['punctuation:no_comma'], kwargs: [{}] },
      },
      { id: 'broken', prompt: 'A line about rain.', response: 'BROKEN-LINE', reference: 'REF-LINE' },
    ];
    writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    server.script(
      {
        match: { role: 'system', contains: 'You compare one response with the reference answer' },
        reply: { content: JSON.stringify({ reason: 'both are lines', verdict: 'matches' }) },
      },
      { match: { contains: /<response-a-\w+>\nBROKEN-LINE/ }, reply: { content: 'no verdict here' } },
      ...rules({ 'GOOD-LINE': 'A', 'REF-LINE': 'B', 'ODD-LINE': 'A', 'REF-LINE-2': 'A' }),
    );
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      modelsFile(dir),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      out,
    ]);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward])).toEqual([
      ['wins', 1],
      ['biased', 0.25],
      ['math', 0],
      ['ifeval', 1],
      ['broken', null],
    ]);
    expect(JSON.stringify(results[1]?.warnings)).toMatch(
      /the two orders disagreed: scored 0.25 \(params.inconsistent_score\)/,
    );
    const evidence = (i: number) =>
      (results[i]?.evidence as Array<{ reason: string }> | undefined)?.[0]?.reason;
    expect(evidence(2)).toMatch(/loses to the reference \(decided by ground truth\)/);
    expect(evidence(3)).toMatch(/beats the reference \(decided by constraints\)/);
    const wins = tracedCalls((results[0]?.evidence as unknown[] | undefined)?.[0]);
    // Both orders of the comparison, tagged, after the pre-check and the intent analysis.
    expect(wins.map((c) => [c.role, c.order])).toEqual([
      ['openrs_ground_truth', undefined],
      ['openrs_intent', undefined],
      ['openrs_comparison', 'forward'],
      ['openrs_comparison', 'backward'],
    ]);
    expect(String(results[4]?.errors)).toMatch(/no readable verdict: forward comparison: .*no JSON object/);
    expect(run.code).toBe(3);
    // The backward order shows the reference as A and the response as B.
    const users = server.requests.map((r) => String(r.body.messages?.[1]?.content));
    expect(
      users.some((u) =>
        /Response A:\n<response-a-\w+>\nREF-LINE\n[\s\S]*Response B:\n<response-b-\w+>\nGOOD-LINE\n/.test(u),
      ),
    ).toBe(true);
  });
});
