import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadMetaRubric } from '../src/judges/openrs/index.js';
import { DEFAULT_META_RUBRIC } from '../src/judges/openrs/openrs-files.js';
import { runCli, tempDir } from './cli-harness.js';
import { openrsIntentRule, openrsWhenA } from './judge-fixtures.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const idealAnswer = loadMetaRubric(DEFAULT_META_RUBRIC).sections[0]?.body as string;
/** The seed judge gets p1, p2 right and p3, p4 wrong; under FIXED-RULE it gets every pair right. */
const script = () =>
  server.script(
    openrsIntentRule,
    openrsWhenA('GOOD\\d', 'A', 'FIXED-RULE'),
    openrsWhenA('BAD\\d', 'B', 'FIXED-RULE'),
    openrsWhenA('GOOD[12]', 'A'),
    openrsWhenA('BAD[12]', 'B'),
    openrsWhenA('GOOD[34]', 'B'),
    openrsWhenA('BAD[34]', 'A'),
    {
      match: { model: 'scripted-mutator' },
      reply: {
        content: JSON.stringify({ rationale: 'r', section: `${idealAnswer}\n\nFIXED-RULE: imagery.` }),
      },
    },
  );

function setup() {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    [
      'models:',
      '  judge:',
      '    model: scripted-judge',
      `    base_url: ${server.url}`,
      '    max_retries: 0',
      '  mutator:',
      '    model: scripted-mutator',
      `    base_url: ${server.url}`,
      '    max_retries: 0',
      '',
    ].join('\n'),
  );
  const rows = [1, 2, 3, 4].map((k) => ({
    id: `p${k}`,
    prompt: `A line about rain ${k}.`,
    chosen: `GOOD${k}`,
    rejected: `BAD${k}`,
  }));
  writeFileSync(join(dir, 'pairs.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const args = (...more: string[]) => [
    'rubrics',
    'evolve',
    '--models',
    join(dir, 'models.yaml'),
    '--judge',
    'judge',
    '--mutator',
    'mutator',
    '--labelled',
    join(dir, 'pairs.jsonl'),
    '--out',
    join(dir, 'evo'),
    '--section',
    'Ideal answer',
    '--population',
    '2',
    '--held-out',
    '0.25',
    '--seed',
    '1',
    ...more,
  ];
  return { dir, args };
}

describe('rewardkit rubrics evolve', () => {
  test('should add w · Proxy-GRM rubric quality to the fitness with --quality-weight, the proxy shown only the rubric', async () => {
    script();
    const proxyReply = (preferred: 1 | 2) => ({
      content: JSON.stringify({ reason: 'per the rubric', preferred }),
    });
    server.script(
      {
        match: { model: 'scripted-proxy', contains: /Response 1:\n<response-1-\w+>\nGOOD/ },
        reply: proxyReply(1),
      },
      { match: { model: 'scripted-proxy' }, reply: proxyReply(2) },
    );
    const { dir, args } = setup();
    const models = join(dir, 'models.yaml');
    writeFileSync(
      models,
      `${readFileSync(models, 'utf8')}  proxy:\n    model: scripted-proxy\n    base_url: ${server.url}\n    max_retries: 0\n`,
    );
    const refused = await runCli(args('--generations', '1', '--quality-weight', '0.5'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--quality-weight needs --proxy-model/);
    const run = await runCli(args('--generations', '1', '--quality-weight', '0.5', '--proxy-model', 'proxy'));
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    // The proxy reads every training rubric the right way: quality +1, weighted 0.5, on top of the accuracy.
    expect(summary.train.seed).toMatchObject({ quality: 0.5 });
    expect(summary.train.best).toMatchObject({ accuracy: 1, quality: 0.5, fitness: 1.5 });
    const proxied = server.requests.filter((r) => r.body.model === 'scripted-proxy');
    expect(proxied.length).toBeGreaterThan(0);
    for (const r of proxied) {
      const text = JSON.stringify(r.body.messages);
      expect(text).not.toMatch(/"winner"|evidence_a|"strength"/);
    }
    expect(JSON.parse(readFileSync(join(dir, 'evo', 'evolution.json'), 'utf8'))).toMatchObject({
      quality_weight: 0.5,
      proxy: 'proxy',
    });
  });

  test('should evolve, write every generation and a best meta-rubric that --meta-rubric accepts, report held-out fitness, and resume', async () => {
    script();
    const { dir, args } = setup();
    const run = await runCli(args('--generations', '1'));
    expect(run.stderr).toMatch(/3 training pair\(s\), 1 held out; sections: Ideal answer/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ best: 'g1-0', generations: 1, train: { best: { fitness: 1 } } });
    expect(summary.train.seed.fitness).toBeLessThan(1);
    expect(summary.held_out.pairs).toBe(1);
    // The held-out pair (p4 with this seed) is one the seed misjudges and the evolved rubric gets right.
    expect(summary.held_out.seed.fitness).toBe(0);
    expect(summary.held_out.best.fitness).toBe(1);
    expect(summary.held_out.difference).toMatchObject({ pairs: 1, mean: 1 });
    expect(summary.held_out.best.interval).toEqual([1, 1]);
    expect(run.stderr).toMatch(/held-out \(1 pairs\): seed .* best 1\.000 \[1\.000, 1\.000\]/);
    const evo = join(dir, 'evo');
    expect(readdirSync(join(evo, 'generations'))).toEqual(['gen-0000.json', 'gen-0001.json']);
    const best = readFileSync(join(evo, 'best-meta-rubric.md'), 'utf8');
    expect(best).toMatch(/FIXED-RULE: imagery\./);
    const heldOut = JSON.parse(readFileSync(join(evo, 'held-out.json'), 'utf8'));
    expect(heldOut).toMatchObject({ seed_variant: 'g0-seed', best_variant: 'g1-0' });
    // The mutator saw training pairs only, and never which response was preferred.
    const [held] = heldOut.best.outcomes.map((o: { id: string }) => o.id.slice(1));
    const mutations = server.requests.filter((r) => r.body.model === 'scripted-mutator');
    expect(mutations.length).toBeGreaterThan(0);
    for (const request of mutations) {
      const text = JSON.stringify(request.body.messages);
      expect(text).not.toContain(`rain ${held}.`);
      expect(text).not.toMatch(/chosen|rejected|label/i);
    }

    // The best file is a meta-rubric the judge takes: its text reaches the comparison prompt.
    writeFileSync(
      join(dir, 'pair.jsonl'),
      '{"id": 1, "prompt": "A line about rain 9.", "first": "GOOD9", "second": "BAD9"}\n',
    );
    const before = server.requests.length;
    const judged = await runCli([
      'judge',
      'pairwise',
      '--judge',
      'openrs',
      '--models',
      join(dir, 'models.yaml'),
      '--model',
      'judge',
      '--meta-rubric',
      join(evo, 'best-meta-rubric.md'),
      '--input',
      join(dir, 'pair.jsonl'),
    ]);
    expect(judged.code).toBe(0);
    expect(JSON.parse(judged.stdout).verdict).toBe('first');
    expect(JSON.stringify(server.requests.slice(before))).toMatch(/FIXED-RULE: imagery/);

    // A rerun asking for more generations continues: generations 0 and 1 are kept as they were.
    const stored = readFileSync(join(evo, 'generations', 'gen-0001.json'), 'utf8');
    const resumed = await runCli(args('--generations', '2'));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).not.toMatch(/generation [01]:/);
    expect(resumed.stderr).toMatch(/generation 2: /);
    expect(readFileSync(join(evo, 'generations', 'gen-0001.json'), 'utf8')).toBe(stored);
    expect(readdirSync(join(evo, 'generations'))).toHaveLength(3);
    expect(resumed.stderr).toMatch(/read back from held-out\.json: the best is unchanged/);

    // Nothing left to do: a rerun makes no call and reports the same.
    const calls = server.requests.length;
    const again = await runCli(args('--generations', '2'));
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(calls);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(resumed.stdout));

    // Other inputs are another experiment: refused, naming what differs.
    const other = await runCli(args('--generations', '2', '--tie-penalty', '1'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds another evolution \(tie_penalty differs/);
  });

  test.each([
    [
      'a malformed meta-rubric, by file and line',
      (dir: string) => {
        writeFileSync(join(dir, 'bad.md'), '# Meta\n\n## Ideal answer\n\nBe good.\n');
        return ['--meta-rubric', join(dir, 'bad.md')];
      },
      /bad\.md:5: sections: missing the "## Hard flaws" section/,
    ],
    ['an unknown section', () => ['--section', 'Style'], /--section "Style": .* has no such "##" section/],
    [
      'an empty labelled set',
      (dir: string) => {
        writeFileSync(join(dir, 'pairs.jsonl'), '\n');
        return [];
      },
      /pairs\.jsonl holds no labelled pairs/,
    ],
    [
      'a bad labelled line',
      (dir: string) => {
        writeFileSync(join(dir, 'pairs.jsonl'), '{"id": 1, "prompt": "q", "chosen": "a"}\n');
        return [];
      },
      /pairs\.jsonl:1: rejected: /,
    ],
  ])('should refuse %s before any model call', async (_, prepare, error) => {
    script();
    const { dir, args } = setup();
    const run = await runCli([...args(), ...prepare(dir)]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(error);
    expect(server.requests).toHaveLength(0);
  });
});
