// Inspector benchmark: API latency (p50/p99) for a page of samples and filtered queries on a
// 1,000,000-result SQLite store, time to first render of the samples page in Debian's chromium, a
// live run (a writer saving results while the page polls its statistics) against `--before <dist>`
// (another build, measured in the same run), and the web app's bundle size. `node bench/view.mjs`
// (after `npm run build`) replaces its section of BENCHMARKS.md; `npm run bench` includes it.
// `--quick`: 100,000 results, nothing written. `--count <n>`: another store size.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { fmt, replaceSection, startListening } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.REWARDKIT_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A store with one more run of `count` results, written straight into SQLite in one transaction.
 * `seed` shifts the judge scores of one row in five and which rows fail, so two runs of one store differ as a rerun would.
 */
export async function fillStore(path, count, seed = 0) {
  const { openSqliteStore } = await import('../dist/store/index.js');
  const store = openSqliteStore(path);
  const run = await store.createRun({ spec_name: 'bench', spec: { sources: ['math', 'judge'] } });
  await store.close();
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  const insert = db.prepare(
    `INSERT INTO results (run_id, sample_id, status, reward, components, errors, warnings, data_source, group_id,
       total_ms, created_at, request_id, evidence, prompt, response)
     VALUES (?, ?, ?, ?, ?, '[]', '[]', ?, NULL, 1.5, ?, NULL, ?, ?, ?)`,
  );
  const sources = ['gsm8k', 'math', 'ifeval', 'code'];
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const failed = (i + seed) % 97 === 0;
      const math = (i * 7919) % 3 === 0 ? 0 : 1;
      const judge = ((i * 104729 + (i % 5 === 0 ? seed * 7 : 0)) % 1000) / 1000;
      const reward = failed ? null : (math + judge) / 2;
      insert.run(
        run.id,
        `s${i}`,
        failed ? 'failed' : 'ok',
        reward,
        JSON.stringify({ math, judge }),
        sources[i % 4],
        now,
        JSON.stringify([
          {
            source: 'math',
            kind: 'math',
            score: math,
            verdict: math ? 'pass' : 'fail',
            veto: false,
            invalid: false,
            elapsed_ms: 0.2,
          },
        ]),
        JSON.stringify(`Question ${i}: what is ${i} + ${i}?`),
        `Let me think about ${i}. The sum is ${2 * i}, so the answer is \\boxed{${2 * i}}.`,
      );
    }
  })();
  db.close();
  return run.id;
}

/**
 * p50 and p99 of `n` requests through the hono app. `app` may be a function returning a fresh app
 * (a fresh store: nothing kept in memory from the call before), opened outside the timing.
 */
async function latencies(app, path, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const target = typeof app === 'function' ? await app() : app;
    const started = performance.now();
    const res = await target.request(`http://localhost${typeof path === 'function' ? path(i) : path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - started);
    if (typeof app === 'function') await target.close();
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

async function firstRender(url) {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const times = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage();
    const started = performance.now();
    await page.goto(url);
    // A first render slower than a minute is reported as such rather than failing the bench.
    const drawn = await page
      .locator('[data-sample]')
      .first()
      .waitFor({ timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    times.push(drawn ? performance.now() - started : Number.POSITIVE_INFINITY);
    await page.close();
    // The store answers one query at a time: the next load starts once the queries this page
    // left running (its statistics and histograms) are done, so each load is measured alone.
    for (let attempt = 0; attempt < 5; attempt++) {
      const answered = await fetch(new URL('/api/runs', url), { headers: { connection: 'close' } }).then(
        () => true,
        () => false,
      );
      if (answered) break;
    }
  }
  await browser.close();
  times.sort((a, b) => a - b);
  return times[1];
}

/** `rewardkit view` of the build in `dist` in its own process; resolves to its URL and a stop function. */
const startView = (dist, path) =>
  startListening(join(dist, 'cli/main.js'), ['view', '--store', path, '--port', '0']);

/**
 * The first render against `rewardkit view` in its own process, as users run it: a server in this
 * process would block the browser driver's own event loop during the store's synchronous queries.
 */
export async function firstRenderOf(path, runId, dist = join(root, 'dist')) {
  const view = await startView(dist, path);
  try {
    return await firstRender(`${view.url}/#/runs/${runId}`);
  } finally {
    view.stop();
  }
}

/** Results a live run adds: WRITER_BATCH every WRITER_EVERY_MS, as a `score` or `serve` saves them. */
const WRITER_BATCH = 100;
const WRITER_EVERY_MS = 1000;

/** A writer in its own process saving results into `runId` until stopped (`--writer` below). */
function startWriter(path, runId) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--writer', path, runId], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
}

async function runWriter(path, runId) {
  const { openSqliteStore } = await import('../dist/store/index.js');
  const store = openSqliteStore(path);
  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
  });
  for (let batch = 0; !stopping; batch++) {
    const results = Array.from({ length: WRITER_BATCH }, (_, i) => {
      const reward = ((batch * WRITER_BATCH + i) % 10) / 10;
      return {
        spec: 'rk/v1',
        id: `live-${process.pid}-${batch}-${i}`,
        status: 'ok',
        reward,
        components: { math: reward },
        evidence: [
          {
            source: 'math',
            kind: 'math',
            score: reward,
            verdict: 'fail',
            veto: false,
            invalid: false,
            elapsed_ms: 0.2,
          },
        ],
        errors: [],
        warnings: [],
        data_source: 'live',
        timings: { total_ms: 1.5 },
      };
    });
    await store.saveResults(runId, results, { samples: results.map((r) => ({ response: `live ${r.id}` })) });
    await new Promise((resolve) => setTimeout(resolve, WRITER_EVERY_MS));
  }
  await store.close();
}

/**
 * A live run's page in chromium against `rewardkit view` of `dist`, a writer saving results all
 * along: navigation to the first sample row drawn, then, after POLL_S seconds of the page polling
 * the run's statistics, SCROLLS jumps of the table to another part of the run, each timed from the
 * scroll to the row drawn; and the statistics requests the page made (most in flight at once).
 */
const POLL_S = 15;
const SCROLLS = 8;
const ROW_HEIGHT = 30;
const GIVE_UP_MS = 60_000;

async function livePage(dist, path, runId, count) {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  const view = await startView(dist, path);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const stats = { asked: 0, inFlight: new Map(), most: 0, durations: [] };
    const kind = (url) => {
      const { pathname } = new URL(url);
      return pathname.includes('/samples') || !pathname.includes('/api/runs/')
        ? undefined
        : pathname.split('/').slice(4).join('/') || 'detail';
    };
    const started = new Map();
    page.on('request', (request) => {
      const k = kind(request.url());
      if (k === undefined) return;
      stats.asked++;
      started.set(request, performance.now());
      stats.inFlight.set(k, (stats.inFlight.get(k) ?? 0) + 1);
      stats.most = Math.max(stats.most, stats.inFlight.get(k));
    });
    const done = (request) => {
      const k = kind(request.url());
      if (k === undefined || !started.has(request)) return;
      stats.inFlight.set(k, stats.inFlight.get(k) - 1);
      stats.durations.push(performance.now() - started.get(request));
      started.delete(request);
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    const drawn = (id) =>
      page
        .locator(`#samples [data-sample="${id}"]`)
        .waitFor({ timeout: GIVE_UP_MS })
        .then(
          () => true,
          () => false,
        );
    const navigated = performance.now();
    await page.goto(`${view.url}/#/runs/${runId}`);
    const firstMs = (await drawn('s0')) ? performance.now() - navigated : Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, POLL_S * 1000));
    const scrolls = [];
    for (let i = 0; i < SCROLLS; i++) {
      // Spread over the run, each on a page not fetched before.
      const row = Math.floor(((i + 0.5) / SCROLLS) * (count - 100)) + 37;
      const at = performance.now();
      await page.locator('#samples').evaluate((el, top) => {
        el.scrollTop = top;
      }, row * ROW_HEIGHT);
      scrolls.push((await drawn(`s${row}`)) ? performance.now() - at : Number.POSITIVE_INFINITY);
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await page.close();
    scrolls.sort((a, b) => a - b);
    stats.durations.sort((a, b) => a - b);
    return {
      firstMs,
      scrollMedianMs: scrolls[Math.floor(scrolls.length / 2)],
      scrollMaxMs: scrolls.at(-1),
      asked: stats.asked,
      most: stats.most,
      slowestStatsMs: stats.durations.at(-1),
    };
  } finally {
    await browser.close();
    view.stop();
  }
}

/**
 * One build's live-run figures on its own copy of the store: the runs list and the run's page
 * (`api/runs/<id>`) through its hono app while a writer saves results, the page in chromium, then
 * the same two requests once the run has finished (through that build's `finishRun`).
 */
async function liveFigures(dist, source, runId, count, n) {
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-view-live-'));
  const path = join(dir, 'store.sqlite');
  copyFileSync(source, path);
  const { openSqliteStore } = await import(pathToFileURL(join(dist, 'store/index.js')).href);
  const { createViewApp } = await import(pathToFileURL(join(dist, 'view/index.js')).href);
  const reader = openSqliteStore(path, { readonly: true });
  const app = createViewApp({ store: reader });
  let stopWriter = startWriter(path, runId);
  try {
    const running = {
      list: await latencies(app, '/api/runs', n),
      detail: await latencies(app, `/api/runs/${runId}`, n),
    };
    const page = await livePage(dist, path, runId, count);
    await stopWriter();
    stopWriter = undefined;
    const writer = openSqliteStore(path);
    const totals = await writer.runTotals(runId);
    const finishStarted = performance.now();
    await writer.finishRun(runId, {
      rows: totals.results,
      scored: totals.results - totals.failed,
      failed: totals.failed,
      skipped: 0,
      mean_reward: totals.mean_reward,
      sources: [],
      failures: [],
      elapsed_ms: 0,
      rows_per_s: 0,
    });
    const finishMs = performance.now() - finishStarted;
    await writer.close();
    const finished = {
      list: await latencies(app, '/api/runs', n),
      detail: await latencies(app, `/api/runs/${runId}`, n),
    };
    return { running, page, finished, finishMs };
  } finally {
    await stopWriter?.();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function viewSection({ quick = false, count: size, before } = {}) {
  const count = size ?? (quick ? 100_000 : 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-view-'));
  const path = join(dir, 'store.sqlite');
  const fillStarted = performance.now();
  const runId = await fillStore(path, count);
  const fillS = (performance.now() - fillStarted) / 1000;
  const { openSqliteStore } = await import('../dist/store/index.js');
  const { createViewApp } = await import('../dist/view/index.js');
  const store = openSqliteStore(path, { readonly: true });
  const app = createViewApp({ store });
  // Aggregates asked of a fresh store each time: what the first ask of a changed run costs (a
  // store keeps them in memory while the run does not change; the live figures below cover that).
  const fresh = async () => {
    const s = openSqliteStore(path, { readonly: true });
    const a = createViewApp({ store: s });
    return { request: (url) => a.request(url), close: () => s.close() };
  };
  const n = quick ? 20 : 50;
  const base = `/api/runs/${runId}/samples?limit=100`;
  const rows = [
    ['first page, input order', await latencies(app, base, n)],
    [
      'a page in the middle of the run (offset count/2)',
      await latencies(app, `${base}&offset=${count / 2}`, n),
    ],
    ['first page by reward, descending', await latencies(app, `${base}&sort=reward&order=desc`, n)],
    [
      'filtered: data source + reward ≥ 0.9',
      await latencies(app, `${base}&data_source=math&min_reward=0.9`, n),
    ],
    ['filtered: status failed', await latencies(app, `${base}&status=failed`, n)],
    ['text search (`q`, a scan of every response)', await latencies(app, `${base}&q=the%20sum%20is%2042`, 5)],
    [
      'reward over results (60 buckets, from the reward index)',
      await latencies(fresh, `/api/runs/${runId}/reward-series?buckets=60`, quick ? 5 : 10),
    ],
    [
      'cost over time (60 buckets, a scan of every evidence list)',
      await latencies(fresh, `/api/runs/${runId}/cost-series?buckets=60`, 5),
    ],
    [
      'histograms (20 bins, every component of every result)',
      await latencies(fresh, `/api/runs/${runId}/histograms?bins=20`, 5),
    ],
    [
      'the same three again, the run unchanged (kept in memory under its version)',
      await latencies(
        app,
        (i) =>
          `/api/runs/${runId}/${['reward-series?buckets=60', 'cost-series?buckets=60', 'histograms?bins=20'][i % 3]}`,
        n,
      ),
    ],
  ];
  await store.close();
  const renderMs = await firstRenderOf(path, runId);

  const ln = quick ? 5 : 20;
  const builds = [
    ['this build', join(root, 'dist')],
    ...(before ? [['previous build (`--before`)', before]] : []),
  ];
  const live = [];
  for (const [name, dist] of builds) live.push([name, await liveFigures(dist, path, runId, count, ln)]);
  rmSync(dir, { recursive: true, force: true });

  const appDir = join(root, 'dist/view-app');
  const files = readdirSync(appDir);
  const raw = files.reduce((sum, f) => sum + statSync(join(appDir, f)).size, 0);
  const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(appDir, f))).length, 0);
  const ms = (t) => (Number.isFinite(t) ? `${fmt(t, t < 100 ? 1 : 0)} ms` : `over ${GIVE_UP_MS / 1000} s`);
  const pq = (t) => `${ms(t.p50)} / ${ms(t.p99)}`;
  const liveRow = (label, pick) => `| ${label} | ${live.map(([, f]) => pick(f)).join(' | ')} |`;
  return `## Inspector (\`rewardkit view\`, ${fmt(count)}-result SQLite store, 2 cores)

The store is written straight into SQLite (${fmt(fillS, 1)} s for ${fmt(count)} rows); the API is
called through the hono app (\`app.request\`), ${n} times each, a page being 100 rows.

| request | p50 | p99 |
|---|---:|---:|
${rows.map(([name, t]) => `| ${name} | ${fmt(t.p50, 1)} ms | ${fmt(t.p99, 1)} ms |`).join('\n')}

Time to first render of the samples page (navigation to the first sample row drawn, median of 3,
chromium headless, \`rewardkit view\` in its own process): ${renderMs === undefined ? 'not measured (no chromium)' : Number.isFinite(renderMs) ? `${fmt(renderMs)} ms` : 'over 60 s (see below)'}.
Web app bundle (\`dist/view-app/\`, ${files.length} files): ${fmt(raw / 1024, 1)} KiB, ${fmt(gz / 1024, 1)} KiB gzipped.

### A live run (${fmt(count)} results, a writer saving ${WRITER_BATCH} more every ${WRITER_EVERY_MS / 1000} s)

Each build on its own copy of the store, with a writer process saving results into the run all
along. API rows: p50 / p99 of ${ln} requests through the build's hono app. Page rows: chromium
against the build's \`rewardkit view\` in its own process: navigation to the first row drawn, then,
after ${POLL_S} s of the page polling the run's statistics, ${SCROLLS} jumps of the table to another part of
the run, each timed from the scroll to its row drawn (a page of samples asked while statistics are
polled). Then the writer stops, the run is finished through the build's \`finishRun\`, and the API
rows are measured again.

| | ${live.map(([name]) => name).join(' | ')} |
|---|${live.map(() => '---:').join('|')}|
${liveRow('runs list, run running (p50 / p99)', (f) => pq(f.running.list))}
${liveRow('`api/runs/<id>`, run running (p50 / p99)', (f) => pq(f.running.detail))}
${liveRow('first samples page drawn, run running', (f) => (f.page ? ms(f.page.firstMs) : '—'))}
${liveRow('a samples page while statistics are polled (median / max of scrolls)', (f) => (f.page ? `${ms(f.page.scrollMedianMs)} / ${ms(f.page.scrollMaxMs)}` : '—'))}
${liveRow(`statistics requests in ${POLL_S} s + the scrolls (most of a kind in flight; slowest)`, (f) => (f.page ? `${f.page.asked} (${f.page.most}; ${ms(f.page.slowestStatsMs)})` : '—'))}
${liveRow('`finishRun`', (f) => ms(f.finishMs))}
${liveRow('runs list, run finished (p50 / p99)', (f) => pq(f.finished.list))}
${liveRow('`api/runs/<id>`, run finished (p50 / p99)', (f) => pq(f.finished.detail))}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const writerAt = process.argv.indexOf('--writer');
  if (writerAt > 0) {
    await runWriter(process.argv[writerAt + 1], process.argv[writerAt + 2]);
    process.exit(0);
  }
  const quick = process.argv.includes('--quick');
  const beforeAt = process.argv.indexOf('--before');
  const countAt = process.argv.indexOf('--count');
  const section = await viewSection({
    quick,
    ...(beforeAt > 0 && { before: resolve(process.argv[beforeAt + 1]) }),
    ...(countAt > 0 && { count: Number(process.argv[countAt + 1]) }),
  });
  process.stdout.write(`${section}\n`);
  if (!quick) {
    const file = join(root, 'BENCHMARKS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), 'Inspector (', section));
  }
}
