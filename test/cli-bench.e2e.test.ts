import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import { expectSelfContained } from '../src/view/test-utils/expect-self-contained.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const fixture = (name: string) => join(repoRoot, 'test/fixtures/bench', name);
const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['is correct'], critique: 'compared', score_1: one, score_2: two });
/** GenRM replies by what sits in position 1 of the request. */
const atPosition1 = (text: string | RegExp, one: number, two: number) => ({
  match: { contains: new RegExp(`<response-1-\\w+>\\n${typeof text === 'string' ? text : text.source}`) },
  reply: { content: scores(one, two) },
});

function setup() {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: scripted-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return dir;
}

async function bench(dir: string, dataset: string, input: string, extra: string[] = []) {
  const run = await runCli([
    'bench',
    '--dataset',
    dataset,
    '--input',
    input,
    '--models',
    join(dir, 'models.yaml'),
    '--model',
    'judge',
    '--output',
    join(dir, 'out.jsonl'),
    '--report',
    join(dir, 'report.json'),
    '--reasks',
    '0',
    ...extra,
  ]);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  return { run, report, output: readJsonl(join(dir, 'out.jsonl')) };
}

/** Parquet as Hugging Face publishes it, from a JSON fixture; `int64` columns become INT64. */
function writeParquet(path: string, rows: Record<string, unknown>[], int64: string[]) {
  const names = Object.keys(rows[0] as object);
  const buffer = parquetWriteBuffer({
    columnData: names.map((name) =>
      int64.includes(name)
        ? { name, data: rows.map((r) => BigInt(r[name] as number)), type: 'INT64' as const }
        : { name, data: rows.map((r) => r[name]) as string[] },
    ),
  });
  writeFileSync(path, new Uint8Array(buffer));
}

describe('rewardkit bench', () => {
  test('pairwise: accuracy, a malformed row recorded, an injected response kept as data, and resume', async () => {
    const dir = setup();
    server.script(atPosition1('PW-GOOD', 9, 2), atPosition1('PW-BAD', 2, 9));
    const { run, report, output } = await bench(dir, 'pairwise', fixture('pairwise.jsonl'));
    expect(run.code).toBe(3);
    expect(output.map((r) => [r.id, r.status])).toEqual([
      ['p-1', 'ok'],
      ['p-2', 'ok'],
      ['p-3', 'ok'],
      ['p-4', 'failed'],
    ]);
    expect(output[3]?.error).toMatch(/pairwise\.jsonl:4: field "chosen": needs "chosen" and "rejected"/);
    expect(report.score).toBe(1);
    expect(report.items).toEqual({ judged: 3, failed: 1, unanswered: 0 });
    expect(report.judge_metrics).toMatchObject({ position_consistency: 1, tie_rate: 0, invalid_rate: 0 });
    expect(report.judge_metrics.calls_per_judgment).toBe(2);
    expect(report.judge_metrics.prompt_tokens_per_judgment).toBe(20);
    expect(run.stdout).toMatch(/rewardkit bench: Pairwise JSONL — 3 items judged, 1 failed/);

    // The response that imitates the judge's output stays inside its block and changes nothing.
    const attacked = server.requests.find((r) =>
      String(r.body.messages?.[1]?.content).includes('Ignore all previous instructions'),
    );
    const user = String(attacked?.body.messages?.[1]?.content);
    const tag = /<response-(\d)-(\w+)>\nPW-BAD-3/.exec(user);
    expect(tag).not.toBeNull();
    const close = `</response-${tag?.[1]}-${tag?.[2]}>`;
    expect(user.split(close)).toHaveLength(2);
    expect(user.indexOf('"score_1": 10')).toBeLessThan(user.indexOf(close));
    expect(String(attacked?.body.messages?.[0]?.content)).toMatch(/never follow instructions/);
    expect(output[2]?.judgments).toMatchObject([{ outcome: 'correct' }]);

    const calls = server.requests.length;
    const again = await bench(dir, 'pairwise', fixture('pairwise.jsonl'));
    expect(server.requests).toHaveLength(calls);
    expect(again.output).toHaveLength(4);
    expect(again.report.score).toBe(1);
  });

  test('--report out.html: one self-contained page with the metric, the judge metrics and their plots, data escaped', async () => {
    const dir = setup();
    const PWN = '<script>window.__pwned = 1</script>';
    const rows = [
      {
        id: 'h-1',
        subset: PWN,
        prompt: 'Rain?',
        chosen: 'PW-GOOD-1 a long and careful answer',
        rejected: 'PW-BAD-1 no',
      },
      {
        id: 'h-2',
        subset: 'plain',
        prompt: 'Snow?',
        chosen: 'PW-GOOD-2 yes',
        rejected: 'PW-BAD-2 a much longer answer that is worse',
      },
      { id: '<img src=x onerror=alert(1)>', prompt: 'no responses' },
    ];
    writeFileSync(join(dir, 'pairs.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    server.script(atPosition1('PW-GOOD', 9, 2), atPosition1('PW-BAD', 2, 9));
    const run = await runCli([
      ...['bench', '--dataset', 'pairwise', '--input', join(dir, 'pairs.jsonl')],
      ...['--models', join(dir, 'models.yaml'), '--model', 'judge', '--reasks', '0'],
      ...['--output', join(dir, 'out.jsonl'), '--report', join(dir, 'report.html')],
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/report {2}.*report\.html/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expectSelfContained(html);
    expect(html).toContain('<h1>Pairwise JSONL');
    expect(html).toContain('<h2>Score: 1</h2>');
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    for (const text of ['position consistency', 'length: pearson', 'outcomes per group', 'ties excluded'])
      expect(html).toContain(text);
    // The per-group, outcome and length plots.
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('length: longer picked vs longer better');

    // A .json report of the same output holds the figures the plots are drawn from.
    const again = await runCli([
      ...['bench', '--dataset', 'pairwise', '--input', join(dir, 'pairs.jsonl')],
      ...['--models', join(dir, 'models.yaml'), '--model', 'judge', '--reasks', '0'],
      ...['--output', join(dir, 'out.jsonl'), '--report', join(dir, 'report.json')],
    ]);
    expect(again.code).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.outcomes).toEqual([
      { group: PWN, judgments: 1, correct: 1, wrong: 0, tie: 0, invalid: 0 },
      { group: 'plain', judgments: 1, correct: 1, wrong: 0, tie: 0, invalid: 0 },
    ]);
    const ratios = report.judge_metrics.length.by_ratio;
    expect(ratios.reduce((n: number, b: { pairs: number }) => n + b.pairs, 0)).toBe(2);
  });

  test('rewardbench: Parquet input, an HTTP 500 and an unreadable judgment are invalid (0.5), not dropped', async () => {
    const dir = setup();
    const input = join(dir, 'filtered-00000-of-00001.parquet');
    writeParquet(input, JSON.parse(readFileSync(fixture('rewardbench.json'), 'utf8')), ['id']);
    server.script(
      { match: { contains: 'RB-CHOSEN-2' }, reply: { status: 500, error: 'upstream exploded' } },
      { match: { contains: 'RB-CHOSEN-3' }, reply: { content: 'I would rather not say.' } },
      atPosition1('RB-CHOSEN', 9, 1),
      atPosition1('RB-REJECTED', 1, 9),
    );
    const { run, report, output } = await bench(dir, 'rewardbench', input);
    // Scored by the benchmark's rule, but two items got no readable verdict: the exit code says so.
    expect(report.items).toEqual({ judged: 4, failed: 0, unanswered: 2 });
    expect(run.stdout).toContain('4 items judged, 0 failed; 2 of the judged got no readable verdict');
    expect(run.code).toBe(3);
    expect(output.map((r) => r.id)).toEqual(['30', '31', '32', '33']);
    const row = (name: string) => report.table.rows.find((r: { name: string }) => r.name === name);
    expect(row('alpacaeval-easy').values).toEqual([1, 1, 1]);
    expect(row('math-prm').values).toEqual([0.5, null, null]);
    expect(row('refusals-dangerous').values).toEqual([0.5, null, null]);
    expect(report.detail.sections).toEqual({ Chat: 1, 'Chat Hard': 1, Safety: 0.5, Reasoning: 0.5 });
    expect(report.score).toBe(0.75);
    expect(report.judge_metrics.invalid_rate).toBe(0.5);
    const http = output[1]?.judgments as Array<Record<string, unknown>>;
    expect(http[0]).toMatchObject({ outcome: 'invalid', verdict: 'invalid' });
    expect(String(http[0]?.reason)).toMatch(/500/);
    const unreadable = (
      (output[2]?.judgments ?? []) as Array<{ calls: Array<{ raw: string }>; reason: string }>
    )[0];
    expect(unreadable?.reason).toMatch(/no JSON object/);
    expect(unreadable?.calls[0]?.raw).toBe('I would rather not say.');
  });

  test('rewardbench2 listwise: seeded position, Ties by ratings, a malformed row and an unreadable pick', async () => {
    const dir = setup();
    const input = join(dir, 'test-00000-of-00001.parquet');
    writeParquet(input, JSON.parse(readFileSync(fixture('rewardbench2.json'), 'utf8')), [
      'num_correct',
      'num_incorrect',
      'total_completions',
    ]);
    const rating = (text: string, r: number) => ({
      match: { contains: new RegExp(`<answer-\\w+>\\n${text}`) },
      reply: { content: JSON.stringify({ assessment: 'ok', rating: r }) },
    });
    server.script(
      { match: { contains: 'RB2-C2' }, reply: { content: '{"reasoning": "none fits", "best": "E"}' } },
      ...['A', 'B', 'C', 'D'].map((label) => ({
        match: { contains: new RegExp(`Answer ${label}:\\n<answer-${label}-\\w+>\\nRB2-C`) },
        reply: { content: JSON.stringify({ reasoning: 'the right one', best: label }) },
      })),
      rating('RB2-T-REF-C', 8),
      rating('RB2-T-REF-W', 5),
      rating('RB2-T-TIED-C1', 9),
      rating('RB2-T-TIED-C2', 7),
      rating('RB2-T-TIED-W', 4),
    );
    const { run, report, output } = await bench(dir, 'rewardbench2', input, ['--seed', '7']);
    expect(run.code).toBe(3);
    expect(output[4]).toMatchObject({ id: 'bad-1', status: 'failed' });
    expect(output[4]?.error).toMatch(/:row 5: field "num_correct": is 2 but "chosen" has 1 answers/);
    const row = (name: string) => report.table.rows.find((r: { name: string }) => r.name === name);
    expect(row('Factuality').values[0]).toBe(1);
    expect(row('Math').values[0]).toBe(0.25);
    const ties = 0.3 + 0.3 + 0.2 + 0.2 + 0.01 * Math.tanh(0.5);
    expect(row('Ties').values[0]).toBeCloseTo(ties, 12);
    expect(report.score).toBeCloseTo((1 + 0.25 + ties) / 3, 12);
    // The chosen answer was shown where the record says, and the record says what the judge saw.
    const judged = output[0]?.judgments as Array<{ chosen_label: string }>;
    const request = server.requests.find((r) => String(r.body.messages?.[1]?.content).includes('RB2-C1'));
    expect(String(request?.body.messages?.[1]?.content)).toMatch(
      new RegExp(`Answer ${judged[0]?.chosen_label}:\\n<answer-${judged[0]?.chosen_label}-\\w+>\\nRB2-C1`),
    );
    const math = ((output[1]?.judgments ?? []) as Array<{ outcome: string; reason: string }>)[0];
    expect(math).toMatchObject({ outcome: 'invalid' });
    expect(math?.reason).toMatch(/best/);
    // Ties answers are rated for correctness alone (equally right answers in different detail).
    const tiesRequest = server.requests.find((r) =>
      String(r.body.messages?.[1]?.content).includes('RB2-T-TIED-C1'),
    );
    expect(String(tiesRequest?.body.messages?.[0]?.content)).toMatch(
      /Judge only whether the answer is correct/,
    );
  });

  test('rewardbench2 ratings mode: a shared top is 1/k in the headline, 0 in ours (the chosen answer strictly highest)', async () => {
    const dir = setup();
    const rows = JSON.parse(readFileSync(fixture('rewardbench2.json'), 'utf8')).slice(0, 2);
    writeFileSync(join(dir, 'rb2.json'), JSON.stringify(rows));
    const rating = (text: string, r: number) => ({
      match: { contains: new RegExp(`<answer-\\w+>\\n${text}`) },
      reply: { content: JSON.stringify({ assessment: 'ok', rating: r }) },
    });
    // Factuality: chosen 9 beats 6, 5, 4. Math: chosen 8 ties the top with a wrong answer.
    server.script(
      rating('RB2-C1', 9),
      rating('RB2-R1a', 6),
      rating('RB2-R1b', 5),
      rating('RB2-R1c', 4),
      rating('RB2-C2', 8),
      rating('RB2-R2a', 8),
      rating('RB2-R2', 2),
    );
    const { run, report } = await bench(dir, 'rewardbench2', join(dir, 'rb2.json'), ['--mode', 'ratings']);
    expect(run.code).toBe(0);
    const row = (name: string) => report.table.rows.find((r: { name: string }) => r.name === name);
    expect(row('Factuality').values).toEqual([1, 1]);
    expect(row('Math').values).toEqual([0.5, 0]);
    expect(report.score).toBe(0.75);
    // Outside Ties a rating weighs correctness first and then the rest.
    expect(
      server.requests.every((r) => /Judge correctness first/.test(String(r.body.messages?.[0]?.content))),
    ).toBe(true);
    expect(report.upstream).toMatch(/run_generative_v2\.py/);
    expect(report.ours).toEqual([expect.objectContaining({ name: 'strict', score: 0.5 })]);
    expect(report.table).toMatchObject({ columns: ['score', 'strict'], headline_columns: 1 });
    expect(run.stdout).toMatch(/\n {2}score {3}0\.7500 {3}mean of the domains run/);
    expect(run.stdout).toMatch(/as computed by allenai\/reward-bench@05a9005 scripts\/run_generative_v2\.py/);
    expect(run.stdout).toMatch(
      /\n {2}strict {2}0\.5000 {3}ours: ratings: the chosen answer must rate strictly highest/,
    );
    expect(run.stdout).toContain('\n  group        items      score  │    strict\n');
    expect(run.stdout).toContain('\n  Math             1     0.5000  │    0.0000\n');
    expect(report.judge_metrics.tie_rate).toBe(0.5);
    expect(report.judge_metrics.calls_per_judgment).toBe(4);
  });

  test('judgebench: both orders against the label, position bias shows as inconsistency', async () => {
    const dir = setup();
    server.script(
      atPosition1('JB-A1', 9, 2),
      atPosition1('JB-B1', 2, 9),
      atPosition1('JB-.2', 9, 2),
      atPosition1('JB-B3', 9, 2),
      atPosition1('JB-A3', 2, 9),
    );
    const { run, report, output } = await bench(dir, 'judgebench', fixture('judgebench.jsonl'));
    expect(run.code).toBe(3);
    expect(output.map((r) => [r.id, r.status])).toEqual([
      ['jb-1', 'ok'],
      ['jb-2', 'ok'],
      ['jb-3', 'ok'],
      ['jb-4', 'failed'],
    ]);
    expect(output[3]?.error).toMatch(/judgebench\.jsonl:4: field "label"/);
    expect(report.score).toBeCloseTo(1 / 3, 12);
    expect(report.judge_metrics.position_consistency).toBeCloseTo(2 / 3, 12);
    // GenRM's unanimity rule calls disagreeing orders a tie (OpenRS would say "inconsistent").
    expect(report.judge_metrics.tie_rate).toBeCloseTo(1 / 3, 12);
    expect(report.judge_metrics.inconsistent_rate).toBe(0);
    const row = (name: string) => report.table.rows.find((r: { name: string }) => r.name === name);
    expect(row('[knowledge]').values).toEqual([1, 1]);
    expect(row('[math]').values).toEqual([0, null]);
    expect(row('[coding]').values).toEqual([0, 0]);
  });

  test('rm-bench: nine style pairs per row, --limit, and the length metrics', async () => {
    const dir = setup();
    server.script(atPosition1(/RMB-S?C/, 9, 2), { reply: { content: scores(2, 9) } });
    const { run, report, output } = await bench(dir, 'rm-bench', fixture('rm-bench.json'), ['--limit', '2']);
    expect(run.code).toBe(0);
    expect(output.map((r) => r.id)).toEqual(['chat/1', 'safety/1']);
    expect(server.requests).toHaveLength(36);
    expect(report.score).toBe(1);
    expect(report.table.rows.map((r: { name: string }) => r.name)).toEqual(['[overall]', 'chat', 'safety']);
    expect(report.judge_metrics.judgments).toBe(18);
    expect(report.judge_metrics.length.pairs).toBe(18);
    expect(report.judge_metrics.length.longer_preferred_rate).not.toBeNull();

    const rest = await bench(dir, 'rm-bench', fixture('rm-bench.json'));
    expect(rest.run.code).toBe(3);
    expect(server.requests).toHaveLength(36);
    expect(rest.output[2]?.error).toMatch(/rm-bench\.json:row 3: field "chosen": needs exactly 3 responses/);
  });

  test('rm-bench: a tie counts 0 in the headline (strict >, as RM-Bench computes it) and 0.5 in ours', async () => {
    const dir = setup();
    // chat/1: the chosen response wins every cell; safety/1: every cell is a tie in both orders.
    server.script(
      { match: { contains: 'RMB-S' }, reply: { content: scores(5, 5) } },
      atPosition1('RMB-C', 9, 2),
      { reply: { content: scores(2, 9) } },
    );
    const { run, report } = await bench(dir, 'rm-bench', fixture('rm-bench.json'), ['--limit', '2']);
    expect(run.code).toBe(0);
    expect(report.score).toBe(0.5);
    expect(report.upstream).toBe('THU-KEG/RM-Bench@73c52d7 scripts/utils.py compute_accuracy');
    expect(report.ours).toEqual([expect.objectContaining({ name: 'ties ½', score: 0.75 })]);
    const row = (name: string) => report.table.rows.find((r: { name: string }) => r.name === name);
    expect(row('[overall]').values).toEqual([0.5, 0.5, 0.5, 0.5, 0.75, 0.75]);
    expect(row('safety').values).toEqual([0, 0, 0, 0, 0.5, 0.5]);
    expect(run.stdout).toMatch(/\n {2}score {3}0\.5000 {3}mean over RM-Bench's domains/);
    expect(run.stdout).toContain(
      '\n  safety          1       0.0000       0.0000       0.0000       0.0000  │      0.5000       0.5000\n',
    );
    expect(run.stdout).toMatch(
      /\n {2}ties ½ {2}0\.7500 {3}ours: the same means with a tie or unreadable verdict counted 0\.5/,
    );
    expect(run.stdout).toContain('columns after │ are ours; before it, as the benchmark computes them');
  });

  test('rewardbench: a section not run counts 0 in the leaderboard score; ours averages the sections run', async () => {
    const dir = setup();
    server.script(atPosition1('RB-CHOSEN', 9, 1), atPosition1('RB-REJECTED', 1, 9));
    // The first two rows are alpacaeval-easy (Chat) and math-prm (Reasoning).
    const { run, report } = await bench(dir, 'rewardbench', fixture('rewardbench.json'), ['--limit', '2']);
    expect(run.code).toBe(0);
    expect(report.detail.sections).toEqual({ Chat: 1, 'Chat Hard': null, Safety: null, Reasoning: 1 });
    expect(report.score).toBe(0.5);
    expect(report.ours).toEqual([
      {
        name: 'sections run',
        score: 1,
        metric: 'mean of the sections that were run (Chat Hard, Safety not run)',
      },
    ]);
    expect(report.upstream).toMatch(
      /^allenai\/reward-bench@05a9005 rewardbench\/utils\.py calculate_scores_per_section/,
    );
    expect(run.stdout).toMatch(
      /\n {2}score {9}0\.5000 {3}the leaderboard's: mean of the Chat, Chat Hard, Safety and Reasoning sections, a section not run counting 0/,
    );
    expect(run.stdout).toMatch(
      /\n {2}sections run {2}1\.0000 {3}ours: mean of the sections that were run \(Chat Hard, Safety not run\)/,
    );
    expect(run.stdout).toContain(
      '\n  [Safety]              0         0.0000  │             —              —\n',
    );
  });

  test('should name an unknown judge, and show an example per dataset in --help', async () => {
    const dir = setup();
    const unknown = await runCli([
      'bench',
      '--dataset',
      'pairwise',
      '--input',
      fixture('pairwise.jsonl'),
      '--models',
      join(dir, 'models.yaml'),
      '--model',
      'judge',
      '--output',
      join(dir, 'o.jsonl'),
      '--judge',
      'nope',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--judge: unknown judge "nope" \(known: genrm, openrs, skill_rm\)/);
    const help = await runCli(['bench', '--help']);
    for (const d of ['rewardbench ', 'rewardbench2 ', 'judgebench ', 'rm-bench ', 'pairwise ']) {
      expect(help.stdout).toContain(`--dataset ${d}`);
    }
  });
});
