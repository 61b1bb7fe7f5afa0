import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

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
        ],
      ],
      { env: { JUDGE_KEY: 'sk-test' } },
    );
    expect(run.stderr).toMatch(/LIFTS judge-injection/);
    expect(run.stderr).toMatch(/ok {4}flattering-opener/);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as {
      samples: number;
      exploits: Array<{ name: string; lifted_share: number; failed: number }>;
    };
    expect(report.samples).toBe(7);
    expect(report.exploits.map((e) => [e.name, e.lifted_share, e.failed])).toEqual([
      ['judge-injection', 1, 1],
      ['flattering-opener', 0, 1],
    ]);
  });
});
