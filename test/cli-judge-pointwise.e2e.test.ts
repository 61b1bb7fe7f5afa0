import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { deprecationLines, withoutLatency } from './deprecated-names.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';
import { startServe } from './serve-harness.js';

const server = scriptedServerPerTest();

const rubricsFile = join(repoRoot, 'examples/medical-rubrics.jsonl');
const rowsFile = join(repoRoot, 'examples/medical-rows.jsonl');
const grading = (grades: Record<string, string>) =>
  JSON.stringify({
    grades: Object.entries(grades).map(([id, grade]) => ({
      id,
      evidence: '',
      reason: 'as described',
      grade,
    })),
  });
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The judge's replies for the example rows, told apart by a criterion only their rubric has. */
function scriptExamples() {
  server.script(
    {
      // Fever: everything met, no pitfall -> 1
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
    {
      // Statin: nothing met -> raw 0 in [−2, 2 + min(2, 2·2)] -> 2/6
      match: { contains: 'raises simvastatin levels' },
      reply: { content: grading({ E1: 'not_met', I1: 'not_met', I2: 'not_met', P1: 'no_pitfall' }) },
    },
    {
      // Inline: E 2, I 0.5 -> raw 2.5 in [−2, 3] -> 4.5/5
      match: { contains: 'Says it is usually fine at the labelled dose' },
      reply: { content: grading({ E1: 'fully_met', I1: 'partially_met', P1: 'no_pitfall' }) },
    },
  );
}

const modelsFile = () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: med-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { dir, models: join(dir, 'models.yaml') };
};

describe('rewardkit judge medical_rubric --bench-rows (judge pointwise is its old name)', () => {
  test('should print the same lines as judge pointwise, which says once that it is deprecated', async () => {
    const { models } = modelsFile();
    scriptExamples();
    const common = ['--models', models, '--model', 'judge', '--rubrics', rubricsFile, '--input', rowsFile];
    // Printed, as by judge pointwise, when there is no -o.
    const canonical = await runCli(['judge', 'medical_rubric', '--bench-rows', ...common]);
    const alias = await runCli(['judge', 'pointwise', ...common]);
    expect([canonical.code, alias.code]).toEqual([0, 0]);
    expect(canonical.stderr).toBe(
      'rewardkit judge medical_rubric: 3 rows, 3 ok, 0 failed, 0 skipped; output <stdout>\n',
    );
    expect(deprecationLines(alias.stderr)).toEqual([
      'rewardkit: warning: judge pointwise is deprecated; use judge medical_rubric --bench-rows',
    ]);
    const graded = withoutLatency(canonical.stdout);
    expect(graded.map((line) => (line as { id: string }).id)).toEqual([
      'med-fever-child',
      'med-statin-grapefruit',
      'med-inline',
    ]);
    expect(graded).toEqual(withoutLatency(alias.stdout));
  });

  test('should list the one door in --help, and the old name as deprecated', async () => {
    const judge = await runCli(['judge', '--help']);
    expect(judge.stdout).toMatch(/\n {2}medical_rubric\S* \[options\] +QuarkMedBench/);
    expect(judge.stdout).toMatch(
      /\n {2}pointwise \[options\] +\(deprecated: use judge medical_rubric --bench-rows\)/,
    );
    const help = await runCli(['judge', 'medical_rubric', '--help']);
    expect(help.stdout).toMatch(/--bench-rows +read the benchmark's own rows/);
    expect(help.stdout).toMatch(/The rubric is the row's "rubric"/);
  });
});

describe('rewardkit judge pointwise', () => {
  // docs/cli.md: "Try it on examples/medical-rows.jsonl with examples/medical-rubrics.jsonl".
  test('should grade every example row with judge medical_rubric too, the inline rubric included', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    const out = join(dir, 'graded.jsonl');
    const run = await runCli([
      'judge',
      'medical_rubric',
      '--models',
      models,
      '--model',
      'judge',
      '--rubrics',
      rubricsFile,
      '--input',
      rowsFile,
      '--output',
      out,
      '--store',
      'none',
    ]);
    expect(run.stderr).not.toMatch(/failed: [1-9]|[1-9]\d* failed/);
    expect(run.code).toBe(0);
    expect(readJsonl(out).map((r) => [r.id, r.status])).toEqual([
      ['med-fever-child', 'ok'],
      ['med-statin-grapefruit', 'ok'],
      ['med-inline', 'ok'],
    ]);
  });

  test('should score the example rows against the example rubrics and an inline rubric', async () => {
    const { models } = modelsFile();
    scriptExamples();
    const run = await runCli([
      'judge',
      'pointwise',
      '--models',
      models,
      '--model',
      'judge',
      '--rubrics',
      rubricsFile,
      '--input',
      rowsFile,
    ]);
    // stdout stays pure JSONL; the counts go to stderr.
    expect(run.stderr).toBe(
      'rewardkit: warning: judge pointwise is deprecated; use judge medical_rubric --bench-rows\n' +
        'rewardkit judge pointwise: 3 rows, 3 ok, 0 failed, 0 skipped; output <stdout>\n',
    );
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.map((r) => r.id)).toEqual(['med-fever-child', 'med-statin-grapefruit', 'med-inline']);
    const scores = out.map((r) => r.score as number);
    expect(scores[0]).toBeCloseTo(1, 12);
    expect(scores[1]).toBeCloseTo(2 / 6, 12);
    expect(scores[2]).toBeCloseTo(0.9, 12);
    expect(out[1]?.breakdown).toMatchObject({ rules: ['truncation_essential'], min: -2, max: 4 });
    expect(out[0]?.calls).toBe(1);
    expect(out[0]?.tokens).toBe(15);
    expect((out[2]?.grades as Array<{ id: string }> | undefined)?.map((g) => g.id)).toEqual([
      'E1',
      'I1',
      'P1',
    ]);
    expect(server.requests.every((r) => r.body.model === 'med-judge')).toBe(true);
  });

  test('should print an error, never a score, for rows it cannot grade', async () => {
    const { models } = modelsFile();
    server.script(
      { match: { contains: 'SILENT-JUDGE' }, reply: { content: 'I would rather not say.' } },
      {
        reply: {
          content: grading({
            E1: 'not_met',
            E2: 'partially_met',
            I1: 'fully_met',
            H1: 'fully_met',
            P1: 'no_pitfall',
          }),
        },
      },
    );
    const rows = [
      { id: 'med-fever-child', prompt: 'fever?', response: 'Some advice.' },
      { id: 'unknown-id', prompt: 'q', response: 'r' },
      { id: 'no-response', prompt: 'q' },
      { id: 'med-statin-grapefruit', prompt: 'q', response: 'SILENT-JUDGE' },
    ];
    const args = [
      'judge',
      'pointwise',
      '--models',
      models,
      '--model',
      'judge',
      '--rubrics',
      rubricsFile,
      '--reasks',
      '0',
    ];
    const run = await runCli([...args, '--input', '-'], {
      stdin: rows.map((r) => JSON.stringify(r)).join('\n'),
    });
    expect(run.code).toBe(3);
    const out = lines(run.stdout);
    // E = 2·2·0.5 = 2 < 0.5·6: truncation drops I and H -> raw 2 in [−2, 8] -> 0.4
    expect(out[0]?.score).toBeCloseTo(0.4, 12);
    expect(out[1]?.error).toMatch(/no rubric with id "unknown-id" in .*medical-rubrics\.jsonl/);
    expect(out[2]?.error).toMatch(/<stdin>:3: field "response"/);
    expect(out[3]?.error).toMatch(/no readable grading: no valid structured output after 1 call/);
    // The unreadable grading keeps what the judge said and what it cost.
    expect(out[3]).toMatchObject({ raw: 'I would rather not say.', calls: 1, usage: { calls: 1 } });
    expect(run.stderr).toMatch(/judge pointwise: 4 rows, 1 ok, 3 failed, 0 skipped; output <stdout>/);
    expect(out.slice(1).every((r) => !('score' in r))).toBe(true);

    const untruncated = await runCli([...args, '--no-truncation', '--input', '-'], {
      stdin: JSON.stringify(rows[0]),
    });
    // raw 2 + 1 + 1 = 4 -> 0.6
    expect(lines(untruncated.stdout)[0]?.score).toBeCloseTo(0.6, 12);
  });

  test('should refuse bad scoring flags, and fail the rows whose rubric is bad, without calling the judge', async () => {
    const { dir, models } = modelsFile();
    const base = ['judge', 'pointwise', '--models', models, '--model', 'judge', '--input', rowsFile];
    const weights = await runCli([...base, '--weights', '2,1,1']);
    expect(weights.code).toBe(2);
    expect(weights.stderr).toMatch(/--weights expects four numbers/);
    const ratio = await runCli([...base, '--essential-ratio', '1.5']);
    expect(ratio.code).toBe(2);
    // --essential-ratio is the old name of --truncation-essential-ratio (the spec's truncation.essential_ratio).
    expect(ratio.stderr).toContain(
      'warning: --essential-ratio is deprecated; use --truncation-essential-ratio',
    );
    expect(ratio.stderr).toMatch(/--truncation-essential-ratio: Too big: expected number to be <=1/);
    writeFileSync(
      join(dir, 'bad.jsonl'),
      '{"id": "x", "query": "q", "essential": [], "important": [], "highlight": []}\n{"id": "y", \n',
    );
    writeFileSync(
      join(dir, 'rows.jsonl'),
      '{"id": "x", "prompt": "q", "response": "r"}\n{"id": "y", "prompt": "q", "response": "r"}\n',
    );
    const bad = await runCli([
      ...base.slice(0, -1),
      join(dir, 'rows.jsonl'),
      '--rubrics',
      join(dir, 'bad.jsonl'),
    ]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/warning: 3 problem\(s\) in .*bad\.jsonl/);
    const [x, y] = lines(bad.stdout);
    expect(String(x?.error)).toMatch(
      /the rubric for "x" in .*bad\.jsonl is invalid: .*bad\.jsonl:1: field "essential": /,
    );
    expect(String(x?.error)).toMatch(/bad\.jsonl:1: field "pitfall": missing section/);
    expect(String(y?.error)).toMatch(
      /no rubric with id "y" in .*bad\.jsonl \(1 part\(s\) of the file could not be read and may hold it: .*bad\.jsonl:2: invalid JSON/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('rewardkit score with a medical_rubric source', () => {
  test("should say the rubric file's problems once before scoring, in score, judge medical_rubric and serve", async () => {
    const { dir, models } = modelsFile();
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"id": "x", "query": "q", "essential": [], "important": [], "highlight": []}\n{"id": "y", \n',
    );
    writeFileSync(join(dir, 'in.jsonl'), '{"id": "x", "prompt": "q", "response": "r"}\n');
    const spec = join(dir, 'spec.yaml');
    writeFileSync(
      spec,
      `sources:\n  - kind: medical_rubric\n    params:\n      model: judge\n      rubrics: ${bad}\n`,
    );
    const problems =
      /warning: medical_rubric: 3 problem\(s\) in .*bad\.jsonl; samples without a valid rubric are recorded as failed:\n( {2}.*bad\.jsonl:\d: .*\n){3}/;
    const input = ['--models', models, '--input', join(dir, 'in.jsonl'), '--output'];
    const scored = await runCli(['score', '--spec', spec, ...input, join(dir, 'a.jsonl')]);
    const judged = await runCli([
      'judge',
      'medical_rubric',
      '--model',
      'judge',
      '--rubrics',
      bad,
      ...input,
      join(dir, 'b.jsonl'),
    ]);
    for (const run of [scored, judged]) {
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(problems);
      expect(run.stderr.match(/3 problem\(s\)/g)).toHaveLength(1);
    }
    const serving = await startServe(['--spec', spec, '--models', models]);
    try {
      expect(serving.stderr()).toMatch(problems);
    } finally {
      await serving.stop();
    }
    expect(server.requests).toHaveLength(0);
  });

  test('should grade each sample against its rubric, inline or from the file, and fail one without', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    writeFileSync(
      join(dir, 'spec.yaml'),
      `sources:\n  - kind: medical_rubric\n    params:\n      model: judge\n      rubrics: ${rubricsFile}\n      reasks: 0\n`,
    );
    const example = readJsonl(rowsFile);
    const rows = [example[0], example[1], example[2], { id: 'no-rubric', prompt: 'q', response: 'r' }];
    writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
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
    const results = readJsonl(out);
    expect(results.map((r) => r.id)).toEqual([
      'med-fever-child',
      'med-statin-grapefruit',
      'med-inline',
      'no-rubric',
    ]);
    expect(results[0]?.reward).toBeCloseTo(1, 12);
    expect(results[1]?.reward).toBeCloseTo(2 / 6, 12);
    expect(results[2]?.reward).toBeCloseTo(0.9, 12);
    expect(results[3]?.reward).toBeNull();
    expect(String(results[3]?.errors)).toMatch(
      /no rubric with id "no-rubric" in .*medical-rubrics\.jsonl \(and none in metadata\.rubric\)/,
    );
    const evidence = (results[1]?.evidence as Array<Record<string, unknown>> | undefined)?.[0];
    expect(evidence).toMatchObject({
      kind: 'medical_rubric',
      verdict: 'fail',
      usage: { calls: 1, cache_hits: 0 },
    });
    expect(evidence?.detail).toMatchObject({ rubric_id: 'med-statin-grapefruit', rubric_from: 'file' });
    expect((results[2]?.evidence as Array<Record<string, unknown>> | undefined)?.[0]?.detail).toMatchObject({
      rubric_from: 'inline',
    });
  });

  test('should apply weights, truncation and saturation params from the spec', async () => {
    const { dir, models } = modelsFile();
    scriptExamples();
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: medical_rubric\n    params:\n      model: judge\n      weights: {essential: 1, important: 1, highlight: 1, pitfall: 1}\n      truncation: false\n      saturation: false\n',
    );
    // The example's inline row, as score reads it (rubric in metadata.rubric).
    const row = readJsonl(rowsFile)[2] as Record<string, unknown>;
    writeFileSync(join(dir, 'in.jsonl'), `${JSON.stringify(row)}\n`);
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      models,
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      '-',
    ]);
    expect(run.code).toBe(0);
    // Equal weights: E 1 + I 0.5 = 1.5 in [−1, 2] -> 2.5/3 (0.9 with the defaults)
    expect(lines(run.stdout)[0]?.reward).toBeCloseTo(2.5 / 3, 12);
  });
});
