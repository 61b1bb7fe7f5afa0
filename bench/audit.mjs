// `rewardkit audit` throughput: samples audited per second for a verifier spec (math) next to one
// plain scoring pass of the same samples, and for a judge spec (GenRM) behind a fixed-latency
// scripted server next to the ideal set by its calls. `bench/run.mjs` adds this section to
// BENCHMARKS.md; `node bench/audit.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 100;
const PROBES = ['length-padding', 'format-inflation', 'flattering-opener'];

/** Math answers, half right, of varied length: what an audit of a verifier spec reads. */
const mathSamples = (n) =>
  Array.from({ length: n }, (_, i) => ({
    id: `m${i}`,
    prompt: `What is ${i} times 7?`,
    response: `${'Let me think. '.repeat(i % 7)}${i} times 7 is \\boxed{${i % 2 === 0 ? 7 * i : 7 * i + 1}}.`,
    reference: String(7 * i),
    metadata: {},
  }));

/** The "Audit" section of BENCHMARKS.md. */
export async function auditSection({ quick = false, fmt }) {
  const { createEvaluator, parseSpec } = await import('../dist/spec/index.js');
  const { exploitProbe, runAudit, sampleAttributes } = await import('../dist/audit/index.js');
  const { exploits } = await import('../dist/redteam/index.js');
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const probes = PROBES.map((name) => exploitProbe(exploits[name]));
  const options = (evaluator, concurrency) => ({
    idOf: (s) => s.id,
    attributesOf: (s) => sampleAttributes(s.response),
    score: async (s) => {
      const r = await evaluator.evaluate(s);
      if (r.status !== 'ok') throw new Error(`bench scoring failed: ${r.errors.join('; ')}`);
      return { reward: r.reward };
    },
    probes,
    resamples: 1000,
    concurrency,
  });
  const timed = async (fn) => {
    const start = performance.now();
    const value = await fn();
    return { value, seconds: (performance.now() - start) / 1000 };
  };

  // ── verifier spec ──
  const math = createEvaluator(parseSpec('sources:\n  - kind: math\n', 'math.yaml'));
  const verifierRows = [];
  for (const n of quick ? [200] : [200, 1000]) {
    const samples = mathSamples(n);
    await runAudit(samples.slice(0, 50), options(math, 1)); // warm up the JIT
    const pass = await timed(async () => {
      for (const s of samples) await math.evaluate(s);
    });
    const audit = await timed(() => runAudit(samples, options(math, 1)));
    const noProbes = await timed(() => runAudit(samples, { ...options(math, 1), probes: [] }));
    verifierRows.push({ n, pass: pass.seconds, audit: audit.seconds, noProbes: noProbes.seconds });
  }

  // ── judge spec behind the scripted server ──
  const llm = await startScriptedLlmServer(
    { genrm_scores: { principles: ['correct'], critique: 'fine', score_1: 7, score_2: 5 } },
    LATENCY_MS,
  );
  const judgeRows = [];
  try {
    const model = createOpenAICompatibleModel({
      name: 'judge',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    const genrm = createEvaluator(
      parseSpec('sources:\n  - kind: genrm\n    params: {model: judge, reasks: 0}\n', 'genrm.yaml'),
      { models: new Map([['judge', model]]), traces: false },
    );
    await runAudit(mathSamples(8), options(genrm, 8)); // warm up connections
    for (const concurrency of [1, 16]) {
      const n = concurrency === 1 ? (quick ? 10 : 20) : quick ? 64 : 160;
      const samples = mathSamples(n).map((s) => ({ ...s, id: `c${concurrency}-${s.id}` }));
      const before = await llm.stats();
      const audit = await timed(() => runAudit(samples, options(genrm, concurrency)));
      const calls = ((await llm.stats()).calls - before.calls) / n;
      // Every call waits LATENCY_MS; `concurrency` scorings in flight; a scoring's calls one after another.
      const ideal = (n * calls * LATENCY_MS) / 1000 / concurrency;
      judgeRows.push({ concurrency, n, calls, seconds: audit.seconds, ideal });
    }
  } finally {
    llm.stop();
  }

  return `## Audit (\`rewardkit audit\`, ${PROBES.length} probes, 1000 bootstrap resamples)

Verifier spec (\`math\`), in one process, concurrency 1: each sample is scored once and once per probe (${1 + PROBES.length} scorings), then 8 attributes × (Pearson, Spearman, MI) are bootstrapped. Baseline: one plain scoring pass over the same samples, measured in the same run.

| samples | audit (samples/s) | audit without probes (samples/s) | one scoring pass (samples/s) | audit time / scoring-pass time |
|---:|---:|---:|---:|---:|
${verifierRows.map((r) => `| ${r.n} | ${fmt(r.n / r.audit, 0)} | ${fmt(r.n / r.noProbes, 0)} | ${fmt(r.n / r.pass, 0)} | ${fmt(r.audit / r.pass, 1)}× |`).join('\n')}

Judge spec (GenRM against the reference, both orders) behind the scripted server at ${LATENCY_MS} ms per call. Ideal = samples × calls per sample × ${LATENCY_MS} ms / concurrency, the calls of one scoring taken one after another.

| concurrency | samples | LLM calls / sample | samples/s | ideal samples/s | share of ideal |
|---:|---:|---:|---:|---:|---:|
${judgeRows.map((r) => `| ${r.concurrency} | ${r.n} | ${fmt(r.calls, 1)} | ${fmt(r.n / r.seconds, 2)} | ${fmt(r.n / r.ideal, 2)} | ${fmt((100 * r.ideal) / r.seconds, 0)}% |`).join('\n')}

1-minute load average at the end of the run: ${fmt(loadavg()[0], 1)} on ${cpus().length} cores.`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { fmt } = await import('./measure.mjs');
  process.stdout.write(`${await auditSection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
