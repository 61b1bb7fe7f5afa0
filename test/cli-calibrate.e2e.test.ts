import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectSelfContained } from '../src/view/test-utils/expect-self-contained.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { refusingEndpoint } from './scripted-openai-server.js';

const dir = tempDir();
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (rows: readonly unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

// A judge overconfident in a known way: score = σ(3·logit(q) + 1) for a true probability q, and a
// label drawn with probability q (a fixed linear congruential sequence, so the file is the same each run).
let state = 11;
const uniform = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const judged = Array.from({ length: 200 }, (_, i) => {
  const q = 0.02 + 0.96 * uniform();
  const score = 1 / (1 + Math.exp(-(3 * Math.log(q / (1 - q)) + 1)));
  return { id: `s${i}`, score, label: uniform() < q ? 1 : 0 };
});
const scores = write(
  'scores.jsonl',
  jsonl([
    ...judged.map(({ id, score }) => ({
      spec: 'rk/v1',
      id,
      status: 'ok',
      reward: score,
      components: { judge: score },
    })),
    { spec: 'rk/v1', id: 'failed', status: 'failed', reward: null, components: { judge: null } },
    { spec: 'rk/v1', id: 'unlabelled', status: 'ok', reward: 0.5, components: { judge: 0.5 } },
  ]),
);
const labels = write(
  'labels.jsonl',
  jsonl([
    ...judged.map(({ id, label }) => ({ id, label: label === 1 })),
    { id: 'failed', label: 1 },
    { id: 's3', label: 'yes' },
    { label: 1 },
    { id: 'nobody', label: 0 },
  ]),
);

interface Summary {
  n: number;
  counts: Record<string, number>;
  problems: string[];
  before: { ece: number } | null;
  after: { cross_fitted: { ece: number; bins: unknown[] }; in_sample: { ece: number } };
}

describe('rewardkit calibrate', () => {
  test.each(['isotonic', 'platt'])(
    '%s: fits, reports before and cross-fitted after, names every row left out',
    async (method) => {
      const output = join(dir, `${method}.json`);
      const summaryFile = join(dir, `${method}-summary.json`);
      const report = join(dir, `${method}.html`);
      const run = await runCli([
        'calibrate',
        '--scores',
        scores,
        '--source',
        'judge',
        '--labels',
        labels,
        '--output',
        output,
        '--method',
        method,
        '--summary',
        summaryFile,
        '--report',
        report,
      ]);
      expect(run.stderr).toContain(`rewardkit calibrate: ${method} on 200 labelled points (5 rows left out)`);
      // Two malformed label rows and a failed scoring: fitted, but exit 3.
      expect(run.code).toBe(3);
      // Each row left out, named by file:line:field.
      expect(run.stderr).toContain(
        `left out: ${labels}:202:label: expected 0, 1, true, false or a number in [0, 1], got "yes"`,
      );
      expect(run.stderr).toContain(
        `left out: ${labels}:203:id: expected a non-empty string or a number, got nothing`,
      );
      expect(run.stderr).toContain(
        `left out: ${scores}:201:components.judge: "failed" has no score (its scoring failed)`,
      );
      expect(run.stderr).toContain(`left out: ${scores}:202:id: no label for "unlabelled"`);
      expect(run.stderr).toContain(`left out: ${labels}:204:id: no score for "nobody"`);
      // s3's second label is the bad one: its first still counts.
      expect(run.stderr).not.toContain('no label for "s3"');

      const map = JSON.parse(readFileSync(output, 'utf8'));
      expect(map).toMatchObject({
        version: 1,
        method,
        fitted_on: { n: 200, source: 'judge', spec: scores, labels },
      });
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
      expect(summary.counts).toEqual({
        label_rows_left_out: 2,
        score_rows_left_out: 0,
        unlabelled: 1,
        unscored: 1,
        orphan_labels: 1,
        duplicate_labels: 0,
        duplicate_scores: 0,
      });
      expect(summary.problems).toHaveLength(5);
      expect(summary.after.cross_fitted.ece).toBeLessThan(summary.before?.ece as number);
      expect(summary.after.cross_fitted.bins).toHaveLength(10);

      const html = readFileSync(report, 'utf8');
      expectSelfContained(html);
      expect(html.match(/aria-label="reliability diagram/g)).toHaveLength(3);
      expect(html).toContain('after, cross-fitted (5 folds, seed 0)');
    },
  );

  test('scores through a spec, and `score` applies the map on a source with calibration:', async () => {
    const samples = write(
      'samples.jsonl',
      jsonl(
        Array.from({ length: 12 }, (_, i) => ({
          id: `m${i}`,
          prompt: `What is ${i} + 2?`,
          response: `\\boxed{${i % 3 === 0 ? i + 3 : i + 2}}`,
          reference: String(i + 2),
        })),
      ),
    );
    // The math verifier is right 2/3 of the time it says pass: labels disagree with one pass in four.
    const mathLabels = write(
      'math-labels.jsonl',
      jsonl(
        Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, label: i % 3 === 0 ? 0 : i % 4 === 1 ? 0 : 1 })),
      ),
    );
    const map = join(dir, 'math-map.json');
    const fit = await runCli([
      'calibrate',
      '--spec',
      'math',
      '--input',
      samples,
      '--labels',
      mathLabels,
      '--output',
      map,
      '--folds',
      '3',
    ]);
    expect(fit.stderr).toContain('rewardkit calibrate: isotonic on 12 labelled points (0 rows left out)');
    expect(fit.code).toBe(0);
    const knots = JSON.parse(readFileSync(map, 'utf8')).knots as { x: number[]; y: number[] };
    expect(knots.x).toEqual([0, 1]);
    const passCalibrated = knots.y[1] as number;
    expect(passCalibrated).toBeGreaterThan(0);
    expect(passCalibrated).toBeLessThan(1);

    const spec = write('calibrated.yaml', 'sources:\n  - kind: math\n    calibration: math-map.json\n');
    const out = join(dir, 'scored.jsonl');
    const score = await runCli([
      'score',
      '--spec',
      spec,
      '--input',
      samples,
      '--output',
      out,
      '--workers',
      '0',
    ]);
    expect(score.code).toBe(0);
    const rows = readJsonl(out);
    const pass = rows.find((r) => r.id === 'm1') as {
      reward: number;
      evidence: { score: number; raw_score: number }[];
    };
    expect(pass.reward).toBeCloseTo(passCalibrated, 12);
    expect(pass.evidence[0]).toMatchObject({ raw_score: 1 });
    const fail = rows.find((r) => r.id === 'm0') as { reward: number; evidence: { raw_score: number }[] };
    expect(fail.reward).toBeCloseTo(knots.y[0] as number, 12);
    expect(fail.evidence[0]?.raw_score).toBe(0);
  });

  test('a spec whose calibration map is missing fails at load, naming the path', async () => {
    const spec = write('missing-map.yaml', 'sources:\n  - kind: math\n    calibration: maps/none.json\n');
    const run = await runCli([
      'score',
      '--spec',
      spec,
      '--input',
      scores,
      '--output',
      join(dir, 'never.jsonl'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Cannot use calibration map "maps/none.json": ${join(dir, 'maps/none.json')}: no such file`,
    );
  });

  test('graded labels: isotonic fits them, Platt refuses them before writing anything', async () => {
    const graded = write(
      'graded.jsonl',
      jsonl(judged.map(({ id, score }) => ({ id, label: Number(score.toFixed(1)) }))),
    );
    const isotonic = join(dir, 'graded-isotonic.json');
    const fit = await runCli(['calibrate', '--scores', scores, '--labels', graded, '--output', isotonic]);
    // Fitted; exit 3 for the scores file's failed row.
    expect(fit.code).toBe(3);
    expect(JSON.parse(readFileSync(isotonic, 'utf8')).fitted_on.n).toBe(200);
    const platt = join(dir, 'graded-platt.json');
    const refused = await runCli([
      'calibrate',
      '--scores',
      scores,
      '--labels',
      graded,
      '--output',
      platt,
      '--method',
      'platt',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Platt scaling needs binary labels');
    expect(existsSync(platt)).toBe(false);
  });

  test('a finished calibration is stored: runs list shows its kind and ECE, runs show writes its report', async () => {
    const store = join(dir, 'calibration-store.sqlite');
    const clean = write('clean-labels.jsonl', jsonl(judged.map(({ id, label }) => ({ id, label }))));
    const fit = await runCli(
      [
        'calibrate',
        '--scores',
        scores,
        '--source',
        'judge',
        '--labels',
        clean,
        '--output',
        join(dir, 'stored.json'),
      ],
      { env: { REWARDKIT_STORE: store } },
    );
    // The failed scoring is still named and makes the exit 3; the fit and the stored run stand.
    expect(fit.stderr).toContain('"failed" has no score (its scoring failed)');
    expect(fit.code).toBe(3);
    const runId = /rewardkit calibrate: run (run-\S+)/.exec(fit.stderr)?.[1];
    expect(runId).toBeDefined();
    const listed = await runCli(['runs', 'list', '--store', store]);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${runId} +finished +calibration:judge .*kind=calibration {2}isotonic on 200 labelled points: ECE 0\\.\\d{3} → 0\\.\\d{3} cross-fitted$`,
        'm',
      ),
    );
    const report = join(dir, 'stored.html');
    const shown = await runCli(['runs', 'show', runId as string, '--store', store, '--report', report]);
    expect(shown.code).toBe(0);
    const html = readFileSync(report, 'utf8');
    expectSelfContained(html);
    expect(html.match(/aria-label="reliability diagram/g)).toHaveLength(3);
  });

  test('a dead backend stops a --spec calibration through the circuit breaker: exit 4, nothing written', async () => {
    const models = write(
      'dead.yaml',
      `models:\n  judge:\n    model: judge\n    base_url: ${await refusingEndpoint()}\n    max_retries: 0\n`,
    );
    const spec = write(
      'judged.yaml',
      'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const samples = write(
      'judged.jsonl',
      jsonl(
        Array.from({ length: 12 }, (_, i) => ({
          id: `s${i}`,
          prompt: `Q${i}?`,
          response: `A${i}.`,
          reference: `R${i}.`,
        })),
      ),
    );
    const output = join(dir, 'dead-map.json');
    const run = await runCli([
      'calibrate',
      ...['--spec', spec, '--models', models, '--input', samples, '--labels', labels, '--output', output],
      ...['--max-consecutive-failures', '3'],
    ]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/rewardkit: stopped: the backend is down: 3 calls in a row failed/);
    expect(run.stderr).toContain('Nothing is written (a calibration needs every scoring)');
    expect(run.stderr).not.toMatch(/internal error|left out/);
    expect(existsSync(output)).toBe(false);
  });

  test.each([
    { args: ['--labels', labels, '--output', 'x.json'], message: 'pass either --scores <file> or --spec' },
    { args: ['--spec', 'math', '--labels', labels, '--output', 'x.json'], message: '--spec needs --input' },
    {
      args: ['--scores', scores, '--labels', labels, '--output', 'x.json', '--folds', '1'],
      message: '--folds expects an integer ≥ 2',
    },
    {
      args: ['--scores', scores, '--source', 'nope', '--labels', labels, '--output', join(dir, 'x.json')],
      message: '--source "nope": no row of',
    },
  ])('refuses bad flags before any work: $message', async ({ args, message }) => {
    const run = await runCli(['calibrate', ...args], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
