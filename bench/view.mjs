// Inspector benchmark: API latency (p50/p99) for a page of samples and filtered queries on a
// 1,000,000-result SQLite store, time to first render of the samples page in Debian's chromium, and
// the web app's bundle size. `node bench/view.mjs` (after `npm run build`) replaces its section of
// BENCHMARKS.md; `npm run bench` includes it. `--quick`: 100,000 results, nothing written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { fmt } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.REWARDKIT_CHROMIUM ?? '/usr/bin/chromium';

/** A store with one run of `count` results, written straight into SQLite in one transaction. */
async function fillStore(path, count) {
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
      const failed = i % 97 === 0;
      const math = (i * 7919) % 3 === 0 ? 0 : 1;
      const judge = ((i * 104729) % 1000) / 1000;
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

async function latencies(app, path, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await app.request(`http://localhost${typeof path === 'function' ? path(i) : path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - started);
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

/**
 * The first render against `rewardkit view` in its own process, as users run it: a server in this
 * process would block the browser driver's own event loop during the store's synchronous queries.
 */
export async function firstRenderOf(path, runId) {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli/main.js'), 'view', '--store', path, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const match = /https?:\/\/[^\s]+/.exec(out);
        if (match) resolve(match[0].replace(/\/$/, ''));
      });
      child.once('exit', (code) => reject(new Error(`rewardkit view exited with ${code}`)));
    });
    return await firstRender(`${url}/#/runs/${runId}`);
  } finally {
    child.kill('SIGTERM');
  }
}

export async function viewSection({ quick = false } = {}) {
  const count = quick ? 100_000 : 1_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-view-'));
  const path = join(dir, 'store.sqlite');
  const fillStarted = performance.now();
  const runId = await fillStore(path, count);
  const fillS = (performance.now() - fillStarted) / 1000;
  const { openSqliteStore } = await import('../dist/store/index.js');
  const { createViewApp } = await import('../dist/view/index.js');
  const store = openSqliteStore(path, { readonly: true });
  const app = createViewApp({ store });
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
      await latencies(app, `/api/runs/${runId}/reward-series?buckets=60`, n),
    ],
    [
      'cost over time (60 buckets, a scan of every evidence list)',
      await latencies(app, `/api/runs/${runId}/cost-series?buckets=60`, 5),
    ],
    ['runs list (counts over the whole run)', await latencies(app, '/api/runs', n)],
  ];
  await store.close();
  const renderMs = await firstRenderOf(path, runId);
  rmSync(dir, { recursive: true, force: true });

  const appDir = join(root, 'dist/view-app');
  const files = readdirSync(appDir);
  const raw = files.reduce((sum, f) => sum + statSync(join(appDir, f)).size, 0);
  const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(appDir, f))).length, 0);
  return `## Inspector (\`rewardkit view\`, ${fmt(count)}-result SQLite store, 2 cores)

The store is written straight into SQLite (${fmt(fillS, 1)} s for ${fmt(count)} rows); the API is
called through the hono app (\`app.request\`), ${n} times each, a page being 100 rows.

| request | p50 | p99 |
|---|---:|---:|
${rows.map(([name, t]) => `| ${name} | ${fmt(t.p50, 1)} ms | ${fmt(t.p99, 1)} ms |`).join('\n')}

Time to first render of the samples page (navigation to the first sample row drawn, median of 3,
chromium headless, \`rewardkit view\` in its own process): ${renderMs === undefined ? 'not measured (no chromium)' : Number.isFinite(renderMs) ? `${fmt(renderMs)} ms` : 'over 60 s (see below)'}.
Web app bundle (\`dist/view-app/\`, ${files.length} files): ${fmt(raw / 1024, 1)} KiB, ${fmt(gz / 1024, 1)} KiB gzipped.`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const section = await viewSection({ quick });
  process.stdout.write(`${section}\n`);
  if (!quick) {
    const file = join(root, 'BENCHMARKS.md');
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('## Inspector');
    const next = at < 0 ? -1 : text.indexOf('\n## ', at + 1);
    const updated =
      at < 0
        ? `${text.trimEnd()}\n\n${section}\n`
        : `${text.slice(0, at)}${section}${next < 0 ? '\n' : `\n${text.slice(next)}`}`;
    writeFileSync(file, updated);
  }
}
