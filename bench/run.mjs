// rewardkit benchmarks: `npm run bench` (builds first). Writes the figures to BENCHMARKS.md.
// Every figure is reported next to a baseline measured in the same run on the same machine.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, throughput, withNotes } from './measure.mjs';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
// Each section by its name here and the start of its heading, in BENCHMARKS.md's order.
const SECTIONS = {
  math: 'Math verification',
  ifeval: 'IFEval',
  code: 'Code checks',
  quickjs: 'QuickJS limits',
  startup: 'Start-up',
  install: 'Install',
  score: 'Scoring a large file',
  judges: 'Judges against a scripted server',
  rubric: 'Rubric judge against a scripted server',
  server: 'Reward server under load',
  shards: 'The SQLite store under `serve --processes`',
  claims: 'Claim checks against a scripted server',
  audit: 'Audit',
  redteam: 'Redteam',
  bm25: 'BM25 retrieval',
  datain: 'Reading datasets',
  runcode: 'SandboxFusion `/run_code`',
  runcodeoverhead: '`/run_code` overhead',
  trace2skill: 'Trace2Skill against a scripted server',
  evolve: 'Meta-rubric evolution against a scripted server',
  skillrm: 'Skill-RM against a scripted server',
  // With its bracket: "Inspector export" is another section.
  view: 'Inspector (',
  viewscale: 'Scale of the inspector',
  traces: 'Judge traces',
  lab: 'Lab',
  props: 'Property-based tests',
  calibration: 'Calibration',
  rubricquality: 'Rubric quality by proxy',
};
// `--only startup,code` measures those sections and replaces only them in BENCHMARKS.md.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : (process.argv[onlyAt + 1] ?? '').split(',');
const unknown = only?.filter((name) => !(name in SECTIONS)) ?? [];
if (unknown.length > 0) {
  throw new Error(
    `--only expects a comma-separated list of ${Object.keys(SECTIONS).join(', ')}; got "${only}".`,
  );
}
const measures = (name) => only === undefined || only.includes(name);
const { checkInstructions } = await import('../dist/verify/ifeval/index.js');
const { createCodeSandbox } = await import('../dist/verify/code/index.js');

const sections = [];

// ── math (bench/math.mjs, also runnable alone; `--before <dist>` compares with another build) ──────
if (measures('math')) {
  const at = process.argv.indexOf('--before');
  const { mathSection } = await import('./math.mjs');
  sections.push(await mathSection({ quick, before: at > 0 ? process.argv[at + 1] : undefined }));
}

// ── IFEval ──────────────────────────────────────────────────────────────────────────────────────
if (measures('ifeval')) {
  const response =
    'The ocean covers most of the planet. It holds countless creatures and shapes our weather.\n\n' +
    '* tides follow the moon\n* currents move heat\n* reefs shelter life\n\n' +
    'P.S. Thank you for reading.';
  const rows = [
    {
      prompt: 'p',
      response,
      instruction_id_list: ['punctuation:no_comma', 'detectable_format:number_bullet_lists'],
      kwargs: [{}, { num_bullets: 3 }],
    },
    {
      prompt: 'p',
      response,
      instruction_id_list: ['length_constraints:number_words'],
      kwargs: [{ relation: 'at least', num_words: 20 }],
    },
    {
      prompt: 'p',
      response,
      instruction_id_list: ['detectable_content:postscript', 'change_case:english_lowercase'],
      kwargs: [{ postscript_marker: 'P.S.' }, {}],
    },
    {
      prompt: 'p',
      response,
      instruction_id_list: ['length_constraints:number_sentences', 'keywords:existence'],
      kwargs: [{ relation: 'less than', num_sentences: 10 }, { keywords: ['moon', 'reef'] }],
    },
    {
      prompt: 'p',
      response,
      instruction_id_list: ['language:response_language'],
      kwargs: [{ language: 'en' }],
    },
  ];
  const ms = quick ? 300 : 1500;
  const baseline = throughput(rows, (r) => JSON.parse(JSON.stringify(r)), ms);
  const rate = throughput(rows, (r) => checkInstructions(r), ms);
  sections.push(`## IFEval (one core)

| case | rows/s | vs baseline |
|---|---:|---:|
| JSON round trip of the row (baseline) | ${fmt(baseline)} | 1.00× |
| \`checkInstructions\`, strict + loose, 1–2 instructions per row | ${fmt(rate)} | ${fmt(rate / baseline, 3)}× |`);
}

// ── code ────────────────────────────────────────────────────────────────────────────────────────
if (measures('code')) {
  const python = { language: 'python', code: 'a, b = map(int, input().split())\nprint(a + b)\n' };
  const tests = Array.from({ length: 5 }, (_, i) => ({
    kind: 'stdio',
    stdin: `${i} ${i + 1}\n`,
    expected_stdout: `${2 * i + 1}\n`,
  }));
  const js = {
    language: 'javascript',
    code: 'const [a, b] = input.trim().split(" ").map(Number);\nconsole.log(a + b);\n',
  };
  const sandbox = createCodeSandbox();
  const rows = [];
  const time = async (fn) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const runs = quick ? 5 : 30;
  const SANDBOX_PYTHON = '/usr/bin/python3';
  // Baseline: a bare process of the interpreter the sandbox runs, with its flags, and no sandbox —
  // the cost of any process-based runner. The sandbox names the binary by absolute path
  // (src/verify/code/python-runner.ts); `python3` from PATH may be a version manager's shim that
  // costs several times more and would flatter the sandbox.
  const bare = await time(async () => {
    for (let i = 0; i < runs; i++) execFileSync(SANDBOX_PYTHON, ['-I', '-S', '-c', 'pass']);
  });
  if (sandbox.isolation() === 'bubblewrap') {
    const cold = await time(() => sandbox.runTests(python, tests));
    const warm = await time(async () => {
      for (let i = 0; i < runs; i++) await sandbox.runTests(python, tests);
    });
    rows.push(
      `| bare \`${SANDBOX_PYTHON} -I -S -c pass\` process, no sandbox (baseline) | ${fmt(bare / runs, 1)} ms | ${fmt((runs / bare) * 1000, 1)} | 1.00× |`,
      `| Python program, 5 stdio tests, bubblewrap: first call (cold) | ${fmt(cold, 1)} ms | — | — |`,
      `| Python program, 5 stdio tests, bubblewrap: warm | ${fmt(warm / runs, 1)} ms | ${fmt((runs / warm) * 1000, 1)} programs/s = ${fmt((5 * runs * 1000) / warm, 1)} tests/s | ${fmt(bare / warm, 2)}× |`,
    );
  } else {
    rows.push('| Python under bubblewrap | not measured: bubblewrap is not available on this machine | | |');
  }
  const jsCold = await time(() => sandbox.runTests(js, tests));
  const jsWarm = await time(async () => {
    for (let i = 0; i < runs; i++) await sandbox.runTests(js, tests);
  });
  rows.push(
    `| JavaScript program, 5 stdio tests, QuickJS: first call (cold) | ${fmt(jsCold, 1)} ms | — | — |`,
    `| JavaScript program, 5 stdio tests, QuickJS: warm | ${fmt(jsWarm / runs, 2)} ms | ${fmt((runs / jsWarm) * 1000, 1)} programs/s = ${fmt((5 * runs * 1000) / jsWarm, 1)} tests/s | ${fmt(bare / jsWarm, 2)}× |`,
  );
  await sandbox.close();
  sections.push(`## Code checks

| case | time per program | throughput | vs bare process |
|---|---:|---:|---:|
${rows.join('\n')}

"vs bare process" is the bare process's time over the program's: below 1× a program costs more than starting the interpreter alone.`);
}

// ── QuickJS limits (bench/quickjs-limits.mjs, also runnable alone; `--before <dist>` compares) ──
if (measures('quickjs')) {
  const at = process.argv.indexOf('--before');
  const { quickjsLimitsSection } = await import('./quickjs-limits.mjs');
  sections.push(
    await quickjsLimitsSection({
      quick,
      before: at > 0 ? process.argv[at + 1] : undefined,
      dist: join(root, 'dist'),
    }),
  );
}

// ── start-up (bench/startup.mjs, also runnable alone) ───────────────────────────────────────────
if (measures('startup'))
  sections.push(
    await (await import('./startup.mjs')).startupSection({
      root,
      quick,
      fmt,
      before: process.argv.includes('--before')
        ? process.argv[process.argv.indexOf('--before') + 1]
        : undefined,
    }),
  );

// ── install size and time (bench/install.mjs, also runnable alone) ───────────────────────────────
if (measures('install')) sections.push(await (await import('./install.mjs')).installSection({ root, fmt }));

// ── memory while scoring 100,000 rows ───────────────────────────────────────────────────────────
if (measures('score')) {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-bench-'));
  const sizes = quick ? [2_000, 20_000] : [10_000, 100_000];
  const results = [];
  for (const rows of sizes) {
    const input = join(dir, `in-${rows}.jsonl`);
    const lines = [];
    for (let i = 0; i < rows; i++) {
      lines.push(
        JSON.stringify({
          id: `r${i}`,
          data_source: 'gsm8k',
          prompt: 'q'.repeat(200),
          response: `Work: ${'x'.repeat(300)}\n#### ${i % 977}`,
          reference: String(i % 977),
        }),
      );
    }
    writeFileSync(input, `${lines.join('\n')}\n`);
    // The streaming path's memory is the main thread's (`--workers 0`); the default below.
    results.push({
      rows,
      ...(await scoreAndWatch(input, join(dir, `out-${rows}.jsonl`), [], ['--workers', '0'])),
    });
  }
  const [small, large] = results;
  // The same large run with V8's heap capped: finishing at all shows the live set is bounded and
  // the uncapped RSS is garbage V8 has not yet collected, not retained rows.
  const capped = await scoreAndWatch(
    join(dir, `in-${large.rows}.jsonl`),
    join(dir, 'out-capped.jsonl'),
    ['--max-old-space-size=96'],
    ['--workers', '0'],
  );
  // The default (`--workers auto`): threads for a file this large, each with its own heap.
  const byDefault = await scoreAndWatch(join(dir, `in-${large.rows}.jsonl`), join(dir, 'out-default.jsonl'));
  const { scoreWorkers } = await import('../dist/cli/scoring-evaluator.js');
  const defaultThreads = scoreWorkers('auto', large.rows, { light: true });
  // Baseline: the same rows through the same spec in this process, on one core: no parsing of
  // the file, no output, no store. Then the CLI with and without the store, at 0, 1 and 2 workers.
  const { createEvaluator, loadSpec } = await import('../dist/spec/index.js');
  const evaluator = createEvaluator(loadSpec('math'));
  const samples = readFileSync(join(dir, `in-${large.rows}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), metadata: {} }));
  const inProcessStart = performance.now();
  for (let i = 0; i < samples.length; i += 8)
    await Promise.all(samples.slice(i, i + 8).map((x) => evaluator.evaluate(x)));
  const inProcess = samples.length / ((performance.now() - inProcessStart) / 1000);
  await evaluator.close();
  // Worker counts up to the cores less one for the main thread (which writes and stores).
  const cores = availableParallelism();
  const workerCounts = [0, 1, 2, ...[4, 8, 12].filter((n) => n <= cores - 1)];
  const variants = [];
  // `sqlite`: with workers, a writer thread saves the rows; `sqlite, inline`: the main thread does
  // (REWARDKIT_STORE_WRITER=inline).
  for (const store of ['sqlite', 'sqlite, inline', 'none']) {
    for (const workers of workerCounts) {
      if (store === 'sqlite, inline' && workers === 0) continue;
      const run = await scoreAndWatch(
        join(dir, `in-${large.rows}.jsonl`),
        join(dir, `out-${store}-${workers}.jsonl`),
        [],
        ['--workers', String(workers), ...(store === 'none' ? ['--store', 'none'] : [])],
        store === 'sqlite, inline' ? { REWARDKIT_STORE_WRITER: 'inline' } : {},
      );
      variants.push({ store, workers, rowsPerSecond: large.rows / run.seconds });
    }
  }
  sections.push(`## Scoring a large file (\`rewardkit score --spec math\`, SQLite store, concurrency 8)

On the main thread (\`--workers 0\`):

| rows | wall time | rows/s | peak RSS |
|---:|---:|---:|---:|
${results.map((r) => `| ${fmt(r.rows)} | ${fmt(r.seconds, 1)} s | ${fmt(r.rows / r.seconds)} | ${fmt(r.peakMb, 1)} MB |`).join('\n')}

Peak memory at ${fmt(large.rows)} rows is ${fmt(large.peakMb / small.peakMb, 2)}× the peak at ${fmt(small.rows)} rows (flat means ≈ 1×); target under 300 MB: **${large.peakMb < 300 ? 'met' : 'NOT met'}**.
With V8's old space capped at 96 MB (\`node --max-old-space-size=96\`) the ${fmt(large.rows)}-row run completes in ${fmt(capped.seconds, 1)} s at ${fmt(capped.peakMb, 1)} MB peak RSS: the live heap is bounded, and the uncapped figure is garbage V8 collects lazily when memory is plentiful. Users with a memory budget set that flag.
The default (\`--workers auto\`: ${defaultThreads} worker thread${defaultThreads === 1 ? '' : 's'} here for ${fmt(large.rows)} rows) took ${fmt(byDefault.seconds, 1)} s at ${fmt(byDefault.peakMb, 1)} MB peak RSS: each thread holds its own heap and copy of the verifiers, so \`--workers 0\` is the setting where memory is tight.

The ${fmt(large.rows)}-row file against the same spec evaluated in this process on one core (no file, no output, no store): ${fmt(inProcess)} rows/s. Wall time includes the process start (about 0.3 s). \`--workers n\`: n worker threads each read, check, verify and serialize chunks of 256 rows; the main thread writes and stores what they return. ${cores} cores.

| store | workers | rows/s | vs in-process |
|---|---:|---:|---:|
${variants.map((v) => `| ${v.store} | ${v.workers} | ${fmt(v.rowsPerSecond)} | ${fmt(v.rowsPerSecond / inProcess, 2)}× |`).join('\n')}`);
}

/** Runs the CLI on a file and samples the child's resident memory from /proc until it exits. */
function scoreAndWatch(input, output, nodeFlags = [], cliFlags = [], env = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(
      process.execPath,
      [
        ...nodeFlags,
        join(root, 'dist/cli/main.js'),
        'score',
        '--spec',
        'math',
        '--input',
        input,
        '--output',
        output,
        '--no-progress',
        '--store',
        join(output, '..', `${Date.now()}.sqlite`),
        ...cliFlags,
      ],
      { stdio: 'ignore', env: { ...process.env, ...env } },
    );
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const rss = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peakKb = Math.max(peakKb, rss);
      } catch {}
    }, 25);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`score exited ${code}`));
      else resolve({ seconds: (performance.now() - start) / 1000, peakMb: peakKb / 1024 });
    });
  });
}

// ── judges ──────────────────────────────────────────────────────────────────────────────────────
if (measures('judges')) {
  const { createOpenAICompatibleModel, withResponseCache } = await import('../dist/llm/index.js');
  const { createGenrmJudge, createOpenrsJudge, judgeMedicalRubric, MedicalRubricSchema } = await import(
    '../dist/judges/index.js'
  );
  // `--before <dist>`: the same judge and client from another build, measured in this run.
  const beforeAt = process.argv.indexOf('--before');
  const beforeDist = beforeAt > 0 ? resolve(process.argv[beforeAt + 1]) : undefined;
  const previous =
    beforeDist === undefined
      ? undefined
      : {
          llm: await import(pathToFileURL(join(beforeDist, 'llm/index.js')).href),
          judges: await import(pathToFileURL(join(beforeDist, 'judges/index.js')).href),
        };
  const { openSqliteStore } = await import('../dist/store/index.js');
  const LATENCY_MS = 200;
  // A fixed-latency OpenAI-compatible server in its own process, so its work does not share the
  // judge's event loop. It answers each judge by the schema it asks for; tokens are estimated as
  // characters / 4; GET /stats returns its counters.
  const criterion = (name) => ({
    type: 'core',
    name,
    winner: 'A',
    strength: 1,
    evidence_a: 'cites the data',
    evidence_b: 'does not',
    reason: 'A is grounded',
  });
  const replies = {
    genrm_scores: {
      principles: ['clear', 'correct'],
      critique: 'The first is clearer.',
      score_1: 7,
      score_2: 5,
    },
    openrs_intent: {
      query_type: 'explanation',
      primary_need: 'a correct short answer',
      secondary_needs: [],
      user_context: 'none given',
      domains: ['general'],
    },
    openrs_comparison: {
      differences: ['A cites data'],
      criteria: ['Accuracy', 'Completeness', 'Clarity', 'Relevance', 'Evidence'].map(criterion),
    },
    medical_rubric_grades: {
      grades: ['E1', 'E2', 'I1', 'H1', 'P1'].map((id) => ({
        id,
        evidence: 'quoted',
        reason: 'as described',
        grade: id.startsWith('P') ? 'no_pitfall' : 'fully_met',
      })),
    },
  };
  const llm = await startScriptedLlmServer(replies, LATENCY_MS);
  const { baseURL, stats } = llm;
  const modelWith = (options = {}) =>
    createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL }],
      maxConcurrency: 256,
      ...options,
    });
  const model = modelWith();
  const rubric = MedicalRubricSchema.parse({
    id: 'r',
    query: 'q',
    essential: ['Names the diagnosis', 'Gives the first-line treatment'].map((title) => ({
      title,
      levels: { not_met: 'absent', partially_met: 'vague', fully_met: 'explicit' },
    })),
    important: [
      { title: 'Dosage', levels: { not_met: 'absent', partially_met: 'vague', fully_met: 'explicit' } },
    ],
    highlight: [
      { title: 'Follow-up', levels: { not_met: 'absent', partially_met: 'vague', fully_met: 'explicit' } },
    ],
    pitfall: [
      {
        title: 'Unsafe advice',
        levels: { no_pitfall: 'none', minor_error: 'minor', major_error: 'dangerous' },
      },
    ],
  });
  /** One GenRM judgment per call, from a build's `createGenrmJudge` and model. */
  const genrmWith = (createJudge, m) => {
    const j = createJudge({ model: m });
    return (i, prefix) =>
      j.judge({ prompt: `${prefix} question ${i}`, first: `answer ${i}`, second: `other ${i}` });
  };
  // Each family: how one judgment is made, and how many calls it makes one after another.
  const families = {
    genrm: { sequential: 2, judge: (m) => genrmWith(createGenrmJudge, m) },
    openrs: {
      sequential: 3,
      judge: (m) => {
        const j = createOpenrsJudge({ model: m });
        return (i, prefix) =>
          j.judge({ prompt: `${prefix} question ${i}`, first: `answer ${i}`, second: `other ${i}` });
      },
    },
    medical_rubric: {
      sequential: 1,
      judge: (m) => async (i, prefix) => {
        const got = await judgeMedicalRubric(
          { query: `${prefix} question ${i}`, response: `answer ${i}`, rubric },
          { model: m },
        );
        return { verdict: got.status === 'ok' ? 'ok' : 'invalid' };
      },
    },
  };
  let pairId = 0;
  const judgeMany = async (judgeOne, concurrency, judgments, prefix = `p${pairId++}`) => {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < judgments) {
          const i = next++;
          const got = await judgeOne(i, prefix);
          if (got.verdict === 'invalid') throw new Error(`bench judgment invalid: ${got.reason}`);
        }
      }),
    );
    return judgments / ((performance.now() - start) / 1000);
  };
  const genrm = families.genrm.judge(model);
  await judgeMany(genrm, 8, 16); // warm up connections and the JIT
  const rows = [];
  for (const concurrency of [1, 16, 64]) {
    const judgments = concurrency * (quick ? 2 : 10);
    const rate = await judgeMany(genrm, concurrency, judgments);
    // Each GenRM judgment is two calls in sequence (both orders), so one worker does 1 / (2 × latency).
    const ideal = concurrency / ((2 * LATENCY_MS) / 1000);
    rows.push({ concurrency, rate, ideal });
  }
  // Baseline: the same judge on Node's built-in fetch (undici) instead of rewardkit's keep-alive
  // node:http client, CPU per call measured in this process.
  const cpuPerCall = async (judgeOne) => {
    await judgeMany(judgeOne, 8, 16);
    const judgments = 64 * (quick ? 2 : 10);
    const cpu0 = process.cpuUsage();
    const rate = await judgeMany(judgeOne, 64, judgments);
    const cpu = process.cpuUsage(cpu0);
    return { rate, cpuMs: (cpu.user + cpu.system) / 1000 / (2 * judgments) };
  };
  const builtin = await cpuPerCall(families.genrm.judge(modelWith({ fetch: globalThis.fetch })));
  const ours = await cpuPerCall(families.genrm.judge(model));
  const previousCpu =
    previous === undefined
      ? undefined
      : await cpuPerCall(
          genrmWith(
            previous.judges.createGenrmJudge,
            previous.llm.createOpenAICompatibleModel({
              name: 'bench',
              model: 'm',
              endpoints: [{ baseURL }],
              maxConcurrency: 256,
            }),
          ),
        );
  const familyRows = [];
  for (const [name, family] of Object.entries(families)) {
    const judgeOne = family.judge(model);
    await judgeMany(judgeOne, 4, 8);
    const judgments = 64 * (quick ? 2 : 5);
    const before = await stats();
    const rate = await judgeMany(judgeOne, 64, judgments);
    const after = await stats();
    familyRows.push({
      name,
      rate,
      ideal: 64 / ((family.sequential * LATENCY_MS) / 1000),
      sequential: family.sequential,
      calls: (after.calls - before.calls) / judgments,
      prompt: (after.promptTokens - before.promptTokens) / judgments,
      completion: (after.completionTokens - before.completionTokens) / judgments,
    });
  }
  const perJudgment = 64 * (quick ? 2 : 5);
  const store = openSqliteStore(':memory:');
  const cached = families.genrm.judge(withResponseCache(model, store));
  const cold = await judgeMany(cached, 64, perJudgment, 'cache');
  const warm = await judgeMany(cached, 64, perJudgment, 'cache');
  await store.close();
  llm.stop();
  const at64 = rows.at(-1);
  sections.push(`## Judges against a scripted server (${LATENCY_MS} ms per call)

Writing-Zero GenRM, both orders (2 sequential calls per judgment); ideal = concurrency / (2 × ${LATENCY_MS} ms).

| concurrency | judgments/s | ideal | share of ideal |
|---:|---:|---:|---:|
${rows.map((r) => `| ${r.concurrency} | ${fmt(r.rate, 2)} | ${fmt(r.ideal, 2)} | ${fmt((100 * r.rate) / r.ideal, 1)}% |`).join('\n')}

Target ≥ 90% of ideal at concurrency 64: **${at64.rate / at64.ideal >= 0.9 ? 'met' : 'NOT met'}**.

| HTTP client (GenRM, concurrency 64) | judgments/s | CPU per call | vs built-in fetch |
|---|---:|---:|---:|
| Node's built-in fetch (undici), baseline | ${fmt(builtin.rate, 1)} | ${fmt(builtin.cpuMs, 2)} ms | 1.00× |
| rewardkit's keep-alive node:http client | ${fmt(ours.rate, 1)} | ${fmt(ours.cpuMs, 2)} ms | ${fmt(builtin.cpuMs / ours.cpuMs, 2)}× less CPU |
${previousCpu === undefined ? '' : `| the same, previous build (\`--before ${process.argv[beforeAt + 1]}\`) | ${fmt(previousCpu.rate, 1)} | ${fmt(previousCpu.cpuMs, 2)} ms | ${fmt(builtin.cpuMs / previousCpu.cpuMs, 2)}× less CPU |\n`}
Each judge family at concurrency 64 (${64 * (quick ? 2 : 5)} judgments; ideal = 64 / (sequential calls × ${LATENCY_MS} ms); tokens estimated as characters / 4, so prompts carry each family's instructions: OpenRS sends its meta-rubric and domain pool):

| family | judgments/s | ideal | share | calls / judgment | prompt tokens / judgment | completion tokens / judgment |
|---|---:|---:|---:|---:|---:|---:|
${familyRows.map((f) => `| ${f.name} | ${fmt(f.rate, 1)} | ${fmt(f.ideal, 1)} | ${fmt((100 * f.rate) / f.ideal, 1)}% | ${fmt(f.calls, 2)} | ${fmt(f.prompt, 0)} | ${fmt(f.completion, 0)} |`).join('\n')}

| response cache (GenRM, concurrency 64, ${fmt(perJudgment)} judgments) | judgments/s | vs cold |
|---|---:|---:|
| cold (every call goes to the server) | ${fmt(cold, 1)} | 1.00× |
| warm rerun (every call answered by the store) | ${fmt(warm, 1)} | ${fmt(warm / cold, 1)}× |`);
}

// ── the pointwise rubric judge (bench/rubric-judge.mjs, also runnable alone) ──────────────────────
if (measures('rubric'))
  sections.push(await (await import('./rubric-judge.mjs')).rubricJudgeSection({ quick, fmt }));

// ── reward server ───────────────────────────────────────────────────────────────────────────────
if (measures('server')) {
  const { serverLoadSection } = await import('./server-load.mjs');
  sections.push(await serverLoadSection({ root, quick, fmt }));
}

// ── the SQLite store's shards under serve --processes (bench/shard-merge.mjs, also alone) ───────
if (measures('shards')) {
  const { shardMergeSection } = await import('./shard-merge.mjs');
  sections.push(await shardMergeSection({ root, quick }));
}

// ── claim checks ────────────────────────────────────────────────────────────────────────────────
if (measures('claims')) {
  const { claimsSection } = await import('./claims.mjs');
  sections.push(await claimsSection({ quick, fmt }));
}
// ── BM25 retrieval (bench/bm25.mjs, also runnable alone) ────────────────────────────────────────
if (measures('audit')) sections.push(await (await import('./audit.mjs')).auditSection({ quick, fmt }));

// ── redteam: its cost as a multiple of one scoring pass (bench/redteam.mjs, in processes of its own) ──
if (measures('redteam')) {
  const args = [join(root, 'bench/redteam.mjs'), '--print-only', ...(quick ? ['--samples', '60'] : [])];
  sections.push(execFileSync(process.execPath, args, { encoding: 'utf8' }).trimEnd());
}

if (measures('bm25')) sections.push(await (await import('./bm25.mjs')).bm25Section({ quick }));
// ── reading datasets (bench/data-in.mjs) ────────────────────────────────────────────────────────
if (measures('datain')) sections.push(await (await import('./data-in.mjs')).dataInSection({ quick, fmt }));

// ── SandboxFusion /run_code per language (bench/run-code.mjs, also runnable alone) ──────────────
if (measures('runcode')) sections.push(await (await import('./run-code.mjs')).runCodeSection({ quick, fmt }));
// ── /run_code over the bare program, with and without the sandbox pool (bench/run-code-overhead.mjs) ──
if (measures('runcodeoverhead'))
  sections.push(await (await import('./run-code-overhead.mjs')).runCodeOverheadSection({ quick, fmt }));
// ── Trace2Skill (bench/trace2skill.mjs, also runnable alone) ────────────────────────────────────
if (measures('trace2skill'))
  sections.push(await (await import('./trace2skill.mjs')).trace2skillSection({ quick, fmt }));

// ── Meta-rubric evolution (bench/meta-rubric-evolution.mjs, also runnable alone) ───────────────
if (measures('evolve'))
  sections.push(
    await (await import('./meta-rubric-evolution.mjs')).metaRubricEvolutionSection({ quick, fmt }),
  );
// ── Skill-RM against a scripted server (bench/skill-rm.mjs, also runnable alone) ────────────────
if (measures('skillrm')) sections.push(await (await import('./skill-rm.mjs')).skillRmSection({ quick, fmt }));
if (measures('view')) sections.push(await (await import('./view.mjs')).viewSection({ quick }));
// ── the inspector at 100k and 1M results (bench/view-scale.mjs; stores cached in bench/.cache/) ──
if (measures('viewscale'))
  sections.push(await (await import('./view-scale.mjs')).viewScaleSection({ quick }));
// ── judge traces: what keeping every call costs (bench/traces.mjs, also runnable alone) ────────
if (measures('traces')) {
  const at = process.argv.indexOf('--before');
  const { tracesSection } = await import('./traces.mjs');
  sections.push(await tracesSection({ quick, fmt, before: at > 0 ? process.argv[at + 1] : undefined }));
}
// ── lab: training throughput and the experiments' defaults (bench/lab.mjs) ─────────────────────
if (measures('lab')) sections.push(await (await import('./lab.mjs')).labSection({ quick, fmt, root }));
// ── property-based tests: inputs tried per target and their cost (bench/properties.mjs) ─────────
if (measures('props')) sections.push(await (await import('./properties.mjs')).propertiesSection({ fmt }));
// ── calibration: isotonic and Platt fit time on 100k scores (bench/calibration.mjs) ────────────
if (measures('calibration'))
  sections.push(await (await import('./calibration.mjs')).calibrationSection({ quick, fmt }));
// ── rubric quality by proxy: cost per pair per producer (bench/rubric-quality.mjs) ──────────────
if (measures('rubricquality'))
  sections.push(await (await import('./rubric-quality.mjs')).rubricQualitySection({ quick, fmt }));

const header = `# Benchmarks

Measured by \`npm run bench\` (\`bench/run.mjs\`) on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}${quick ? ' (quick mode: short runs, smaller files)' : ''}.
Each figure sits next to a baseline measured in the same run; ratios compare like with like on this machine. Tests never assert timings. Notes written by hand (figures measured elsewhere, what changed and why) sit at the end of their section below an HTML comment that says so; measuring the section again keeps them.`;
const file = join(root, 'BENCHMARKS.md');
const text = `${[header, ...sections].join('\n\n')}\n`;
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const [oldHeader = '', ...oldSections] = previous.trimEnd().split(/\n\n(?=## )/);
const find = (texts, name) => texts.find((t) => t.startsWith(`## ${SECTIONS[name]}`));
// A section measured here keeps the hand-written notes its previous text had (NOTES_MARK).
const withOldNotes = (section) => {
  if (section === undefined) return undefined;
  const name = Object.keys(SECTIONS).find((n) => section.startsWith(`## ${SECTIONS[n]}`));
  return withNotes(section, name && find(oldSections, name));
};
if (!quick) {
  writeFileSync(
    file,
    only === undefined ? `${[header, ...sections.map(withOldNotes)].join('\n\n')}\n` : withSectionsReplaced(),
  );
}
process.stdout.write(text);

/** BENCHMARKS.md with the sections just measured in place of their old figures, the others kept. */
function withSectionsReplaced() {
  // Every old section stays where it was, hand-written ones (headings not in SECTIONS) included;
  // a measured section the file did not have yet goes at the end.
  const nameOf = (text) => Object.keys(SECTIONS).find((n) => text.startsWith(`## ${SECTIONS[n]}`));
  const merged = [
    ...oldSections.map((old) =>
      only.includes(nameOf(old)) ? withOldNotes(find(sections, nameOf(old))) : old,
    ),
    ...sections.filter((section) => find(oldSections, nameOf(section)) === undefined),
  ];
  const measured = `: ${only.map((name) => SECTIONS[name]).join(', ')}.`;
  const note = `Re-measured alone (\`--only ${only.join(',')}\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}${measured}`;
  // Only the note of an earlier run of the same sections gives way; the other sections' notes stay.
  const header = oldHeader
    .split('\n')
    .filter((line) => !(line.startsWith('Re-measured alone') && line.endsWith(measured)))
    .join('\n');
  return `${[`${header}\n${note}`, ...merged].join('\n\n')}\n`;
}
