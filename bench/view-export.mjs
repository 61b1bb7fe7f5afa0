// Export throughput of the inspector (`api/runs/<id>/export`): every row of a run of `--count`
// results (default 100,000) streamed as JSONL and as CSV, unfiltered and filtered by a reward range,
// through the app in this process (no socket), on SQLite. `node bench/view-export.mjs` (after
// `npm run build`) replaces its section of BENCHMARKS.md; `--quick` (20,000) writes nothing.
// bench/view-scale.mjs measures its exports with `exportThroughput` below.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, replaceSection } from './measure.mjs';

/** The export cases: every row in both formats, and a reward range sorted by reward. */
export const EXPORT_CASES = [
  ['JSONL, every row', 'format=jsonl'],
  ['CSV, every row', 'format=csv'],
  ['JSONL, reward 0.5–0.9, by reward', 'format=jsonl&min_reward=0.5&max_reward=0.9&sort=reward'],
  ['CSV, reward 0.5–0.9, by reward', 'format=csv&min_reward=0.5&max_reward=0.9&sort=reward'],
];

/**
 * Best of `repeats` exports of `runId` through `app` for each of `cases`: seconds, rows and bytes.
 * The body is read as a stream and counted, not kept, so a million-row export does not need its
 * text in memory.
 */
export async function exportThroughput(app, runId, { cases = EXPORT_CASES, repeats = 3 } = {}) {
  const figures = [];
  for (const [name, query] of cases) {
    let best;
    for (let repeat = 0; repeat < repeats; repeat++) {
      const started = performance.now();
      const res = await app.request(`http://localhost/api/runs/${runId}/export?${query}`);
      if (res.status !== 200) throw new Error(`export ${query}: ${res.status}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      }
      const seconds = (performance.now() - started) / 1000;
      const rows = lines - (query.includes('csv') ? 1 : 0);
      if (!best || seconds < best.seconds) best = { name, seconds, rows, bytes };
    }
    figures.push(best);
  }
  return figures;
}

/** A table row of one export's figures (`| export | rows | size | time | rows/s | MB/s |`). */
export const exportLine = ({ name, seconds, rows, bytes }) =>
  `| ${name} | ${rows.toLocaleString('en')} | ${fmt(bytes / 1e6, 1)} MB | ${fmt(seconds, 2)} s | ${Math.round(rows / seconds).toLocaleString('en')} rows/s | ${fmt(bytes / 1e6 / seconds, 1)} MB/s |`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const quick = process.argv.includes('--quick');
  const countAt = process.argv.indexOf('--count');
  const count = countAt > 0 ? Number(process.argv[countAt + 1]) : quick ? 20_000 : 100_000;

  const { openSqliteStore } = await import('../dist/store/index.js');
  const { createViewApp } = await import('../dist/view/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'rk-export-bench-'));
  const store = openSqliteStore(join(dir, 'store.sqlite'));
  const run = await store.createRun({ spec_name: 'bench', spec: {} });
  const evidence = (source, score) => ({
    source,
    kind: source,
    score,
    verdict: score >= 0.5 ? 'pass' : 'fail',
    veto: false,
    invalid: false,
    elapsed_ms: 0.1,
  });
  for (let start = 0; start < count; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - start) }, (_, k) => start + k);
    await store.saveResults(
      run.id,
      ids.map((i) => {
        const math = i % 3 === 0 ? 0 : 1;
        const judge = ((i * 104729) % 1000) / 1000;
        return {
          spec: 'rk/v1',
          id: `s${i}`,
          status: 'ok',
          reward: (math + judge) / 2,
          components: { math, judge },
          evidence: [evidence('math', math), evidence('judge', judge)],
          errors: [],
          warnings: [],
          data_source: 'gsm8k',
          timings: { total_ms: 1.5 },
        };
      }),
      {
        samples: ids.map((i) => ({
          prompt: `What is ${i} + ${i}?`,
          response: `The answer, "${2 * i}", =${2 * i} @x`.repeat(4),
        })),
      },
    );
  }
  await store.finishRun(run.id, { rows: count, failed: 0 });
  const app = createViewApp({ store, assetsDir: '/nonexistent' });

  const lines = [];
  for (const figure of await exportThroughput(app, run.id)) {
    lines.push(exportLine(figure));
    process.stderr.write(`${lines.at(-1)}\n`);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const section = `## Inspector export (\`api/runs/<id>/export\`, ${count.toLocaleString('en')} results, SQLite)

\`node bench/view-export.mjs\`: every row the samples table would show, streamed through the app in
process (no socket), best of 3; the store is read 5,000 rows per query. The response preview is the
row's first 240 characters.

| export | rows | size | time | rows/s | MB/s |
|---|---:|---:|---:|---:|---:|
${lines.join('\n')}
`;
  if (!quick) {
    const path = join(root, 'BENCHMARKS.md');
    writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), 'Inspector export', section));
  }
  process.stdout.write(section);
}
