import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';
import { tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['vivid'], critique: 'fine', score_1: one, score_2: two });

describe('rewardkit score with a GenRM source', () => {
  test('should judge each response against its reference with the configured model, and record failures', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${server.url}\n    api_key_env: JUDGE_KEY\n    max_retries: 0\n`,
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const rows = [
      { id: 'good', prompt: 'Write a line about rain.', response: 'GOOD-LINE', reference: 'REF-LINE' },
      { id: 'bad', prompt: 'Write a line about rain.', response: 'BAD-LINE', reference: 'REF-LINE' },
      { id: 'broken', prompt: 'Write a line about rain.', response: 'BROKEN-LINE', reference: 'REF-LINE' },
    ];
    writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    // Scores by what sits in position 1: GOOD beats the reference in both orders, BAD loses both.
    server.script(
      { match: { contains: /<response-1-\w+>\nGOOD-LINE/ }, reply: { content: scores(9, 4) } },
      {
        match: { contains: /<response-1-\w+>\nREF-LINE\n[\s\S]*GOOD-LINE/ },
        reply: { content: scores(4, 9) },
      },
      { match: { contains: /<response-1-\w+>\nBAD-LINE/ }, reply: { content: scores(2, 8) } },
      {
        match: { contains: /<response-1-\w+>\nREF-LINE\n[\s\S]*BAD-LINE/ },
        reply: { content: scores(8, 2) },
      },
      { reply: { content: 'not json at all' } },
    );
    const out = join(dir, 'out.jsonl');
    const run = await runCli(
      [
        'score',
        '--spec',
        join(dir, 'spec.yaml'),
        '--models',
        join(dir, 'models.yaml'),
        '--input',
        join(dir, 'in.jsonl'),
        '--output',
        out,
      ],
      { env: { JUDGE_KEY: 'sk-test' } },
    );
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward])).toEqual([
      ['good', 1],
      ['bad', 0],
      ['broken', null],
    ]);
    expect(String(results[2]?.errors)).toMatch(/no readable verdict.*no JSON object/);
    // Usage is kept with every judgment, and an invalid one keeps the trace of the calls it paid for.
    const evidence = (i: number) => (results[i]?.evidence as Array<Record<string, unknown>> | undefined)?.[0];
    expect(evidence(0)?.usage).toMatchObject({ calls: 2, retries: 0, cache_hits: 0 });
    expect(evidence(2)?.usage).toMatchObject({ calls: 2 });
    expect(evidence(2)?.detail).toMatchObject({ verdict: 'invalid' });
    // Every call is kept with its judgment: both orders, what was sent, what came back, what was read.
    const good = tracedCalls(evidence(0));
    expect(good.map((c) => [c.role, c.order, c.variant, c.raw])).toEqual([
      ['genrm_scores', 'forward', 0, scores(9, 4)],
      ['genrm_scores', 'backward', 0, scores(4, 9)],
    ]);
    expect(good[0]?.messages.at(-1)?.content).toMatch(/<response-1-\w+>\nGOOD-LINE/);
    expect(good[0]?.parsed).toMatchObject({ score_1: 9, score_2: 4 });
    expect(good[0]).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, cached: false });
    expect(tracedCalls(evidence(2)).map((c) => c.parse_error)).toEqual([
      expect.stringMatching(/no JSON object/),
      expect.stringMatching(/no JSON object/),
    ]);
    // The calls are kept once: not again inside the detail.
    expect(JSON.stringify(evidence(0)?.detail)).not.toContain('messages');
    expect(run.code).toBe(3);
    expect(server.requests.every((r) => r.body.model === 'scripted-judge')).toBe(true);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  test('should answer a rerun from the store cache, and call again with --no-cache', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
    writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - kind: genrm\n    params:\n      model: judge\n');
    writeFileSync(join(dir, 'in.jsonl'), '{"id": "a", "prompt": "p", "response": "x", "reference": "y"}\n');
    server.script({ reply: { content: scores(5, 5) } });
    const args = [
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      join(dir, 'out.jsonl'),
      '--no-resume',
    ];
    const env = { REWARDKIT_STORE: join(dir, 'store.sqlite') };
    expect((await runCli(args, { env })).code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect((await runCli(args, { env })).code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const cached = readJsonl(join(dir, 'out.jsonl'))[0];
    expect(cached?.reward).toBe(0.5);
    expect((cached?.evidence as Array<Record<string, unknown>> | undefined)?.[0]?.usage).toMatchObject({
      calls: 2,
      cache_hits: 2,
    });
    const latest = (await runCli(['runs', 'list', '-n', '1'], { env })).stdout.split(' ')[0] ?? '';
    const shown = JSON.parse((await runCli(['runs', 'show', latest], { env })).stdout);
    expect(shown.sources[0]).toMatchObject({
      source: 'genrm',
      usage: { calls: 2, cache_hits: 2 },
    });
    // A call answered from the cache is kept like any other, marked as a cache hit.
    const evidenceOf = () => (readJsonl(join(dir, 'out.jsonl'))[0]?.evidence as unknown[] | undefined)?.[0];
    expect(tracedCalls(evidenceOf()).map((c) => c.cached)).toEqual([true, true]);
    expect((await runCli([...args, '--no-cache'], { env })).code).toBe(0);
    expect(server.requests).toHaveLength(4);
    // --no-traces keeps what the calls cost and leaves the calls out, of the output and the store.
    expect((await runCli([...args, '--no-traces'], { env })).code).toBe(0);
    expect(evidenceOf()).toMatchObject({ usage: { calls: 2 } });
    expect(evidenceOf()).not.toHaveProperty('calls');
    const store = openSqliteStore(env.REWARDKIT_STORE);
    try {
      const [lean, traced] = await store.listRuns({ limit: 2 });
      expect((await store.getResult(lean?.id ?? '', 'a'))?.evidence[0]).not.toHaveProperty('calls');
      expect((await store.getResult(traced?.id ?? '', 'a'))?.evidence[0]?.calls).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  test('should compare the rollouts of each group in a round robin when the source asks for it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: genrm\n    params: {model: judge, against: group}\n',
    );
    const rows = [
      { id: 'p1-a', group: 'p1', prompt: 'Write a line about rain.', response: 'STRONG' },
      { id: 'p1-b', group: 'p1', prompt: 'Write a line about rain.', response: 'WEAK' },
      '{"id": "broken", "group": "p1"',
      { id: 'p1-c', group: 'p1', prompt: 'Write a line about rain.', response: 'MEDIUM' },
      { id: 'p2-a', group: 'p2', prompt: 'Write a line about snow.', response: 'STRONG' },
    ];
    writeFileSync(
      join(dir, 'in.jsonl'),
      `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`,
    );
    const rank = { STRONG: 3, MEDIUM: 2, WEAK: 1 } as Record<string, number>;
    server.script(
      ...['STRONG', 'MEDIUM', 'WEAK'].flatMap((one) =>
        ['STRONG', 'MEDIUM', 'WEAK'].map((two) => ({
          match: {
            contains: new RegExp(`<response-1-\\w+>\\n${one}\\n[\\s\\S]*<response-2-\\w+>\\n${two}\\n`),
          },
          reply: { content: scores(rank[one] ?? 0, rank[two] ?? 0) },
        })),
      ),
    );
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      out,
    ]);
    const byId = new Map(readJsonl(out).map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual(['line:3', 'p1-a', 'p1-b', 'p1-c', 'p2-a']);
    expect(['p1-a', 'p1-b', 'p1-c'].map((id) => byId.get(id)?.reward)).toEqual([1, 0, 0.5]);
    expect(String(byId.get('p2-a')?.errors)).toMatch(/group "p2" has only one sample/);
    expect(byId.get('line:3')?.status).toBe('failed');
    expect(run.code).toBe(3);
    // Three pairs in p1, both orders; nothing for the lone p2 rollout.
    expect(server.requests).toHaveLength(6);
  });

  test('should name a missing key variable in the models file', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n    api_key_env: NOPE_KEY\n`,
    );
    writeFileSync(join(dir, 'in.jsonl'), '{"id": "a", "response": "x", "reference": "y"}\n');
    const run = await runCli([
      'score',
      '--spec',
      'math',
      '--models',
      join(dir, 'models.yaml'),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      '-',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/models\.yaml: models\.judge: environment variable NOPE_KEY is not set/);
  });
});

describe('rewardkit judge pairwise', () => {
  test('should print a verdict per pair, accept chosen/rejected, and flag a malformed row', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
    server.script(
      { match: { contains: /<response-1-\w+>\nALPHA/ }, reply: { content: scores(9, 3) } },
      { reply: { content: scores(3, 9) } },
    );
    const rows = [
      JSON.stringify({ id: 1, prompt: 'q', first: 'ALPHA', second: 'BETA' }),
      JSON.stringify({ id: 2, prompt: 'q', chosen: 'ALPHA', rejected: 'GAMMA' }),
      JSON.stringify({ id: 3, prompt: 'q', first: 'only one' }),
    ];
    const run = await runCli(
      ['judge', 'pairwise', '--models', join(dir, 'models.yaml'), '--model', 'judge', '--input', '-'],
      {
        stdin: `${rows.join('\n')}\n`,
      },
    );
    expect(run.code).toBe(3);
    const out = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((r) => [r.id, r.verdict ?? 'error'])).toEqual([
      ['1', 'first'],
      ['2', 'first'],
      ['3', 'error'],
    ]);
    expect(out[0].calls).toBe(2);
    expect(out[2].error).toMatch(/needs "first" and "second"/);
  });

  test('should take models from REWARDKIT_MODEL_<NAME>_* variables, and refuse a name defined twice', async () => {
    server.script(
      { match: { contains: /<response-1-\w+>\nALPHA/ }, reply: { content: scores(9, 3) } },
      { reply: { content: scores(3, 9) } },
    );
    const env = {
      REWARDKIT_MODELS: '',
      REWARDKIT_MODEL_JUDGE_BASE_URL: server.url,
      REWARDKIT_MODEL_JUDGE_MODEL: 'env-judge',
      REWARDKIT_MODEL_JUDGE_API_KEY: 'sk-env',
    };
    const pair = `${JSON.stringify({ id: 1, prompt: 'q', first: 'ALPHA', second: 'BETA' })}\n`;
    const run = await runCli(['judge', 'pairwise', '--model', 'judge', '--input', '-'], { stdin: pair, env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim()).verdict).toBe('first');
    expect(server.requests[0]?.body.model).toBe('env-judge');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-env');
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
    const twice = await runCli(
      ['judge', 'pairwise', '--models', join(dir, 'models.yaml'), '--model', 'judge', '--input', '-'],
      { stdin: pair, env },
    );
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(
      /model "judge" is defined both in .*models\.yaml and by REWARDKIT_MODEL_JUDGE_\* variables/,
    );
  });

  test('should refuse to run without a models file', async () => {
    const run = await runCli(['judge', 'pairwise', '--model', 'judge', '--input', '-'], { stdin: '' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/needs a models file/);
  });
});
