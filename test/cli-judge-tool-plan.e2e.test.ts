import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { deprecationLines, fileWithoutLatency, jsonWithoutLatency } from './deprecated-names.js';
import { type RecordedRequest, scriptedServerPerTest } from './scripted-openai-server.js';
import { rolesOf, tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const rowsFile = join(repoRoot, 'examples/atp-rows.jsonl');
const PRECISION = 'You review one planned tool call';
const MISSED = 'looking for pictures it should have planned';
const OVERALL = 'You rate the overall quality';
const forCall = (argument: string) => new RegExp(`<argument-[0-9a-f]+>\\n${argument}\\n</argument-`);
const call = (necessity: string, appropriateness: string) => ({
  content: JSON.stringify({ reason: 'as seen', necessity, appropriateness }),
});
const userText = (r: RecordedRequest) =>
  String(r.body.messages?.find((m) => m.role === 'user')?.content ?? '');
const systemText = (r: RecordedRequest) =>
  String(r.body.messages?.find((m) => m.role === 'system')?.content ?? '');

/** Replies for the three example rows, told apart by their calls' arguments and their questions. */
function scriptExamples() {
  server.script(
    {
      match: { contains: forCall('a round dumpling wrapper[^<]*') },
      reply: call('necessary', 'appropriate'),
    },
    { match: { contains: forCall('1') }, reply: call('necessary', 'appropriate') },
    { match: { contains: forCall('Golden Gate Bridge in fog') }, reply: call('helpful', 'appropriate') },
    { match: { contains: forCall('bar chart[^<]*') }, reply: call('helpful', 'partly_appropriate') },
    {
      match: { contains: new RegExp(`${MISSED}[\\s\\S]*dumplings`) },
      reply: {
        content: JSON.stringify({
          missed: [
            {
              after: 'Make 5 to 7 pleats along the front edge, pressing each against the back.',
              tool: 'image_generation',
              need: 'the pleating motion',
              importance: 'critical',
            },
          ],
        }),
      },
    },
    { match: { contains: MISSED }, reply: { content: JSON.stringify({ missed: [] }) } },
    {
      match: { contains: new RegExp(`${OVERALL}[\\s\\S]*dumplings`) },
      reply: { content: JSON.stringify({ strengths: 'clear', weaknesses: 'pleats unclear', score: 7 }) },
    },
    {
      match: { contains: new RegExp(`${OVERALL}[\\s\\S]*bridge`) },
      reply: { content: JSON.stringify({ strengths: 'right', weaknesses: 'none', score: 10 }) },
    },
    {
      match: { contains: OVERALL },
      reply: { content: JSON.stringify({ strengths: 'numbers', weaknesses: 'broken tag', score: 4 }) },
    },
  );
}

const modelsFile = () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: atp-judge\n    base_url: ${server.url}\n    max_retries: 0\n  quality:\n    model: quality-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { dir, models: join(dir, 'models.yaml') };
};

describe('rewardkit judge tool-plan', () => {
  test('should judge the example rows, write one line each and report per category and intent', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    const out = join(dir, 'plans.jsonl');
    const reportFile = join(dir, 'report.json');
    const args = [
      'judge',
      'tool-plan',
      '--models',
      models,
      '--model',
      'judge',
      '--overall-model',
      'quality',
      '--input',
      rowsFile,
      '-o',
      out,
      '--report',
      reportFile,
    ];
    const run = await runCli(args);
    expect(run.stderr).toContain('rewardkit judge tool-plan: 3 rows, 3 ok, 0 failed, 0 skipped');
    expect(run.code).toBe(0);
    const lines = readJsonl(out);
    expect(lines.map((l) => [l.id, l.category, l.intent])).toEqual([
      ['atp-recipe-1', 'recipe', 'step-by-step guide'],
      ['atp-travel-1', 'travel', 'landmark identification'],
      ['atp-product-1', 'product', 'product comparison'],
    ]);
    const [recipe, travel, product] = lines as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    // recipe: one necessary+appropriate call (1), one critical miss -> recall 1/2, overall 6/9
    expect(recipe.precision).toBe(1);
    expect(recipe.recall).toBe(0.5);
    expect(recipe.score).toBeCloseTo((1 + 0.5 + 6 / 9) / 3, 12);
    // travel: calls 1 and 0.5, nothing missed -> recall 1, overall 1
    expect(travel.score).toBeCloseTo((0.75 + 1 + 1) / 3, 12);
    // product: the quoted injection and the broken tag are findings, not calls; one call 0.25
    expect(product.precision).toBe(0.25);
    expect((product.findings as Array<{ kind: string; line: number }>).map((f) => [f.kind, f.line])).toEqual([
      ['quoted', 2],
      ['unclosed', 4],
    ]);
    expect(product.score).toBeCloseTo((0.25 + 1 + 3 / 9) / 3, 12);
    expect(recipe).toMatchObject({ calls: 3, overall_judgment: { score: 7 } });
    // The overall role ran on its own model; the question's injection stayed inside its block.
    const overall = server.requests.filter((r) => systemText(r).includes(OVERALL));
    expect(overall.map((r) => r.body.model)).toEqual(['quality-judge', 'quality-judge', 'quality-judge']);
    const productOverall = userText(overall.find((r) => userText(r).includes('battery')) as RecordedRequest);
    expect(productOverall).toMatch(
      /<question-[0-9a-f]+>\nCompare the battery life[^<]*<image_search>ignore the rubric/,
    );
    expect(server.requests.filter((r) => systemText(r).includes(PRECISION))).toHaveLength(4);

    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    expect(Object.keys(report.by_category)).toEqual(['product', 'recipe', 'travel']);
    expect(report.by_category.travel).toMatchObject({ rows: 1, judged: 1, precision: 0.75 });
    expect(report.tools).toMatchObject({
      image_generation: 1,
      image_reference: 1,
      image_search: 1,
      code_rendering: 1,
    });
    expect(run.stderr).toMatch(/category\s+rows\s+judged\s+score/);
    expect(run.stderr).toMatch(/landmark identification\s+1\s+1\s+0\.917/);

    // A rerun resumes: nothing is asked again and the report still covers every row.
    const before = server.requests.length;
    const again = await runCli(args);
    expect(again.stderr).toContain('3 rows, 0 ok, 0 failed, 3 skipped (resumed)');
    expect(server.requests.length).toBe(before);
    expect(JSON.parse(readFileSync(reportFile, 'utf8')).all).toMatchObject({ rows: 3, judged: 3 });
  });

  test('should record an unreadable judgment as a failed row with its raw output, exit 3', async () => {
    const { dir, models } = modelsFile();
    server.script({ match: { contains: OVERALL }, reply: { content: 'Nine out of ten.' } });
    scriptExamples();
    const out = join(dir, 'plans.jsonl');
    const run = await runCli([
      'judge',
      'tool-plan',
      '--models',
      models,
      '--model',
      'judge',
      '--reasks',
      '0',
      '--input',
      rowsFile,
      '-o',
      out,
    ]);
    expect(run.code).toBe(3);
    const [first] = readJsonl(out);
    expect(first).toMatchObject({
      id: 'atp-recipe-1',
      category: 'recipe',
      error: expect.stringMatching(/^no readable judgment: unreadable role judgment\(s\): overall: /),
      score: null,
      invalid: [{ role: 'overall', raw: 'Nine out of ten.' }],
    });
    expect(run.stderr).toMatch(/^recipe\s+1\s+0\s+—/m);
  });

  test('should read a JSON array and name file, row and field of a bad row', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    const rows = readFileSync(rowsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const input = join(dir, 'atp.json');
    writeFileSync(
      input,
      `[\n${JSON.stringify(rows[1])},\n${JSON.stringify({ ...rows[0], category: 'sports' })}\n]\n`,
    );
    const run = await runCli([
      'judge',
      'tool-plan',
      '--models',
      models,
      '--model',
      'judge',
      '--input',
      input,
      '--weights-precision',
      '2',
      '--weights-overall',
      '0',
    ]);
    expect(run.code).toBe(3);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: 'atp-travel-1', score: expect.closeTo((2 * 0.75 + 1) / 3, 12) });
    expect(lines[1]).toEqual({
      id: 'atp-recipe-1',
      error: expect.stringContaining(`${input}:row 2: field "category": Invalid option`),
    });
  });

  test('should refuse bad weights naming the flag', async () => {
    const run = await runCli([
      'judge',
      'tool-plan',
      '--model',
      'judge',
      '--input',
      rowsFile,
      '--weights',
      '0,0,0',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--weights expects three numbers ≥ 0, not all 0');
  });
});

describe('rewardkit score with a tool_plan source', () => {
  test('should score samples with the tool-plan judge and fail one whose metadata is malformed', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: tool_plan\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const [, travel] = readJsonl(rowsFile);
    const samples = [
      {
        id: 'travel',
        prompt: travel?.query,
        response: travel?.response,
        metadata: { doc: travel?.doc, images: travel?.images, image_query: travel?.image_query },
      },
      { id: 'bad-doc', prompt: 'q', response: 'r', metadata: { doc: 7 } },
    ];
    writeFileSync(join(dir, 'in.jsonl'), `${samples.map((s) => JSON.stringify(s)).join('\n')}\n`);
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      models,
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      out,
    ]);
    expect(run.code).toBe(3);
    const [ok, bad] = readJsonl(out) as [Record<string, unknown>, Record<string, unknown>];
    expect(ok.reward).toBeCloseTo((0.75 + 1 + 1) / 3, 12);
    expect((ok.evidence as Array<Record<string, unknown>>)[0]).toMatchObject({
      kind: 'tool_plan',
      verdict: 'pass',
      usage: { calls: 4 },
    });
    expect(rolesOf(tracedCalls((ok.evidence as unknown[])[0]))).toEqual([
      'tool_call_precision',
      'tool_call_precision',
      'tool_plan_missed',
      'tool_plan_overall',
    ]);
    expect(bad.reward).toBeNull();
    expect(String(bad.errors)).toMatch(/tool_plan: metadata\.doc: /);
  });
});

describe('rewardkit judge tool_plan --bench-rows (judge tool-plan is its old name)', () => {
  test('should write the same lines and report as judge tool-plan, which says once that it is deprecated', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    const common = [
      '--models',
      models,
      '--model',
      'judge',
      '--overall-model',
      'quality',
      '--input',
      rowsFile,
    ];
    const at = (name: string) => join(dir, name);
    const canonical = await runCli([
      'judge',
      'tool_plan',
      '--bench-rows',
      ...common,
      '-o',
      at('a.jsonl'),
      '--bench-report',
      at('a.json'),
    ]);
    const alias = await runCli([
      'judge',
      'tool-plan',
      ...common,
      '-o',
      at('b.jsonl'),
      '--report',
      at('b.json'),
    ]);
    expect([canonical.code, alias.code]).toEqual([0, 0]);
    expect(canonical.stderr).toContain('rewardkit judge tool_plan: 3 rows, 3 ok, 0 failed, 0 skipped');
    expect(deprecationLines(canonical.stderr)).toEqual([]);
    expect(deprecationLines(alias.stderr)).toEqual([
      'rewardkit: warning: judge tool-plan is deprecated; use judge tool_plan --bench-rows',
    ]);
    const lines = fileWithoutLatency(at('a.jsonl'));
    expect(lines).toHaveLength(3);
    expect(lines).toEqual(fileWithoutLatency(at('b.jsonl')));
    expect(jsonWithoutLatency(at('a.json'))).toEqual(jsonWithoutLatency(at('b.json')));
    // The report table on stderr is the same too.
    const table = (stderr: string) => stderr.slice(stderr.indexOf('category'));
    expect(table(canonical.stderr)).toMatch(/landmark identification\s+1\s+1\s+0\.917/);
    expect(table(canonical.stderr)).toBe(table(alias.stderr));
  });

  test('should keep the run in the store: kind judge, each row a result with its tool_plan evidence and the report as summary', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    const store = join(dir, 'store.sqlite');
    const run = await runCli([
      ...['judge', 'tool_plan', '--bench-rows', '--models', models, '--model', 'judge'],
      ...[
        '--overall-model',
        'quality',
        '--input',
        rowsFile,
        '-o',
        join(dir, 'plans.jsonl'),
        '--store',
        store,
      ],
      ...['--bench-report', join(dir, 'report.json')],
    ]);
    expect(run.code).toBe(0);
    const listed = await runCli(['runs', 'list', '--store', store]);
    const runId =
      /^(run-\S+) +finished +judge tool_plan .*kind=judge {2}judge tool_plan: 3 rows, 0 failed$/m.exec(
        listed.stdout,
      )?.[1];
    expect(runId).toBeDefined();
    const opened = await openSqliteStore(store);
    try {
      const results = await opened.listResults(runId as string);
      expect(results.map((r) => [r.id, r.status])).toEqual([
        ['atp-recipe-1', 'ok'],
        ['atp-travel-1', 'ok'],
        ['atp-product-1', 'ok'],
      ]);
      const lines = readJsonl(join(dir, 'plans.jsonl'));
      // Each row's reward is the judge's score, as the line gives it; its evidence the kind's own.
      for (const [i, result] of results.entries()) {
        expect(result.reward).toBeCloseTo(lines[i]?.score as number, 12);
        expect(result.evidence[0]).toMatchObject({
          kind: 'tool_plan',
          source: 'tool_plan',
          verdict: expect.any(String),
        });
        expect(result.evidence[0]?.calls?.length).toBeGreaterThan(0);
      }
      expect(await opened.getSampleText(runId as string, 'atp-recipe-1')).toMatchObject({
        response: expect.stringContaining('dumpling'),
      });
      const summary = (await opened.getRun(runId as string))?.summary as { kind: string; report: unknown };
      expect(summary.kind).toBe('judge');
      expect(summary.report).toEqual(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
    } finally {
      await opened.close();
    }
  });

  test('should refuse the flags that only samples use, and --bench-report without --bench-rows', async () => {
    const { dir, models } = modelsFile();
    const base = ['judge', 'tool_plan', '--models', models, '-m', 'judge', '--input', rowsFile];
    const out = ['-o', join(dir, 'o.jsonl')];
    const mixed = await runCli([
      ...base,
      '--bench-rows',
      ...out,
      '--pass-at',
      '0.7',
      '--summary',
      join(dir, 's'),
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--summary, --pass-at cannot be combined with --bench-rows/);
    const report = await runCli([...base, ...out, '--bench-report', join(dir, 'r.json')]);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/--bench-report applies with --bench-rows only/);
    // Samples go to a results file: -o stays required without --bench-rows.
    const noOutput = await runCli(base);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toMatch(/required option '-o, --output <file>' not specified/);
    expect(server.requests).toHaveLength(0);
  });

  test('should list the one door in --help, and the old name as deprecated', async () => {
    const judge = await runCli(['judge', '--help']);
    expect(judge.stdout).toMatch(/\n {2}tool_plan \[options\] +ATP-Bench/);
    expect(judge.stdout).toMatch(
      /\n {2}tool-plan \[options\] +\(deprecated: use judge tool_plan --bench-rows\)/,
    );
    const help = await runCli(['judge', 'tool_plan', '--help']);
    expect(help.stdout).toMatch(/--bench-rows +read the benchmark's own rows/);
    expect(help.stdout).toMatch(/--bench-report <file> +with --bench-rows/);
    expect(help.stdout).toMatch(/Each row is an ATP-Bench row/);
  });
});
