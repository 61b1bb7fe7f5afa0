import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const corpus = join(repoRoot, 'examples/corpus/corpus.jsonl');
const QUESTION = 'Which botanist founded the town on the Kasith River that is known for its river pearls?';
const json = (value: unknown) => ({ content: JSON.stringify(value) });

function setup(seeds: unknown[]) {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  policy:\n    model: policy\n    base_url: ${server.url}\n    max_retries: 0\n  judge:\n    model: judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  const seedsFile = join(dir, 'seeds.jsonl');
  writeFileSync(
    seedsFile,
    `${seeds.map((s) => (typeof s === 'string' ? s : JSON.stringify(s))).join('\n')}\n`,
  );
  return { dir, models, seedsFile, out: join(dir, 'ssp') };
}

/** The policy proposes for "Lio Lusk" with two searches and solves with one search; "1678" is rejected. */
function script() {
  server.script(
    {
      match: { model: 'policy', contains: /Answer: Lio Lusk[\s\S]*<search>Solrune founder/ },
      reply: { content: `<question>${QUESTION}</question>` },
    },
    {
      match: { model: 'policy', contains: /Answer: Lio Lusk[\s\S]*<search>Kasith River river pearls/ },
      reply: { content: '<search>Solrune founder</search>' },
    },
    {
      match: { model: 'policy', contains: 'Answer: Lio Lusk' },
      reply: { content: '<search>Kasith River river pearls</search>' },
    },
    {
      match: { model: 'policy', contains: 'Answer: 1678' },
      reply: { content: '<question>When?</question>' },
    },
    {
      match: { model: 'judge', contains: 'Document set 1' },
      reply: json({ evidence: 'founded by the botanist Lio Lusk', answer: 'Lio Lusk' }),
    },
    {
      match: { model: 'policy', role: 'assistant', contains: '<search>botanist Kasith River pearls' },
      reply: { content: '<answer>Lio Lusk</answer>' },
    },
    {
      match: { model: 'policy', contains: QUESTION },
      reply: { content: '<search>botanist Kasith River pearls</search>' },
    },
  );
}

describe('rewardkit index', { timeout: 120_000 }, () => {
  test('should build an index, list bad corpus rows, and answer queries', async () => {
    const dir = tempDir();
    const bad = join(dir, 'corpus.jsonl');
    writeFileSync(bad, `${readFileSync(corpus, 'utf8')}{"id": "x"}\n`);
    const idx = join(dir, 'idx');
    const built = await runCli(['index', 'build', '--corpus', bad, '--out', idx]);
    expect(built.code).toBe(3);
    expect(built.stderr).toMatch(
      /^rewardkit index build: 255 documents, 1 failed, \d+ terms; index .*idx \(\d+ ms\)\n/,
    );
    expect(built.stderr).toContain(`${bad}:256: field "contents": needs "contents", or "title" and "text"`);
    expect(readJsonl(join(idx, 'failed.jsonl'))).toEqual([
      {
        id: 'x',
        line: 256,
        errors: [`${bad}:256: field "contents": needs "contents", or "title" and "text"`],
      },
    ]);
    const query = await runCli([
      'index',
      'query',
      '--index',
      idx,
      '-k',
      '2',
      'Which town was founded by the botanist Lio Lusk?',
      '青石镇是谁建立的',
    ]);
    expect(query.code).toBe(0);
    expect(query.stdout).toBe(
      [
        '# Which town was founded by the botanist Lio Lusk?',
        'Doc 1 (Title: Lio Lusk) Lio Lusk was a botanist born in 1625 in Solost. Lio later founded the town of Solrune.',
        'Doc 2 (Title: Solrune) Solrune is a town on the Kasith River. It was founded in 1678 by the botanist Lio Lusk, and it is known for its river pearls.',
        '# 青石镇是谁建立的',
        'Doc 1 (Title: 青石镇) 青石镇是一座古老的小镇，由林若水于1350年建立，以出产竹纸闻名。',
        'Doc 2 (Title: 铁炉镇) 铁炉镇是一座古老的小镇，由叶听澜于1670年建立，以出产丝绸闻名。',
        '',
      ].join('\n'),
    );
    const asJson = await runCli(['index', 'query', '--index', idx, '--json', '-k', '1', 'Solrune']);
    expect(JSON.parse(asJson.stdout)).toEqual({
      query: 'Solrune',
      results: [{ id: 'town-0', contents: expect.stringMatching(/^Solrune\n/), score: expect.any(Number) }],
    });
    const missing = await runCli(['index', 'query', '--index', join(dir, 'nope'), 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /--index .*nope: not found; expected the index directory \(rewardkit index build\)/,
    );
  });
});

// Each test runs the CLI several times; on a loaded machine a run takes seconds.
describe('rewardkit index serve', { timeout: 120_000 }, () => {
  test('should serve the index over the retriever contract to rewardkit selfplay, and stop on Ctrl-C', async () => {
    script();
    const { dir, models, seedsFile, out } = setup([{ id: 'lusk', answer: 'Lio Lusk', searches: 2 }]);
    const idx = join(dir, 'idx');
    expect((await runCli(['index', 'build', '--corpus', corpus, '--out', idx])).code).toBe(0);
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'dist/cli/main.js'), 'index', 'serve', '--index', idx, '--port', '0'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d) => {
          stderr += d;
          const found = /listening on (http:\/\/\S+)\n/.exec(stderr);
          if (found) resolve(found[1] as string);
        });
        child.on('close', () => reject(new Error(`index serve exited: ${stderr}`)));
      });
      expect(stderr).toMatch(
        /^rewardkit index serve: 255 documents from .*idx; listening on http:\/\/127\.0\.0\.1:\d+\/retrieve\n$/,
      );
      const bad = await fetch(url, { method: 'POST', body: '{"queries": "x"}' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        error: 'field "queries": Invalid input: expected array, received string',
      });
      const run = await runCli([
        'selfplay',
        '--seeds',
        seedsFile,
        '--retriever-url',
        url,
        '--models',
        models,
        '--rollouts',
        '1',
        '-o',
        out,
      ]);
      expect(run.stderr).toContain('1 verified, 0 rejected, 0 failed');
      const [record] = readJsonl(join(out, 'rewards.jsonl'));
      expect(record).toMatchObject({ status: 'verified', question: QUESTION, solver_rewards: [1] });
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});

describe('rewardkit selfplay', { timeout: 120_000 }, () => {
  test('should verify and reject questions, write rewards and the pool, and resume', async () => {
    script();
    const { dir, models, seedsFile, out } = setup([
      { id: 'lusk', answer: 'Lio Lusk', searches: 2 },
      { id: 'year', answer: '1678' },
      '{"id": "bad"}',
    ]);
    const idx = join(dir, 'idx');
    expect((await runCli(['index', 'build', '--corpus', corpus, '--out', idx])).code).toBe(0);
    const args = [
      'selfplay',
      '--seeds',
      seedsFile,
      '--corpus',
      idx,
      '--models',
      models,
      '--rollouts',
      '2',
      '--output',
      out,
    ];
    const first = await runCli(args);
    expect(first.stderr).toBe(
      `rewardkit selfplay: 1 round(s) × 2 seeds: 1 verified, 1 rejected, 1 failed, 0 skipped; pool 1 tasks; mean proposer reward -0.500, mean solve rate 1.000; output ${out}\n`,
    );
    expect(first.code).toBe(3);
    const rewards = readJsonl(join(out, 'rewards.jsonl'));
    const byId = Object.fromEntries(rewards.map((r) => [r.id, r]));
    expect(byId['seed:bad']).toEqual({
      id: 'seed:bad',
      status: 'failed',
      errors: [`${seedsFile}:3: field "answer": Invalid input: expected string, received undefined`],
    });
    expect(byId['1:lusk']).toMatchObject({
      status: 'verified',
      question: QUESTION,
      solver_rewards: [1, 1],
      solve_rate: 1,
      proposer_reward: 0,
      rag_check: { answer: 'Lio Lusk', matched_by: 'exact' },
      proposer: { searches: ['Kasith River river pearls', 'Solrune founder'], turns: 3 },
    });
    expect(byId['1:year']).toMatchObject({ status: 'rejected', proposer_reward: -1 });
    expect(((byId['1:year']?.rejections ?? []) as Array<{ code: string }>).map((r) => r.code)).toEqual([
      'too_short',
      'too_few_words',
      'no_retrieved_content',
      'too_few_searches',
    ]);
    expect(readJsonl(join(out, 'tasks.jsonl'))).toEqual([
      {
        id: '1:lusk',
        round: 1,
        seed_id: 'lusk',
        question: QUESTION,
        answer: 'Lio Lusk',
        golds: ['Lio Lusk'],
        searches: ['Kasith River river pearls', 'Solrune founder'],
        solve_rate: 1,
      },
    ]);
    // The solver's first search came back from the shipped corpus as <information>.
    const solverTurn2 = server.requests.find((r) =>
      JSON.stringify(r.body).includes('<search>botanist Kasith River pearls</search>'),
    );
    expect(String(solverTurn2?.body.messages?.[3]?.content)).toMatch(
      /^<information>\nDoc 1 \(Title: Solrune\) Solrune is a town on the Kasith River/,
    );

    // Rerun: nothing left to do, no model call. Then a second round: only round 2 runs, and
    // the same question does not enter the pool twice.
    const calls = server.requests.length;
    const again = await runCli(args);
    expect(again.stderr).toContain('0 verified, 0 rejected, 1 failed, 2 skipped; pool 1 tasks');
    expect(server.requests).toHaveLength(calls);
    const more = await runCli([...args, '--rounds', '2']);
    expect(more.stderr).toContain(
      '2 round(s) × 2 seeds: 1 verified, 1 rejected, 1 failed, 2 skipped; pool 1 tasks',
    );
    // Records are appended as they finish, so within a round their order depends on timing.
    const ids = readJsonl(join(out, 'rewards.jsonl')).map((r) => r.id as string);
    expect(ids[0]).toBe('seed:bad');
    expect(ids.slice(1, 3).sort()).toEqual(['1:lusk', '1:year']);
    expect(ids.slice(3).sort()).toEqual(['2:lusk', '2:year']);
    expect(readJsonl(join(out, 'tasks.jsonl'))).toHaveLength(1);
  });

  test('should search an HTTP retriever and fail records, not score them, when it is down', async () => {
    script();
    const { models, seedsFile, out } = setup([{ id: 'lusk', answer: 'Lio Lusk', searches: 2 }]);
    let up = true;
    const bodies: unknown[] = [];
    const retrieval = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        if (!up) {
          res.writeHead(503).end('{"error": "index loading"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            result: [
              [
                {
                  document: {
                    contents:
                      'Solrune\nFounded by the botanist Lio Lusk. Known for river pearls on the Kasith River.',
                  },
                  score: 3.5,
                },
              ],
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => retrieval.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(retrieval.address() as AddressInfo).port}/retrieve`;
    try {
      const ok = await runCli([
        'selfplay',
        '--seeds',
        seedsFile,
        '--retriever-url',
        url,
        '--models',
        models,
        '--rollouts',
        '1',
        '-k',
        '1',
        '-o',
        out,
      ]);
      expect(ok.stderr).toContain('1 verified, 0 rejected, 0 failed');
      expect(ok.code).toBe(0);
      expect(bodies[0]).toEqual({ queries: ['Kasith River river pearls'], topk: 1, return_scores: true });
      up = false;
      const down = await runCli([
        'selfplay',
        '--seeds',
        seedsFile,
        '--retriever-url',
        url,
        '--models',
        models,
        '--rollouts',
        '1',
        '-o',
        join(out, 'down'),
      ]);
      expect(down.code).toBe(3);
      const [record] = readJsonl(join(out, 'down', 'rewards.jsonl'));
      expect(record).toMatchObject({ status: 'failed', proposer_reward: null });
      expect(record?.error).toMatch(
        /^proposer episode failed: retriever http:.* failed after 3 attempt\(s\): attempt 1: HTTP 503/,
      );
    } finally {
      retrieval.closeAllConnections();
      await new Promise<void>((resolve) => retrieval.close(() => resolve()));
    }
  });

  test('should refuse ambiguous or missing retriever flags', async () => {
    const { models, seedsFile, out } = setup([{ id: 'a', answer: 'x' }]);
    const none = await runCli(['selfplay', '--seeds', seedsFile, '--models', models, '-o', out]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'rewardkit: selfplay needs exactly one of --corpus <index dir> or --retriever-url <url>\n',
    );
    const help = await runCli(['selfplay', '--help']);
    expect(help.stdout).toContain('--retriever-url <url>');
    expect(help.stdout).toContain('rewardkit selfplay --seeds examples/selfplay/seeds.jsonl');
  });
});

describe('rewardkit selfplay --judge-model (--judge is its old name)', () => {
  test('should pick the RAG check model by --judge-model, and by --judge with one deprecation line', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  policy:\n    model: p\n    base_url: ${server.url}\n    max_retries: 0\n`,
    );
    writeFileSync(join(dir, 'seeds.jsonl'), '{"id": "a", "answer": "x"}\n');
    const args = ['selfplay', '--seeds', join(dir, 'seeds.jsonl'), '--retriever-url', server.url];
    const rest = ['--models', join(dir, 'models.yaml'), '-o', join(dir, 'out')];
    const unknown = `rewardkit: no model named "checker" in ${join(dir, 'models.yaml')} (configured: policy)\n`;
    const canonical = await runCli([...args, '--judge-model', 'checker', ...rest]);
    expect([canonical.code, canonical.stderr]).toEqual([1, unknown]);
    const alias = await runCli([...args, '--judge', 'checker', ...rest]);
    expect([alias.code, alias.stderr]).toEqual([
      1,
      `rewardkit: warning: --judge is deprecated; use --judge-model\n${unknown}`,
    ]);
    expect(server.requests).toHaveLength(0);
    const help = await runCli(['selfplay', '--help']);
    expect(help.stdout).toMatch(/--judge-model <name> +the model for the RAG check/);
    expect(help.stdout).not.toMatch(/--judge </);
  });
});
