import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { RewardResult } from '../src/core/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';

const dir = tempDir();
const storePath = join(dir, 'store.sqlite');
const jsonl = (rows: readonly unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

// A judge overconfident in a known way, as in the calibrate tests: score = σ(3·logit(q) + 1) with a
// label drawn with probability q from a fixed linear congruential sequence.
let state = 7;
const uniform = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const judged = Array.from({ length: 60 }, (_, i) => {
  const q = 0.02 + 0.96 * uniform();
  const score = 1 / (1 + Math.exp(-(3 * Math.log(q / (1 - q)) + 1)));
  return { id: i === 5 ? '=cmd' : `s${i}`, score, correct: uniform() < q };
});
/** What a person gives each sample in the inspector: a verdict, or every tenth a score. */
const given = judged.map(({ id, correct }, i) =>
  i % 10 === 3
    ? { id, body: { kind: 'score', score: 0.5, note: 'half, "partly" right' }, value: 0.5 }
    : { id, body: { kind: correct ? 'correct' : 'incorrect' }, value: correct ? 1 : 0 },
);
const result = (id: string, score: number): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward: score,
  components: { judge: score },
  evidence: [
    { source: 'judge', kind: 'genrm', score, verdict: 'pass', veto: false, invalid: false, elapsed_ms: 1 },
  ],
  errors: [],
  warnings: [],
  timings: { total_ms: 1 },
});
const scores = join(dir, 'scores.jsonl');
writeFileSync(scores, jsonl(judged.map(({ id, score }) => result(id, score))));
const labelsFile = join(dir, 'labels.jsonl');
writeFileSync(labelsFile, jsonl(given.map(({ id, value }) => ({ id, label: value }))));

const seeded = openSqliteStore(storePath);
const run = await seeded.createRun({ spec_name: 'judge', spec: {} });
await seeded.saveResults(
  run.id,
  judged.map(({ id, score }) => result(id, score)),
);
await seeded.finishRun(run.id, { rows: judged.length, failed: 0 });
await seeded.close();

let viewer: ChildProcess | undefined;
afterEach(async () => {
  if (viewer && viewer.exitCode === null) {
    const closed = new Promise((resolve) => viewer?.once('close', resolve));
    viewer.kill('SIGTERM');
    await closed;
  }
  viewer = undefined;
});

/** Starts `rewardkit view` on a free port; resolves with its URL. */
async function startView(args: readonly string[]): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'dist/cli/main.js'), 'view', '--store', storePath, '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  viewer = child;
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      stdout += d;
      const url = stdout.match(/^http:\/\/\S+\//m)?.[0];
      if (url) resolve(url);
    });
    child.on('close', (code) => reject(new Error(`rewardkit view ended (${code}) before listening`)));
  });
}

const putLabel = (url: string, id: string, body: unknown) =>
  fetch(`${url}api/runs/${run.id}/samples/${encodeURIComponent(id)}/label`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('labels from rewardkit view, read by calibrate and runs export', () => {
  test('should keep the inspector read-only without --allow-labels', async () => {
    const url = await startView([]);
    const res = await putLabel(url, 's0', { kind: 'correct' });
    expect(res.status).toBe(403);
    expect(
      ((await (await fetch(`${url}api/runs/${run.id}/labels`)).json()) as { labels: [] }).labels,
    ).toEqual([]);
  });

  test('should calibrate on labels given in the inspector exactly as on the same labels in a file, and export them', async () => {
    const url = await startView(['--allow-labels']);
    for (const { id, body } of given) expect((await putLabel(url, id, body)).status).toBe(200);

    const fromStore = join(dir, 'from-store.json');
    const storeRun = await runCli([
      'calibrate',
      ...['--scores', scores, '--labels-from-store', run.id, '--store', storePath, '--output', fromStore],
    ]);
    expect(storeRun.stderr).toContain(`on ${judged.length} labelled points (0 rows left out)`);
    expect(storeRun.code).toBe(0);
    const fromFile = join(dir, 'from-file.json');
    const fileRun = await runCli([
      'calibrate',
      '--scores',
      scores,
      '--labels',
      labelsFile,
      '--output',
      fromFile,
    ]);
    expect(fileRun.code).toBe(0);
    const storeMap = JSON.parse(readFileSync(fromStore, 'utf8'));
    const fileMap = JSON.parse(readFileSync(fromFile, 'utf8'));
    // The map names where its labels came from; all else is the same fit.
    expect(storeMap.fitted_on.labels).toBe(`store:${run.id}`);
    expect({ ...storeMap, fitted_on: { ...storeMap.fitted_on, labels: labelsFile } }).toEqual(fileMap);

    const exported = join(dir, 'export.jsonl');
    const jsonlRun = await runCli(['runs', 'export', run.id, '--store', storePath, '--output', exported]);
    expect(jsonlRun.code).toBe(0);
    const rows = readJsonl(exported);
    expect(rows.map((r) => r.id)).toEqual(judged.map((j) => j.id));
    rows.forEach((row, i) => {
      const { body } = given[i] as (typeof given)[number];
      expect(row).toMatchObject({
        reward: judged[i]?.score,
        label: body.kind,
        label_score: body.kind === 'score' ? 0.5 : null,
        label_note: 'note' in body ? body.note : null,
      });
    });

    const csvRun = await runCli(['runs', 'export', run.id, '--store', storePath, '--format', 'csv']);
    expect(csvRun.code).toBe(0);
    const lines = csvRun.stdout.split('\r\n');
    expect(lines[0]).toBe(
      'id,status,reward,data_source,group,errors,component.judge,label,label_score,label_note,labeled_at',
    );
    expect(lines).toHaveLength(judged.length + 2);
    expect(lines[6]).toMatch(/^'=cmd,ok,/);
    expect(lines[4]).toMatch(/,score,0\.5,"half, ""partly"" right",\d{4}-/);
  });

  test('should refuse --labels-from-store for a run with no labels or no such run, and both label flags', async () => {
    const empty = openSqliteStore(join(dir, 'empty.sqlite'));
    const bare = await empty.createRun({ spec_name: 'judge', spec: {} });
    await empty.close();
    const calibrate = (args: string[]) =>
      runCli(['calibrate', '--scores', scores, '--output', join(dir, 'x.json'), ...args]);
    const none = await calibrate(['--labels-from-store', bare.id, '--store', join(dir, 'empty.sqlite')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the run has no labels; give some in rewardkit view --allow-labels');
    const missing = await calibrate(['--labels-from-store', 'run-nope', '--store', storePath]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--labels-from-store run-nope: no such run');
    const both = await calibrate([
      '--labels',
      labelsFile,
      '--labels-from-store',
      run.id,
      '--store',
      storePath,
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('pass either --labels <file> or --labels-from-store <run-id>');
  });
});
