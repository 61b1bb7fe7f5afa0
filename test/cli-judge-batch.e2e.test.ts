import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { type ScriptedOpenAIServer, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['clear'], critique: 'fine', score_1: one, score_2: two });

/** A models file with one judge; `extra` lines set retries and timeouts. */
function setup(extra = '    max_retries: 0\n') {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(models, `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n${extra}`);
  return { dir, models };
}

const pairs = (dir: string, ids: readonly string[]) => {
  const input = join(dir, 'pairs.jsonl');
  writeFileSync(
    input,
    `${ids.map((id) => JSON.stringify({ id, prompt: `PAIR-${id} write a line`, first: 'ONE', second: 'TWO' })).join('\n')}\n`,
  );
  return input;
};

/** Which pair a recorded request judged. */
const pairOf = (request: ScriptedOpenAIServer['requests'][number]) =>
  /PAIR-(\w+)/.exec(JSON.stringify(request.body.messages))?.[1];

describe('rewardkit judge pairwise as a batch tool', () => {
  test('should write verdicts to --output and resume a rerun without calling the judge again', async () => {
    const { dir, models } = setup();
    const input = pairs(dir, ['a', 'b', 'c']);
    const out = join(dir, 'out.jsonl');
    // Response ONE scores higher wherever it is shown: "first" wins both orders.
    server.script(
      { match: { contains: /<response-1-\w+>\nONE/ }, reply: { content: scores(8, 3) } },
      { reply: { content: scores(3, 8) } },
    );
    const args = ['judge', 'pairwise', '--models', models, '-m', 'judge', '-i', input, '-o', out];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toBe(`rewardkit judge pairwise: 3 rows, 3 ok, 0 failed, 0 skipped; output ${out}\n`);
    const verdicts = readJsonl(out);
    expect(verdicts.map((v) => [v.id, v.verdict, v.calls, v.tokens])).toEqual([
      ['a', 'first', 2, 30],
      ['b', 'first', 2, 30],
      ['c', 'first', 2, 30],
    ]);
    expect(verdicts[0]?.usage).toEqual({
      calls: 2,
      prompt_tokens: 20,
      completion_tokens: 10,
      latency_ms: expect.any(Number),
      retries: 0,
      cache_hits: 0,
      first_call_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      last_call_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const span = verdicts[0]?.usage as { first_call_at: string; last_call_at: string };
    expect(span.first_call_at <= span.last_call_at).toBe(true);
    expect(server.requests).toHaveLength(6);

    // One more pair appended: only it is judged.
    writeFileSync(
      input,
      `${readFileSync(input, 'utf8')}${JSON.stringify({ id: 'd', prompt: 'PAIR-d', first: 'ONE', second: 'TWO' })}\n`,
    );
    const second = await runCli(args);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe(
      `rewardkit judge pairwise: 4 rows, 1 ok, 0 failed, 3 skipped (resumed); output ${out}\n`,
    );
    expect(server.requests).toHaveLength(8);
    expect(server.requests.slice(6).map(pairOf)).toEqual(['d', 'd']);
    expect(readJsonl(out).map((v) => v.id)).toEqual(['a', 'b', 'c', 'd']);

    const third = await runCli(args);
    expect(third.stderr).toMatch(/4 rows, 0 ok, 0 failed, 4 skipped \(resumed\)/);
    expect(server.requests).toHaveLength(8);

    // --no-resume starts over.
    const fresh = await runCli([...args, '--no-resume']);
    expect(fresh.stderr).toMatch(/4 rows, 4 ok, 0 failed, 0 skipped;/);
    expect(server.requests).toHaveLength(16);
    expect(readJsonl(out)).toHaveLength(4);
  });

  test('should record HTTP errors, timeouts, cut connections and unreadable output per row, and complete the run', async () => {
    const { dir, models } = setup('    max_retries: 1\n    timeout_ms: 400\n');
    const input = pairs(dir, ['ok', 'http500', 'unreadable', 'hang', 'cut', 'ok2']);
    writeFileSync(input, `${readFileSync(input, 'utf8')}{"id": "no-second", "prompt": "p", "first": "x"}\n`);
    const out = join(dir, 'out.jsonl');
    server.script(
      { match: { contains: 'PAIR-http500' }, reply: { status: 500, error: 'overloaded' } },
      { match: { contains: 'PAIR-unreadable' }, reply: { content: 'Both are lovely, I cannot choose.' } },
      { match: { contains: 'PAIR-hang' }, reply: { hang: true } },
      { match: { contains: 'PAIR-cut' }, reply: { truncate: true } },
      { reply: { content: scores(5, 5) } },
    );
    const run = await runCli([
      'judge',
      'pairwise',
      '--models',
      models,
      '-m',
      'judge',
      '-i',
      input,
      '-o',
      out,
      '--no-both-orders',
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`rewardkit judge pairwise: 7 rows, 2 ok, 5 failed, 0 skipped; output ${out}\n`);
    const lines = readJsonl(out);
    expect(lines.map((l) => [l.id, l.verdict ?? null])).toEqual([
      ['ok', 'tie'],
      ['http500', 'invalid'],
      ['unreadable', 'invalid'],
      ['hang', 'invalid'],
      ['cut', 'invalid'],
      ['ok2', 'tie'],
      ['no-second', null],
    ]);
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(byId.get('ok')).not.toHaveProperty('error');
    // The 500 was retried once before the row was given up, and its reason is kept.
    expect(server.requests.filter((r) => pairOf(r) === 'http500')).toHaveLength(2);
    expect(byId.get('http500')?.error).toMatch(/^no readable verdict: .*(500|overloaded)/);
    expect(byId.get('http500')?.reason).toMatch(/500|overloaded/);
    // Unreadable output was re-asked (the default 2 re-asks) and every call is in the usage.
    expect(byId.get('unreadable')?.error).toMatch(/^no readable verdict: .*no JSON object/);
    expect(byId.get('unreadable')?.usage).toMatchObject({ calls: 3 });
    expect(byId.get('hang')?.error).toMatch(/^no readable verdict: .*time/i);
    expect(byId.get('cut')?.error).toMatch(/^no readable verdict: /);
    expect(byId.get('no-second')?.error).toMatch(/pairs\.jsonl:7: field "first": needs "first" and "second"/);
  }, 30_000);

  test('should judge several pairs at once and still write them in input order', async () => {
    const { dir, models } = setup();
    const input = pairs(dir, ['a', 'b', 'c', 'd']);
    const out = join(dir, 'out.jsonl');
    // The first pair is answered last, so a sequential run would judge it in full before any other.
    server.script(
      { match: { contains: 'PAIR-a' }, delayMs: 600, reply: { content: scores(9, 1) } },
      { match: { contains: 'PAIR-b' }, delayMs: 300, reply: { content: scores(5, 5) } },
      { match: { contains: 'PAIR-c' }, delayMs: 100, reply: { content: scores(5, 5) } },
      { match: { contains: 'PAIR-d' }, reply: { content: scores(1, 9) } },
    );
    const run = await runCli([
      'judge',
      'pairwise',
      '--models',
      models,
      '-m',
      'judge',
      '-i',
      input,
      '-o',
      out,
      '-c',
      '4',
    ]);
    expect(run.code).toBe(0);
    const seen = server.requests.map(pairOf);
    expect(seen.lastIndexOf('a')).toBeGreaterThan(seen.lastIndexOf('d'));
    expect(seen.slice(0, 4).sort()).toEqual(['a', 'b', 'c', 'd']);
    // Scores go by position, so the two orders never agree on a winner: every verdict is a tie.
    expect(readJsonl(out).map((v) => [v.id, v.verdict])).toEqual([
      ['a', 'tie'],
      ['b', 'tie'],
      ['c', 'tie'],
      ['d', 'tie'],
    ]);
  });

  test('should answer a --no-resume rerun from the store cache, and call again with --no-cache', async () => {
    const { dir, models } = setup();
    const input = pairs(dir, ['a', 'b']);
    const out = join(dir, 'out.jsonl');
    server.script({ reply: { content: scores(6, 4) } });
    const store = join(dir, 'store.sqlite');
    const args = [
      'judge',
      'pairwise',
      '--models',
      models,
      '-m',
      'judge',
      '-i',
      input,
      '-o',
      out,
      '--no-resume',
    ];
    expect((await runCli([...args, '--store', store])).code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect((await runCli([...args, '--store', store])).code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(readJsonl(out).map((v) => (v.usage as { cache_hits: number }).cache_hits)).toEqual([2, 2]);
    // The store named by REWARDKIT_STORE is the default, like `rewardkit score`'s.
    expect((await runCli(args, { env: { REWARDKIT_STORE: store } })).code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect((await runCli([...args, '--store', store, '--no-cache'])).code).toBe(0);
    expect(server.requests).toHaveLength(8);
    expect(readJsonl(out).map((v) => (v.usage as { cache_hits: number }).cache_hits)).toEqual([0, 0]);
  });

  test('should stop on SIGINT with the rows in flight written, and finish on the next run without judging any row twice', async () => {
    const { dir, models } = setup();
    const ids = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const input = pairs(dir, ids);
    const out = join(dir, 'out.jsonl');
    server.script({ delayMs: 40, reply: { content: scores(7, 2) } });
    const args = [
      'judge',
      'pairwise',
      '--models',
      models,
      '-m',
      'judge',
      '-i',
      input,
      '-o',
      out,
      '--no-both-orders',
      '-c',
      '2',
    ];
    const first = await runCli(args, {
      onSpawn: (kill) => {
        const poll = setInterval(() => {
          try {
            if (readFileSync(out, 'utf8').split('\n').length > 3) {
              clearInterval(poll);
              kill('SIGINT');
            }
          } catch {}
        }, 10);
      },
    });
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(/interrupted: run the same command again to resume/);
    const partial = readJsonl(out).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(40);
    // Every request sent so far has its verdict written: nothing in flight was lost.
    expect(server.requests).toHaveLength(partial);
    const second = await runCli(args);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`40 rows, ${40 - partial} ok, 0 failed, ${partial} skipped (resumed)`);
    expect(readJsonl(out).map((v) => v.id)).toEqual(ids);
    expect(server.requests).toHaveLength(40);
  });
});

describe('rewardkit judge pointwise as a batch tool', () => {
  const rubrics = join(repoRoot, 'examples/medical-rubrics.jsonl');
  const rows = join(repoRoot, 'examples/medical-rows.jsonl');
  const grading = (grades: Record<string, string>) =>
    JSON.stringify({
      grades: Object.entries(grades).map(([id, grade]) => ({ id, evidence: '', reason: 'ok', grade })),
    });

  test('should write gradings to --output and resume a rerun without calling the judge again', async () => {
    const { dir, models } = setup();
    const out = join(dir, 'graded.jsonl');
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
      // The statin row's judge never answers readably: a counted failure, resumable like the rest.
      { match: { contains: 'raises simvastatin levels' }, reply: { content: 'no comment' } },
      {
        match: { contains: 'Says it is usually fine at the labelled dose' },
        reply: { content: grading({ E1: 'fully_met', I1: 'partially_met', P1: 'no_pitfall' }) },
      },
    );
    const args = [
      'judge',
      'pointwise',
      '--models',
      models,
      '-m',
      'judge',
      '--rubrics',
      rubrics,
      '-i',
      rows,
      '-o',
      out,
      '--reasks',
      '0',
    ];
    const first = await runCli(args);
    expect(first.code).toBe(3);
    expect(first.stderr).toBe(
      `rewardkit: warning: judge pointwise is deprecated; use judge medical_rubric --bench-rows\n` +
        `rewardkit judge pointwise: 3 rows, 2 ok, 1 failed, 0 skipped; output ${out}\n`,
    );
    const graded = readJsonl(out);
    expect(graded.map((g) => g.id)).toEqual(['med-fever-child', 'med-statin-grapefruit', 'med-inline']);
    expect(graded[0]?.score).toBeCloseTo(1, 12);
    expect(graded[2]?.score).toBeCloseTo(0.9, 12);
    expect(graded[0]?.usage).toMatchObject({ calls: 1, prompt_tokens: 10, completion_tokens: 5 });
    expect(graded[1]).toMatchObject({ raw: 'no comment', usage: { calls: 1 } });
    expect(graded[1]).not.toHaveProperty('score');
    expect(server.requests).toHaveLength(3);

    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `rewardkit: warning: judge pointwise is deprecated; use judge medical_rubric --bench-rows\n` +
        `rewardkit judge pointwise: 3 rows, 0 ok, 0 failed, 3 skipped (resumed); output ${out}\n`,
    );
    expect(server.requests).toHaveLength(3);
    expect(readJsonl(out)).toHaveLength(3);
  });
});
