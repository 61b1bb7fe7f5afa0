// Judge traces: what keeping every judge call on its evidence costs. `rewardkit score` with a GenRM
// spec against a scripted server that answers at once (so the run is bound by rewardkit's own work,
// not by the judge's latency), with the calls kept (the default) and with `--no-traces`, the two
// alternating in one run on fresh SQLite stores; then what each store costs to read back.
// `bench/run.mjs` adds this section to BENCHMARKS.md; `node bench/traces.mjs [--quick]` prints it
// alone (build first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// GNU time reports the process's CPU seconds, which other work on a shared machine disturbs less
// than its wall time.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const CPU_LINE = /^cpu (\S+) (\S+)$/m;

function cli(args, dist = join(root, 'dist')) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const command = [process.execPath, join(dist, 'cli/main.js'), ...args];
    const child = TIME
      ? spawn(TIME, ['-f', 'cpu %U %S', ...command], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`rewardkit ${args[0]} exited ${code}: ${err}`));
      const cpu = CPU_LINE.exec(err);
      resolve({
        ms: performance.now() - start,
        cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined,
        out,
        err,
      });
    });
  });
}

const sizeOf = (path) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * The "Judge traces" section of BENCHMARKS.md; `before`, another build's `dist/` folder, adds its
 * runs as a third mode of the same alternation.
 */
export async function tracesSection({ quick = false, fmt, before }) {
  const rows = quick ? 200 : 2000;
  const reps = quick ? 1 : 5;
  const { openSqliteStore } = await import('../dist/store/index.js');
  const { createViewApp } = await import('../dist/view/index.js');
  const llm = await startScriptedLlmServer(
    {
      genrm_scores: {
        principles: ['answers the question', 'vivid and concrete', 'no padding'],
        critique: 'Response 1 answers the request with concrete detail; response 2 is generic. '.repeat(4),
        score_1: 8,
        score_2: 3,
      },
    },
    0,
  );
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-traces-'));
  // Responses of about 2,000 characters (≈ 500 tokens) and references of about 1,000.
  const line = 'The rain kept on through the night, drumming on the tin roof of the shed. ';
  const input = join(dir, 'in.jsonl');
  writeFileSync(
    input,
    `${Array.from({ length: rows }, (_, i) =>
      JSON.stringify({
        id: `r${i}`,
        prompt: `Write a short scene about rain (${i}).`,
        response: `${i}: ${line.repeat(27)}`,
        reference: line.repeat(13),
      }),
    ).join('\n')}\n`,
  );
  writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - kind: genrm\n    params: {model: judge, reasks: 0}\n');
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: m\n    base_url: ${llm.baseURL}\n    max_retries: 0\n    max_concurrency: 64\n`,
  );
  const modes = { traces: [], 'no-traces': [], ...(before !== undefined && { before: [] }) };
  try {
    for (let rep = 0; rep < reps; rep++) {
      const names = Object.keys(modes);
      const order = names.map((_, k) => names[(k + rep) % names.length]);
      for (const mode of order) {
        const at = mkdtempSync(join(dir, `${mode}-`));
        const store = join(at, 'store.sqlite');
        const output = join(at, 'out.jsonl');
        const run = await cli(
          [
            'score',
            ...['--spec', join(dir, 'spec.yaml'), '--models', join(dir, 'models.yaml')],
            ...['--input', input, '--output', output, '--store', store],
            ...['--concurrency', '32', '--no-progress', '--no-resume'],
            ...(mode === 'no-traces' ? ['--no-traces'] : []),
          ],
          mode === 'before' ? before : undefined,
        );
        const runId = /run-\d{8}-\d{6}-[0-9a-f]{4}/.exec(run.out + run.err)?.[0];
        const shown = await cli(
          ['runs', 'show', runId, '--store', store],
          mode === 'before' ? before : undefined,
        );
        // The sample page's API answer, through the app as `rewardkit view` serves it.
        const opened = openSqliteStore(store, { readonly: true });
        const app = createViewApp({ store: opened, assetsDir: '/nonexistent' });
        const pageMs = [];
        let pageBytes = 0;
        for (let i = 0; i < 50; i++) {
          const start = performance.now();
          const res = await app.request(`http://localhost/api/runs/${runId}/samples/r${(i * 7) % rows}`);
          const body = await res.text();
          if (res.status !== 200) throw new Error(`the sample page answered ${res.status}: ${body}`);
          pageMs.push(performance.now() - start);
          pageBytes = body.length;
        }
        await opened.close();
        modes[mode].push({
          ms: run.ms,
          cpuMs: run.cpuMs,
          output: sizeOf(output),
          store: sizeOf(store) + sizeOf(`${store}-wal`),
          showMs: shown.ms,
          pageMs: median(pageMs),
          pageBytes,
          failed: readFileSync(output, 'utf8').includes('"status":"failed"'),
        });
      }
    }
  } finally {
    llm.stop();
  }
  const load = loadavg()[0];
  const summary = Object.fromEntries(
    Object.entries(modes).map(([mode, runs]) => [
      mode,
      {
        ms: median(runs.map((r) => r.ms)),
        cpuMs: runs[0]?.cpuMs === undefined ? undefined : median(runs.map((r) => r.cpuMs)),
        output: median(runs.map((r) => r.output)),
        store: median(runs.map((r) => r.store)),
        showMs: median(runs.map((r) => r.showMs)),
        pageMs: median(runs.map((r) => r.pageMs)),
        pageBytes: median(runs.map((r) => r.pageBytes)),
        failed: runs.some((r) => r.failed),
      },
    ]),
  );
  if (Object.values(summary).some((m) => m.failed)) throw new Error('a bench row failed');
  const t = summary.traces;
  const n = summary['no-traces'];
  const b = summary.before;
  const kib = (bytes) => `${fmt(bytes / 1024, 1)} KiB`;
  const cpu = (s) => (s.cpuMs === undefined ? '—' : `${fmt(s.cpuMs / 1000, 2)} s`);
  const row = (name, s) =>
    `| ${name} | ${fmt(s.ms / 1000, 2)} s | ${cpu(s)} | ${fmt(rows / (s.ms / 1000), 0)} | ${kib(s.output / rows)} | ${kib(s.store / rows)} | ${fmt(s.showMs, 0)} ms | ${fmt(s.pageMs, 1)} ms (${kib(s.pageBytes)}) |`;
  return `## Judge traces (\`score\` with a GenRM spec, SQLite store, concurrency 32)

${fmt(rows)} rows (responses of about 2,000 characters, references of 1,000), each judged in both
orders (2 calls) by a scripted server in its own process that answers at once, so the run is bound by
rewardkit's own work; median of ${reps} runs of each, alternating, each on a fresh store. Wall time
includes the process start; CPU time is the \`score\` process's user + system time (GNU time), less
disturbed by other work on a shared machine. \`runs show\` reads the run's per-source statistics (a scan of every
result's evidence); the sample page is \`api/runs/<id>/samples/<id>\` through the app, median of 50.
Load average (1 min) at the end of the runs: ${fmt(load, 1)}, on ${cpus().length} cores.

| judge calls | wall time | CPU time | rows/s | output per row | store per row | \`runs show\` | sample page (answer size) |
|---|---:|---:|---:|---:|---:|---:|---:|
${row('kept (default)', t)}
${row('`--no-traces`', n)}${b === undefined ? '' : `\n${row('previous build (`--before`: the pairwise detail held the raw call traces)', b)}`}

Keeping the calls: ${fmt(t.ms / n.ms, 2)}× the wall time (${fmt(n.ms / t.ms, 2)}× the rows/s)${t.cpuMs === undefined ? '' : ` and ${fmt(t.cpuMs / n.cpuMs, 2)}× the CPU time`}, ${fmt(t.output / n.output, 2)}× the output and ${fmt(t.store / n.store, 2)}× the store per row; \`runs show\` ${fmt(t.showMs / n.showMs, 2)}×. Each call keeps its prompt, which holds the judged response and the reference, so a judgment's trace grows with the texts it judged: about (system prompt + prompt + response + reference + raw output) × calls.${
    b === undefined
      ? ''
      : ` Against the previous build, whose GenRM detail already held each call's messages and raw output: ${fmt(t.ms / b.ms, 2)}× the wall time${t.cpuMs === undefined ? '' : `, ${fmt(t.cpuMs / b.cpuMs, 2)}× the CPU time`}, ${fmt(t.output / b.output, 2)}× the output, ${fmt(t.store / b.store, 2)}× the store per row.`
  }`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { fmt } = await import('./measure.mjs');
  const at = process.argv.indexOf('--before');
  const before = at > 0 ? process.argv[at + 1] : undefined;
  process.stdout.write(`${await tracesSection({ quick: process.argv.includes('--quick'), fmt, before })}\n`);
}
