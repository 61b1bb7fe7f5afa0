import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const genrm = (one: number, two: number) => ({
  content: JSON.stringify({
    principles: ['PRINCIPLE-CLARITY: answers plainly'],
    critique: 'CRITIQUE-SECRET',
    score_1: one,
    score_2: two,
  }),
});
const proxy = (preferred: 1 | 2) => ({ content: JSON.stringify({ reason: 'per the rubric', preferred }) });

/** The producer scores GOOD-n above BAD-n; the proxy prefers GOOD wherever it is shown; pair 3's proxy is down. */
const rules: ScriptRule[] = [
  { match: { model: 'proxy-m', contains: 'PROMPT-3' }, reply: { status: 503 } },
  { match: { model: 'proxy-m', contains: /Response 1:\n<response-1-\w+>\nGOOD/ }, reply: proxy(1) },
  { match: { model: 'proxy-m' }, reply: proxy(2) },
  { match: { model: 'producer-m', contains: /Response 1:\n<response-1-\w+>\nGOOD/ }, reply: genrm(8, 2) },
  { match: { model: 'producer-m' }, reply: genrm(2, 8) },
];

function setUp() {
  const dir = tempDir();
  const entry = (model: string) => `    model: ${model}\n    base_url: ${server.url}\n    max_retries: 0\n`;
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  producer:\n${entry('producer-m')}  proxy:\n${entry('proxy-m')}`,
  );
  const pairs = [1, 2, 3].map((n) => ({
    id: `p${n}`,
    prompt: `PROMPT-${n}`,
    chosen: `GOOD-${n}`,
    rejected: `BAD-${n}`,
  }));
  writeFileSync(
    join(dir, 'pairs.jsonl'),
    `${pairs.map((p) => JSON.stringify(p)).join('\n')}\n{"id": "p4", "prompt": "x"}\n`,
  );
  const args = (...more: string[]) => [
    'rubrics',
    'quality',
    '--producer',
    'genrm',
    '--models',
    join(dir, 'models.yaml'),
    '-m',
    'producer',
    '--proxy-model',
    'proxy',
    '--input',
    join(dir, 'pairs.jsonl'),
    '--output',
    join(dir, 'quality.jsonl'),
    '--store',
    'none',
    ...more,
  ];
  return { dir, args };
}

describe('rewardkit rubrics quality', () => {
  test('should score each pair, keep the verdict from the proxy, count the proxy transport failure, and resume', async () => {
    server.script(...rules);
    const { dir, args } = setUp();
    const run = await runCli(args('--summary', join(dir, 'summary.json')));
    expect(run.stderr).toMatch(
      /3 of 3 pairs scored, 0 failed \(0 producer transport failures\), 1 proxy transport failures/,
    );
    expect(run.code).toBe(3);
    const out = readJsonl(join(dir, 'quality.jsonl'));
    expect(out.map((r) => r.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(out[0]).toMatchObject({
      producer: 'genrm',
      terms: { acc: 1, proxy: 1, format: 1 },
      rewards: { sum: 2.5 },
    });
    expect(out[2]).toMatchObject({ proxy_transport_failure: true, terms: { acc: 1, proxy: 0, format: 1 } });
    expect(String(out[3]?.error)).toMatch(/pairs\.jsonl:4/);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      producer: 'genrm',
      pairs: 3,
      scored: 3,
      proxy_transport_failures: 1,
      producer_accuracy: { mean: 1, n: 3 },
      proxy_accuracy: { mean: 1, n: 2 },
      format_rate: { mean: 1, n: 3 },
    });
    expect(summary.rewards.sum.mean).toBeCloseTo((2.5 + 2.5 + 1.5) / 3, 12);
    // The proxy saw the principles and both responses, never the critique or the scores.
    const proxyPrompts = server.requests
      .filter((r) => r.body.model === 'proxy-m')
      .map((r) => JSON.stringify(r.body.messages));
    expect(proxyPrompts.length).toBeGreaterThan(0);
    for (const text of proxyPrompts) {
      expect(text).toContain('PRINCIPLE-CLARITY');
      expect(text).toMatch(/GOOD-\d[\s\S]*BAD-\d|BAD-\d[\s\S]*GOOD-\d/);
      expect(text).not.toContain('CRITIQUE-SECRET');
      expect(text).not.toContain('score_1');
    }
    const before = server.requests.length;
    const again = await runCli(args());
    expect(again.stderr).toMatch(/4 skipped/);
    expect(server.requests.length).toBe(before);
  });

  test('should count a producer whose replies cannot be read as failed, not as a transport failure', async () => {
    server.script({ match: { model: 'producer-m' }, reply: { content: 'not json at all' } }, ...rules);
    const { args } = setUp();
    const run = await runCli(args());
    expect(run.stderr).toMatch(
      /0 of 3 pairs scored, 3 failed \(0 producer transport failures\), 0 proxy transport failures/,
    );
    expect(run.code).toBe(3);
  });

  test('should stop with exit 4 when the backend is down, write no pair it could not score, and score them on a rerun', async () => {
    server.script({ reply: { status: 503 }, times: 2 }, ...rules);
    const { dir, args } = setUp();
    const down = await runCli(args('--max-consecutive-failures', '2', '-c', '1'));
    expect(down.code).toBe(4);
    expect(down.stderr).toMatch(/the backend is down/);
    expect(readJsonl(join(dir, 'quality.jsonl')).filter((r) => r.producer !== undefined)).toEqual([]);
    const again = await runCli(args());
    expect(again.stderr).toMatch(/3 of 3 pairs scored/);
  });

  test('should refuse --producer medical without --rubrics before any call', async () => {
    const { args } = setUp();
    const run = await runCli(args().map((a) => (a === 'genrm' ? 'medical' : a)));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--producer medical needs --rubrics/);
    expect(server.requests).toHaveLength(0);
  });

  test('should score your own rubric with --producer rubric, and refuse a bad rubric file by line and field before any call', async () => {
    const graded = (grade: number) => ({
      content: JSON.stringify({ grades: [{ id: 'c1', reason: 'GRADE-SECRET', grade }] }),
    });
    server.script(
      { match: { model: 'proxy-m', contains: /Response 1:\n<response-1-\w+>\nGOOD/ }, reply: proxy(1) },
      { match: { model: 'proxy-m' }, reply: proxy(2) },
      { match: { model: 'producer-m', contains: /GOOD-\d/ }, reply: graded(5) },
      { match: { model: 'producer-m' }, reply: graded(1) },
    );
    const { dir, args } = setUp();
    const rubric = join(dir, 'rubric.yaml');
    writeFileSync(
      rubric,
      'mode: criteria\npoints: 5\ncriteria:\n  - name: PLAIN-CRITERION\n    description: answers plainly\n',
    );
    const withRubric = () => args('--rubric-file', rubric).map((a) => (a === 'genrm' ? 'rubric' : a));
    const run = await runCli(withRubric());
    expect(run.stderr).toMatch(/3 of 3 pairs scored/);
    // p4, the malformed pair, is the row that failed.
    expect(run.code).toBe(3);
    expect(readJsonl(join(dir, 'quality.jsonl')).slice(0, 3)).toEqual(
      [1, 2, 3].map(() =>
        expect.objectContaining({ producer: 'rubric', terms: { acc: 1, proxy: 1, format: 1 } }),
      ),
    );
    for (const r of server.requests.filter((q) => q.body.model === 'proxy-m')) {
      expect(JSON.stringify(r.body.messages)).toContain('PLAIN-CRITERION (weight 1)');
      expect(JSON.stringify(r.body.messages)).not.toContain('GRADE-SECRET');
    }
    const before = server.requests.length;
    writeFileSync(rubric, 'mode: criteria\ncriteria:\n  - name: x\n    description: y\n    weight: -1\n');
    const bad = await runCli(
      withRubric().map((a) => (a.endsWith('quality.jsonl') ? join(dir, 'bad.jsonl') : a)),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--rubric-file:\n {2}\S*rubric\.yaml:5: field "criteria\.0\.weight"/);
    expect(server.requests.length).toBe(before);
  });
});
