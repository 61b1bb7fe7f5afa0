// The SQLite store's one writer under `serve --processes`: sender processes hand encoded result
// rows to the primary exactly as serve processes do (`saveThroughPrimary`, 16 rows a request,
// several requests in flight each), and the primary saves them as `serve` does. Measures the rows
// committed per second and what each row costs the primary's main thread — the figure that caps
// `/get_reward` with SQLite on a machine of many cores — for this build and, with `--before
// <root>`, another build, alternating in the same run.
//
//   node bench/primary-writer.mjs [--senders 2] [--seconds 6] [--rounds 2] [--before <root>]
//
// RK_BENCH_THREADS=1 also prints each of the primary's threads' CPU µs per row on stderr (Linux).
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadCpuSeconds } from './measure.mjs';

const BATCH = 16;
const IN_FLIGHT = 8;

const flag = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};

/** One measurement: the primary of `root`'s build with `senders` processes for `seconds`. */
async function primary(root, senders, seconds) {
  const { runServePrimary } = await import(`${root}/dist/cli/serve-processes.js`);
  const { openSqliteStore } = await import(`${root}/dist/store/index.js`);
  const dir = mkdtempSync(join(tmpdir(), 'rk-primary-writer-'));
  const store = openSqliteStore(join(dir, 'store.sqlite'));
  const run = await store.createRun({ spec_name: 'bench', spec: {}, input: 'http' });
  let rows = 0;
  let commits = 0;
  let started;
  const main0 = threadCpuSeconds(process.pid);
  const cpu0 = process.cpuUsage();
  setTimeout(() => process.kill(process.pid, 'SIGTERM'), (seconds + 1) * 1000);
  await runServePrimary({
    processes: senders,
    runId: run.id,
    log: () => {},
    onListening: () => {
      started = performance.now();
    },
    saveRows: async (batch) => {
      await store.saveEncodedResults(run.id, batch);
      rows += batch.length;
      commits++;
    },
  });
  const elapsed = (performance.now() - started) / 1000;
  if (process.env.RK_BENCH_THREADS) {
    const { readdirSync } = await import('node:fs');
    const per = readdirSync('/proc/self/task').map((tid) => [
      tid,
      (threadCpuSeconds(process.pid, tid) * 1e6) / rows,
    ]);
    process.stderr.write(
      `${JSON.stringify(per.filter(([, v]) => v > 0.1).map(([t, v]) => [t, +v.toFixed(2)]))}\n`,
    );
  }
  const cpu = process.cpuUsage(cpu0);
  const main1 = threadCpuSeconds(process.pid);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    rowsPerS: rows / elapsed,
    mainUsPerRow: ((main1 - main0) * 1e6) / rows,
    processUsPerRow: (cpu.user + cpu.system) / rows,
    rowsPerCommit: rows / commits,
  };
}

/** A sender: the math preset's results for 16 samples, encoded and sent until told to stop. */
async function sender(root) {
  const { saveThroughPrimary, reportListening, reportSummary } = await import(
    `${root}/dist/cli/serve-processes.js`
  );
  const { encodeSqliteResults } = await import(`${root}/dist/store/index.js`);
  const { createEvaluator, loadSpec } = await import(`${root}/dist/spec/index.js`);
  const { createTimeOrderedIds } = await import(`${root}/dist/server/time-ordered-id.js`);
  const evaluator = createEvaluator(loadSpec('math'));
  const results = [];
  const texts = [];
  for (let i = 0; i < BATCH; i++) {
    const n = (1 + i) * 37;
    const prompt = `<|user|>What is ${n} + ${i}?<|assistant|>`;
    const response = `Adding them gives ${n + i}.\n#### ${i % 4 === 0 ? n + i + 1 : n + i}`;
    results.push(await evaluator.evaluate({ id: `s${i}`, response, reference: String(n + i), metadata: {} }));
    texts.push({ prompt, response });
  }
  await evaluator.close();
  const nextId = createTimeOrderedIds();
  let stopping = false;
  process.on('SIGTERM', () => {
    stopping = true;
  });
  await reportListening('bench');
  const loop = async () => {
    while (!stopping) {
      const requestId = nextId();
      const batch = results.map((result, i) => ({ ...result, id: `${requestId}-${i}` }));
      await saveThroughPrimary(encodeSqliteResults(batch, { requestId, samples: texts }));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
  await reportSummary({});
}

const here = fileURLToPath(new URL('..', import.meta.url));
if (cluster.isWorker) {
  await sender(process.env.RK_BENCH_ROOT);
} else if (process.env.RK_BENCH_ROOT) {
  // One measurement in a process of its own (the cluster forks this file again as the senders).
  const result = await primary(process.env.RK_BENCH_ROOT, Number(flag('senders')), Number(flag('seconds')));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${primaryWriterSection({ root: here, before: flag('before') })}\n`);
}

/**
 * The section: each build measured `rounds` times, alternating, each round in fresh processes
 * and a fresh store file.
 */
export function primaryWriterSection({ root, before, quick = false }) {
  const senders = Number(flag('senders', Math.max(1, Math.min(4, availableParallelism() - 1))));
  const seconds = Number(flag('seconds', quick ? 2 : 6));
  const rounds = Number(flag('rounds', quick ? 1 : 2));
  const builds = [['this', root], ...(before ? [['before', before]] : [])];
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    for (const [build, buildRoot] of builds) {
      const child = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--senders', String(senders), '--seconds', String(seconds)],
        {
          env: { ...process.env, RK_BENCH_ROOT: buildRoot },
          encoding: 'utf8',
          timeout: (seconds + 60) * 1000,
        },
      );
      if (child.status !== 0) throw new Error(`primary-writer measurement failed: ${child.stderr}`);
      rows.push({ build, round: round + 1, ...JSON.parse(child.stdout.trim().split('\n').at(-1)) });
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    }
  }
  const us = (v) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
  return `## The SQLite store's one writer (\`serve --processes\`)

${senders === 1 ? 'One sender process hands' : `${senders} sender processes hand`} the primary encoded math-preset results as serve processes do (${BATCH} rows a request, ${IN_FLIGHT} requests in flight each); the primary saves them into a fresh SQLite file as \`serve --processes\` does. \`main µs/row\`: the primary's main thread — the file's one writer — per committed row, which caps \`/get_reward\` with SQLite on a machine of many cores; \`process µs/row\`: all its threads (the checkpointer included); \`rows/commit\`: the rows one transaction held (fewer a commit cost more each: the last pages of the table and each index are written again at every commit). ${availableParallelism()} cores shared by the senders and the primary, so rows/s is bounded by the senders here; ${seconds} s per round.${before ? ` \`before\`: the build at ${before}, alternated with this one.` : ''}

| build | round | rows/s | main µs/row | process µs/row | rows/commit |
|---|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.build} | ${r.round} | ${Math.round(r.rowsPerS).toLocaleString('en-US')} | ${us(r.mainUsPerRow)} | ${us(r.processUsPerRow)} | ${Number.isFinite(r.rowsPerCommit) ? Math.round(r.rowsPerCommit) : 'n/a'} |`).join('\n')}`;
}
