// Load on the reward server over loopback, with autocannon: `/get_reward` with the math preset
// against the same evaluator called in-process; a judge source behind the scripted LLM server
// against the ideal; and the server's memory across equal rounds of a bounded soak.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { processCpuSeconds, startListening, threadCpuSeconds } from './measure.mjs';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const BATCH = 16;

/** OpenRLHF's body: query = prompt + response, labels = references. */
function openrlhfBatch(offset) {
  const prompts = [];
  const query = [];
  const labels = [];
  for (let i = 0; i < BATCH; i++) {
    const n = (offset + i) * 37;
    const prompt = `<|user|>What is ${n} + ${i}?<|assistant|>`;
    prompts.push(prompt);
    query.push(`${prompt}Adding them gives ${n + i}.\n#### ${i % 4 === 0 ? n + i + 1 : n + i}`);
    labels.push(String(n + i));
  }
  return { query, prompts, labels };
}

const startServe = (root, args, env) =>
  startListening(join(root, 'dist/cli/main.js'), ['serve', '--port', '0', ...args], env);

/** Busy and total jiffies of the whole machine (Linux; NaN elsewhere). */
function machineJiffies() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - cpu[3] - cpu[4], total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon(
      { method: 'POST', headers: { 'content-type': 'application/json' }, ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * `before`: the root of another build (with its dist/), whose `--processes` SQLite servers are
 * measured beside this build's, in the same run. `duration` (seconds), `connections`, `stores`,
 * `workers` (thread counts at one process), `processes` and `judge: false` (no judge section, no
 * soak) trim a run on a machine lent for minutes.
 */
export async function serverLoadSection({
  root,
  quick,
  fmt,
  before,
  duration: seconds,
  connections: connectionCounts,
  stores = ['sqlite', 'none'],
  workers: workerCounts = [0, 1, 2],
  processes: processList,
  judge = true,
}) {
  const { createEvaluator, loadSpec } = await import('../dist/spec/index.js');
  const duration = seconds ?? (quick ? 2 : 8);
  const body = JSON.stringify(openrlhfBatch(1));
  const dir = mkdtempSync(join(tmpdir(), 'rk-serve-bench-'));

  // In-process baseline: the same spec evaluating the same samples, no HTTP, no store.
  const evaluator = createEvaluator(loadSpec('math'));
  const batch = openrlhfBatch(1);
  const samples = batch.query.map((q, i) => ({
    id: `s${i}`,
    response: q.slice(batch.prompts[i].length),
    reference: batch.labels[i],
    metadata: {},
  }));
  for (let i = 0; i < 50; i++) await Promise.all(samples.map((s) => evaluator.evaluate(s)));
  let evaluated = 0;
  const start = performance.now();
  while (performance.now() - start < duration * 1000) {
    await Promise.all(samples.map((s) => evaluator.evaluate(s)));
    evaluated += samples.length;
  }
  const inProcess = (evaluated / (performance.now() - start)) * 1000;
  await evaluator.close();

  // Each store setting, worker-thread count and process count in its own server: SQLite (every
  // result persisted, the default) and none (HTTP and scoring only), verifying on the main thread
  // (--workers 0) or in worker threads, in one process or several sharing the port (--processes),
  // so the table shows what persisting, the thread pool and the processes cost or gain. On a
  // machine of many cores the process counts go up to half the cores (the load generator, with
  // its own worker threads, gets the other half).
  const cores = availableParallelism();
  const processCounts = processList ?? [1, 2, ...[4, 8, 16, 32].filter((n) => n <= cores / 2)];
  const cannonWorkers = cores >= 8 ? Math.min(8, Math.floor(cores / 4)) : 0;
  const configs = [];
  for (const store of stores) {
    if (processCounts.includes(1))
      for (const workers of workerCounts) configs.push({ store, workers, processes: 1, build: root });
    for (const processes of processCounts.filter((n) => n > 1))
      configs.push({ store, workers: 0, processes, build: root });
  }
  if (before) {
    for (const processes of processCounts)
      configs.push({ store: 'sqlite', workers: 0, processes, build: before });
  }
  const rows = [];
  let soak;
  for (const { store, workers, processes, build } of configs) {
    const server = await startServe(
      build,
      [
        '--spec',
        'math',
        '--workers',
        String(workers),
        '--processes',
        String(processes),
        '--store',
        store === 'none'
          ? 'none'
          : join(
              dir,
              `store-${store.replace(/\W+/g, '-')}-${workers}-${processes}-${build === root ? 'this' : 'before'}.sqlite`,
            ),
      ],
      store === 'sqlite-inline' ? { REWARDKIT_STORE_WRITER: 'inline' } : {},
    );
    for (const connections of connectionCounts ?? [1, 16, 64]) {
      const load = { url: `${server.url}/get_reward`, body, connections, workers: cannonWorkers };
      await cannon({ ...load, duration: 1 }); // warm up
      // The first process's main thread: with `--processes` the primary, the SQLite file's one
      // writer — near a full core the writer is the limit, well below it the answers' latency.
      const cpu0 = threadCpuSeconds(server.pid);
      const all0 = processCpuSeconds(server.pid);
      const machine0 = machineJiffies();
      const r = await cannon({ ...load, duration });
      const machine1 = machineJiffies();
      // The whole machine (servers and load generator): near 100% the cores are the limit.
      const machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total);
      const mainCpu = (threadCpuSeconds(server.pid) - cpu0) / duration;
      // All its threads: with several processes and SQLite, the shard merger's.
      const allCpu = (processCpuSeconds(server.pid) - all0) / duration;
      if (r.non2xx > 0) throw new Error(`/get_reward answered ${r.non2xx} non-2xx responses`);
      rows.push({
        build: build === root ? 'this' : 'before',
        store,
        workers,
        processes,
        connections,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        mainCpu,
        allCpu,
        machineBusy,
      });
      // Progress on stderr: a run cut short still shows what it measured.
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    }
    if (judge && store === 'sqlite' && workers === 0 && processes === 1 && build === root) {
      // Memory soak: RSS after each of several equal rounds of further requests; flat = no leak.
      const perRound = quick ? 500 : 2000;
      const rss = [rssMb(server.pid)];
      for (let round = 0; round < 4; round++) {
        await cannon({ url: `${server.url}/get_reward`, body, connections: 16, amount: perRound });
        rss.push(rssMb(server.pid));
      }
      soak = { perRound, rss };
    }
    // Draining and, with SQLite and several processes, merging what the shards hold that the
    // store file does not yet: how far the merge was behind the answers.
    const stopStart = performance.now();
    await server.stop();
    const stopSeconds = (performance.now() - stopStart) / 1000;
    // The primary says what its last merge pass had left to do: the backlog behind the answers.
    const backlog = /\((\d+) of them at shutdown, in ([\d.]+) s\)/.exec(server.stderr());
    for (const row of rows.slice(-(connectionCounts ?? [1, 16, 64]).length)) {
      row.stopSeconds = stopSeconds;
      if (backlog) row.backlog = { rows: Number(backlog[1]), seconds: Number(backlog[2]) };
    }
  }

  const LATENCY_MS = 200;
  const judgeRows = judge ? await judgeLoad(root, dir, quick, LATENCY_MS) : [];
  const ratio = (r) => (r.rps * BATCH) / inProcess;
  return `## Reward server under load (loopback, autocannon)

\`POST /get_reward\` (OpenRLHF's body, ${BATCH} samples per request) with the math preset, against the same spec evaluated in-process on one core (no HTTP, no store): ${fmt(inProcess)} samples/s. \`sqlite\` persists every result with its request id before answering (the default; write-behind, one transaction per batch of requests); \`none\` stores nothing. \`workers\`: 0 verifies on the event loop, 1 and 2 in that many worker threads; \`processes\`: server processes sharing the port (\`--processes\`). \`first process\`: its CPU over the measured run, main thread / all threads (one process: the server's event loop, then with SQLite its store thread too; several: the primary, which with SQLite merges the processes' shards into the store file on a thread — near 100% of all threads the merge falls behind the answers). \`sqlite-inline\`: REWARDKIT_STORE_WRITER=inline, each process saving on its event loop instead of a thread. \`machine busy\`: all cores, servers and load generator, over the measured run. \`stop\`: SIGTERM to exit, after the last connection count: draining, and with SQLite and several processes merging what the store file does not yet hold; \`merged at stop\`: what the primary's last merge pass had left (the rows answered faster than one writer merged them during the run) and its time. ${cores} cores; the load generator (autocannon${cannonWorkers > 0 ? `, ${cannonWorkers} worker threads` : ', one thread'}) runs on the same machine.

${before ? `\`before\`: the build at ${before}, measured in this run with the same load.\n\n` : ''}| ${before ? 'build | ' : ''}store | workers | processes | connections | requests/s | samples/s | p50 latency | p99 latency | vs in-process | first process | machine busy | stop | merged at stop |
|${before ? '---|' : ''}---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${before ? `${r.build} | ` : ''}${r.store} | ${r.workers} | ${r.processes} | ${r.connections} | ${fmt(r.rps, 1)} | ${fmt(r.rps * BATCH)} | ${fmt(r.p50, 1)} ms | ${fmt(r.p99, 1)} ms | ${fmt(ratio(r), 2)}× | ${Number.isNaN(r.mainCpu) ? 'n/a' : `${fmt(100 * r.mainCpu, 0)}% / ${fmt(100 * r.allCpu, 0)}%`} | ${fmt(100 * r.machineBusy, 0)}% | ${fmt(r.stopSeconds, 1)} s | ${r.backlog ? `${fmt(r.backlog.rows)} rows, ${fmt(r.backlog.seconds, 1)} s` : '–'} |`).join('\n')}
${
  judge
    ? `
GenRM against the reference behind the scripted LLM server (${LATENCY_MS} ms per call, 2 calls per sample), one sample per \`POST /v1/rewards\`; ideal = connections / (2 × ${LATENCY_MS} ms):

| connections | requests/s | ideal | share of ideal |
|---:|---:|---:|---:|
${judgeRows.map((r) => `| ${r.connections} | ${fmt(r.rps, 2)} | ${fmt(r.ideal, 2)} | ${fmt((100 * r.rps) / r.ideal, 1)}% |`).join('\n')}
`
    : ''
}${
  soak
    ? `
Memory soak (SQLite store, 16 connections): server RSS after the load runs above, then after each of 4 rounds of ${fmt(soak.perRound)} requests (${fmt(soak.perRound * BATCH)} samples each): ${soak.rss.map((m) => `${fmt(m, 1)} MB`).join(' → ')}; the last two rounds differ by ${fmt((soak.rss.at(-1) ?? 0) - (soak.rss.at(-2) ?? 0), 1)} MB.`
    : ''
}`;
}

/** A judge source (GenRM against the reference: 2 calls per sample) behind the scripted server. */
async function judgeLoad(root, dir, quick, LATENCY_MS) {
  const llm = await startScriptedLlmServer(
    { genrm_scores: { principles: ['correct'], critique: 'The first is right.', score_1: 8, score_2: 4 } },
    LATENCY_MS,
  );
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    base_url: ${llm.baseURL}\n    model: m\n    max_concurrency: 512\n`,
  );
  writeFileSync(
    join(dir, 'judge.yaml'),
    'name: judge-bench\nsources:\n  - kind: genrm\n    params:\n      model: judge\n      against: reference\n',
  );
  const judgeServer = await startServe(root, [
    '--spec',
    join(dir, 'judge.yaml'),
    '--models',
    join(dir, 'models.yaml'),
    '--store',
    join(dir, 'judge.sqlite'),
    '--no-cache',
    '--concurrency',
    '256',
  ]);
  const judgeRows = [];
  let n = 0;
  for (const connections of [1, 16, 64]) {
    const r = await cannon({
      url: `${judgeServer.url}/v1/rewards`,
      connections,
      duration: quick ? 2 : 6,
      setupClient: (client) => {
        client.setBody(
          JSON.stringify({
            samples: [{ id: `j${n++}`, prompt: 'Q?', response: `answer ${n}`, reference: 'ref' }],
          }),
        );
      },
    });
    if (r.non2xx > 0) throw new Error(`/v1/rewards answered ${r.non2xx} non-2xx responses`);
    judgeRows.push({ connections, rps: r.requests.average, ideal: connections / ((2 * LATENCY_MS) / 1000) });
  }
  await judgeServer.stop();
  llm.stop();
  return judgeRows;
}

// Alone (`node bench/server-load.mjs [--quick] [--duration s] [--connections 16,64] [--stores
// sqlite,none] [--workers 0,1,2] [--processes 1,4,8] [--no-judge] [--before <root>]`): prints the
// section, e.g. on a machine of many cores.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      'node bench/server-load.mjs [--quick] [--duration s] [--connections 16,64] [--stores sqlite,none]\n' +
        '  [--workers 0,1,2] [--processes 1,4,8] [--no-judge] [--before <root of another build>]\n',
    );
    process.exit(0);
  }
  const { fmt } = await import('./measure.mjs');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const arg = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const before = arg('--before');
  process.stdout.write(
    `${await serverLoadSection({
      root,
      quick: process.argv.includes('--quick'),
      fmt,
      ...(before !== undefined && { before: resolve(before) }),
      ...(arg('--duration') !== undefined && { duration: Number(arg('--duration')) }),
      ...(arg('--connections') !== undefined && { connections: arg('--connections').split(',').map(Number) }),
      ...(arg('--stores') !== undefined && { stores: arg('--stores').split(',') }),
      ...(arg('--workers') !== undefined && { workers: arg('--workers').split(',').map(Number) }),
      ...(arg('--processes') !== undefined && { processes: arg('--processes').split(',').map(Number) }),
      judge: !process.argv.includes('--no-judge'),
    })}\n`,
  );
}
