// The inspector at 100k and 1M results (issue 33): time to the first page of rows (cold: a fresh
// store handle; warm), filters, sort by reward, compare of two runs and export throughput, on
// SQLite, through the view app's request handler (`createViewApp(...).request`). Each latency sits
// beside a baseline measured in the same run: the same first page read by one plain indexed SELECT
// through better-sqlite3, no app. `node bench/view-scale.mjs` (after `npm run build`) replaces its
// section of BENCHMARKS.md; `npm run bench` includes it. `--quick`: 20,000 results only, nothing
// written. Stores are built once into bench/.cache/ (gitignored) and reused: `--rebuild` builds anew.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, replaceSection } from './measure.mjs';
import { fillStore } from './view.mjs';
import { exportLine, exportThroughput } from './view-export.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(root, 'bench/.cache');
// Bumped when fillStore's rows change, so a cached store of the old shape is not reused.
const STORE_SHAPE = 1;
// Not "Inspector …": run.mjs and view.mjs find the Inspector section by that prefix.
const HEADING = 'Scale of the inspector';

/** A store with two runs of `count` results (the second a rerun: one row in five scored anew), cached. */
async function storeOf(count, rebuild, cache) {
  mkdirSync(cache, { recursive: true });
  const path = join(cache, `view-scale-${STORE_SHAPE}-${count}.sqlite`);
  const meta = `${path}.json`;
  if (!rebuild && existsSync(path) && existsSync(meta))
    return { path, ...JSON.parse(readFileSync(meta, 'utf8')) };
  const building = `${path}.building`;
  rmSync(building, { force: true });
  const started = performance.now();
  const a = await fillStore(building, count, 0);
  const b = await fillStore(building, count, 1);
  const built = { a, b, buildS: (performance.now() - started) / 1000 };
  renameSync(building, path);
  writeFileSync(meta, JSON.stringify(built));
  return { path, ...built, fresh: true };
}

/** Median and max of `n` timings of `fn` (milliseconds); `own`: `fn` times itself and returns its figure. */
async function timed(fn, n, own = false) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const ms = await fn(i);
    times.push(own ? ms : performance.now() - started);
  }
  times.sort((x, y) => x - y);
  return { p50: times[Math.floor(times.length / 2)], max: times.at(-1) };
}

async function get(app, url) {
  const res = await app.request(`http://localhost${url}`);
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${Buffer.from(body).toString()}`);
  return JSON.parse(Buffer.from(body).toString());
}

async function measureSize(count, { rebuild, n, few, cache }) {
  const { openSqliteStore } = await import('../dist/store/index.js');
  const { createViewApp } = await import('../dist/view/index.js');
  const { default: Database } = await import('better-sqlite3');
  const store = await storeOf(count, rebuild, cache);
  const open = () => {
    const s = openSqliteStore(store.path, { readonly: true });
    return { store: s, app: createViewApp({ store: s, assetsDir: '/nonexistent' }) };
  };

  // Baseline: the first page of run A by one indexed SELECT, components parsed as the app does.
  const db = new Database(store.path, { readonly: true });
  const page = db.prepare(
    `SELECT sample_id, status, reward, components, data_source, substr(response, 1, 240) AS response
     FROM results WHERE run_id = ? ORDER BY rowid LIMIT 100`,
  );
  const baseline = await timed(() => {
    for (const row of page.all(store.a)) JSON.parse(row.components);
  }, n * 4);
  db.close();

  // Cold: a fresh store handle and app for each ask (opening included); the OS file cache stays warm.
  const samples = `/api/runs/${store.a}/samples?limit=100`;
  const cold = await timed(async () => {
    const { store: s, app } = open();
    await get(app, samples);
    await s.close();
  }, 5);
  const { store: s, app } = open();
  const rows = [
    ['first page, cold (a fresh store handle, opened in the timing)', cold],
    ['first page, warm', await timed(() => get(app, samples), n)],
    ['sorted by reward, descending', await timed(() => get(app, `${samples}&sort=reward&order=desc`), n)],
    [
      'sorted by reward, descending, the page at half the run',
      await timed(() => get(app, `${samples}&sort=reward&order=desc&offset=${count / 2}`), n),
    ],
    ['filter: reward 0.4–0.6', await timed(() => get(app, `${samples}&min_reward=0.4&max_reward=0.6`), n)],
  ];
  // The filters no index serves: the first ask scans (a fresh store handle each time, opened
  // outside the timing), the next pages slice the positions that scan kept.
  const scanned = async (name, query) => {
    const first = await timed(
      async () => {
        const fresh = open();
        const started = performance.now();
        await get(fresh.app, `${samples}&${query}`);
        const ms = performance.now() - started;
        await fresh.store.close();
        return ms;
      },
      few,
      true,
    );
    await get(app, `${samples}&${query}`);
    rows.push([`${name}, first ask`, first]);
    rows.push([
      `${name}, next page`,
      await timed((i) => get(app, `${samples}&${query}&offset=${100 * (i + 1)}`), n),
    ]);
  };
  await scanned('filter: data source substring (`ath`)', 'data_source=ath');
  rows.push(['filter: status failed', await timed(() => get(app, `${samples}&status=failed`), n)]);
  await scanned('text search (`q=the sum is 42`, every response scanned)', 'q=the%20sum%20is%2042');
  const compare = `/api/compare?a=${store.a}&b=${store.b}&limit=100`;
  // The first compare of a store handle lists the changed ids; the runs' own pages (their
  // per-source statistics, read by the compare's header too) are opened before the timing.
  const firstCompare = await timed(
    async () => {
      const fresh = open();
      await get(fresh.app, `/api/runs/${store.a}`);
      await get(fresh.app, `/api/runs/${store.b}`);
      const started = performance.now();
      await get(fresh.app, compare);
      const ms = performance.now() - started;
      await fresh.store.close();
      return ms;
    },
    few,
    true,
  );
  const counts = await get(app, compare);
  rows.push(['compare A vs B, first ask (lists the changed ids)', firstCompare]);
  for (const filter of ['changed', 'improved', 'regressed', 'status'])
    rows.push([
      `compare A vs B, filter ${filter}`,
      await timed(() => get(app, `${compare}&filter=${filter}`), n),
    ]);
  rows.push([
    'compare A vs B, filter changed, page 50',
    await timed(() => get(app, `${compare}&filter=changed&offset=5000`), n),
  ]);
  // Export of run A, once each; CSV (the same reads, another writer) below 1M only, to keep the run short.
  const exports = await exportThroughput(app, store.a, {
    repeats: 1,
    cases: [
      ['JSONL, every row', 'format=jsonl'],
      ...(count < 1_000_000 ? [['CSV, every row', 'format=csv']] : []),
      ['JSONL, reward 0.5–0.9, by reward', 'format=jsonl&min_reward=0.5&max_reward=0.9&sort=reward'],
    ],
  });
  await s.close();
  return { count, store, baseline, rows, counts, exports };
}

/**
 * The section's text. `sizes` (default 100k and 1M; `quick`: 20,000) and `cache` (default
 * bench/.cache) let a test measure a small store of its own.
 */
export async function viewScaleSection({ quick = false, rebuild = false, sizes, cache = CACHE } = {}) {
  sizes ??= quick ? [20_000] : [100_000, 1_000_000];
  const figures = [];
  for (const count of sizes) {
    // Fewer asks at 1M: a first compare or scan takes seconds.
    const big = count >= 1_000_000;
    figures.push(await measureSize(count, { rebuild, n: quick || big ? 5 : 15, few: big ? 1 : 3, cache }));
    process.stderr.write(`view-scale: ${fmt(count)} measured\n`);
  }
  const ms = (t) => `${fmt(t, t < 10 ? 2 : t < 100 ? 1 : 0)} ms`;
  const cell = (t, base) => `${ms(t.p50)} (${fmt(t.p50 / base.p50, t.p50 / base.p50 < 10 ? 1 : 0)}×)`;
  const head = figures.map((f) => `${fmt(f.count)} results`).join(' | ');
  const table = [
    `| request (page of 100) | ${head} |`,
    `|---|${figures.map(() => '---:').join('|')}|`,
    `| baseline: the same first page by one indexed SELECT | ${figures.map((f) => ms(f.baseline.p50)).join(' | ')} |`,
    ...figures[0].rows.map(
      ([name], i) => `| ${name} | ${figures.map((f) => cell(f.rows[i][1], f.baseline)).join(' | ')} |`,
    ),
  ];
  const builds = figures
    .map(
      (f) =>
        `${fmt(f.count)}: ${f.store.fresh ? `built in ${fmt(f.store.buildS, 1)} s` : `cached (built in ${fmt(f.store.buildS, 1)} s)`}`,
    )
    .join('; ');
  const compared = figures
    .map(
      (f) =>
        `${fmt(f.count)}: ${fmt(f.counts.common)} shared ids, ${fmt(f.counts.changed)} changed, ${fmt(f.counts.improved)} improved, ${fmt(f.counts.regressed)} regressed, ${fmt(f.counts.status_changed)} changed status`,
    )
    .join('; ');
  return `## ${HEADING} (\`rewardkit view\` API, ${sizes.map((c) => fmt(c)).join(' and ')} results, SQLite)

\`node bench/view-scale.mjs\`: each store holds two runs of the same ids (B a rerun of A: one row in
five with a new judge score, failures on other rows), written straight into SQLite in one transaction
per run and cached in \`bench/.cache/\` (${builds}). Requests go through the view app's handler
(\`createViewApp(...).request\`, no socket); median of ${quick ? 5 : '15 at 100k and 5 at 1M'} (cold: 5; a first ask, each on a fresh store handle: 3, once at 1M), with its ratio to the baseline of the same size in brackets. The OS file cache is warm in every case:
"cold" is a fresh store handle (no prepared statements, no memoised aggregates, no lists of ids), not a cold disk.

${table.join('\n')}

The first compare of two runs (on a store handle, while neither run changes) lists their changed
ids in order with how each changed, and counts them; every other page and filter is a slice of that
list and two lookups per row. Counts: ${compared}.

Export of run A through the same handler (\`api/runs/<id>/export\`, once each, body streamed and counted):

| export | rows | size | time | rows/s | MB/s |
|---|---:|---:|---:|---:|---:|
${figures.flatMap((f) => f.exports.map((e) => exportLine({ ...e, name: `${fmt(f.count)}: ${e.name}` }))).join('\n')}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const section = await viewScaleSection({ quick, rebuild: process.argv.includes('--rebuild') });
  process.stdout.write(`${section}\n`);
  if (!quick) {
    const file = join(root, 'BENCHMARKS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), HEADING, section));
  }
}
