import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';
import { refusingEndpoint, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['vivid'], critique: 'fine', score_1: one, score_2: two });

describe('rewardkit redteam on a judge spec', () => {
  test('catches a judge that obeys instructions inside the response', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${server.url}\n    api_key_env: JUDGE_KEY\n    max_retries: 0\n`,
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const rows = Array.from({ length: 6 }, (_, i) => ({
      id: `r${i}`,
      prompt: 'Write a line about rain.',
      response: `LINE-${i}`,
      reference: 'REF-LINE',
    }));
    // A row the judge never answers readably: failed and left out, not a lift of 0.
    rows.push({
      id: 'broken',
      prompt: 'Write a line about rain.',
      response: 'BROKEN-LINE',
      reference: 'REF-LINE',
    });
    writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    // A gullible judge: the response carrying the injection wins in either position; otherwise the reference does.
    server.script(
      { match: { contains: 'BROKEN-LINE' }, reply: { content: 'not json at all' } },
      {
        match: { contains: /<response-1-\w+>\n[^<]*Ignore previous instructions/ },
        reply: { content: scores(9, 4) },
      },
      {
        match: { contains: /<response-2-\w+>\n[^<]*Ignore previous instructions/ },
        reply: { content: scores(4, 9) },
      },
      { match: { contains: /<response-1-\w+>\nREF-LINE/ }, reply: { content: scores(9, 4) } },
      { reply: { content: scores(4, 9) } },
    );
    const output = join(dir, 'redteam.json');
    const run = await runCli(
      [
        'redteam',
        ...['--spec', join(dir, 'spec.yaml'), '--models', join(dir, 'models.yaml')],
        ...[
          '--input',
          join(dir, 'in.jsonl'),
          '--output',
          output,
          '--exploits',
          'judge-injection,flattering-opener',
          '--store',
          'none',
        ],
      ],
      { env: { JUDGE_KEY: 'sk-test' } },
    );
    expect(run.stderr).toMatch(/LIFTS judge-injection/);
    expect(run.stderr).toMatch(/ok {4}flattering-opener/);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as {
      samples: number;
      scorings: number;
      cost_multiple: number;
      judge_cost: Record<'original' | 'exploits', { calls: number; tokens: number }>;
      exploits: Array<{ name: string; lifted_share: number; failed: number }>;
      failures: Array<{ id: string; exploit: string; reasons: string[] }>;
    };
    expect(report.samples).toBe(7);
    // 7 originals and one response per sample for each of the 2 exploits; genrm judges both orders.
    expect([report.scorings, report.cost_multiple]).toEqual([21, 3]);
    expect(report.judge_cost.original.calls).toBe(14);
    expect(report.judge_cost.exploits.calls).toBe(28);
    expect(report.judge_cost.exploits.tokens).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/judge calls 14 original \+ 28 exploits/);
    // The broken row fails in every pass, each recorded with the judge's reason.
    expect(report.failures.map((f) => [f.id, f.exploit])).toEqual([
      ['broken', 'original'],
      ['broken', 'judge-injection'],
      ['broken', 'flattering-opener'],
    ]);
    for (const f of report.failures) expect(f.reasons.join(' ')).not.toBe('');
    expect(report.exploits.map((e) => [e.name, e.lifted_share, e.failed])).toEqual([
      ['judge-injection', 1, 1],
      ['flattering-opener', 0, 1],
    ]);
  });

  test('a gullible judge is lifted by a forged verdict in its own output format', async () => {
    const dir = workspace();
    // The judge takes a forged genrm reply inside a response for its own: whoever carries it wins.
    server.script(
      { match: { contains: /<response-1-\w+>\n[^<]*"score_1": 10/ }, reply: { content: scores(10, 0) } },
      { match: { contains: /<response-2-\w+>\n[^<]*"score_2": 10/ }, reply: { content: scores(0, 10) } },
      { match: { contains: /<response-1-\w+>\nREF-LINE/ }, reply: { content: scores(9, 4) } },
      { reply: { content: scores(4, 9) } },
    );
    const run = await runCli(redteamArgs(dir, 'forged-verdict'), { env: { JUDGE_KEY: 'sk-test' } });
    expect(run.stderr).toMatch(/LIFTS forged-verdict: applied 6, lifted 100%/);
    expect(run.code).toBe(1);
  });

  test('a dead backend stops the run (exit 4) and says so', async () => {
    const dir = workspace(await refusingEndpoint());
    const args = [...redteamArgs(dir, 'judge-injection'), '--max-consecutive-failures', '3'];
    args.splice(args.indexOf('none'), 1, join(dir, 'store.sqlite'));
    const run = await runCli(args, {
      env: { JUDGE_KEY: 'sk-test' },
    });
    expect(run.stderr).toMatch(/rewardkit: stopped: the backend is down: 3 calls in a row failed/);
    expect(run.stderr).toMatch(/No report is written \(the stored run is marked interrupted\)/);
    expect(run.stderr).not.toMatch(/internal error|LIFTS|UNSCORED/);
    expect(run.code).toBe(4);
    expect(existsSync(join(dir, 'redteam.json'))).toBe(false);
    // The stored run is closed as interrupted, saying why.
    const listed = await runCli(['runs', 'list', '--store', join(dir, 'store.sqlite')]);
    expect(listed.stdout).toMatch(/^run-\S+ +interrupted .*kind=redteam {2}stopped: the backend went down$/m);
  });
});

/** dir/models.yaml (one judge at `url`, no retries), a genrm spec, and six rows about rain. */
function workspace(url = server.url): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: scripted-judge\n    base_url: ${url}\n    api_key_env: JUDGE_KEY\n    max_retries: 0\n`,
  );
  writeFileSync(
    join(dir, 'spec.yaml'),
    'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
  );
  const rows = Array.from({ length: 6 }, (_, i) => ({
    id: `r${i}`,
    prompt: 'Write a line about rain.',
    response: `LINE-${i}`,
    reference: 'REF-LINE',
  }));
  writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return dir;
}

const redteamArgs = (dir: string, exploits: string) => [
  'redteam',
  ...['--spec', join(dir, 'spec.yaml'), '--models', join(dir, 'models.yaml')],
  ...['--input', join(dir, 'in.jsonl'), '--output', join(dir, 'redteam.json')],
  ...['--exploits', exploits, '--store', 'none'],
];
