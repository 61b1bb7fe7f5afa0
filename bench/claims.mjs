// MARCH claim checks against a fixed-latency scripted server: claims checked per second and LLM
// calls per answer, next to the ideal set by the pipeline's sequential depth. `bench/run.mjs`
// adds this section to BENCHMARKS.md; `node bench/claims.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 200;
const CLAIMS = 5;

// One claim per value; the Checker finds each value (numeric mode) or words it differently
// (claims mode, so every claim goes to the matcher once).
const values = Array.from({ length: CLAIMS }, (_, i) => String(100 * (i + 1)));
const replies = {
  claim_questions: {
    claims: values.map((v, i) => ({ question: `What is figure ${i + 1} of the report?`, expected: v })),
  },
  claim_answers_numeric: {
    items: values.map((v, i) => ({ id: `C${i + 1}`, evidence: `Figure ${i + 1} is ${v}.`, answer: v })),
  },
  claim_answers_claims: {
    items: values.map((v, i) => ({ id: `C${i + 1}`, evidence: `Figure ${i + 1}.`, answer: `${v} units` })),
  },
  answer_equivalence: { reason: 'the same figure with its unit', equivalent: true },
};

// The Checker's schema is the same in both modes; its instructions tell them apart.
const pickName = `(request, name) => name === 'claim_answers'
  ? name + (request.messages[0].content.includes('plain number only') ? '_numeric' : '_claims')
  : name`;

/** The "Claim checks" section of BENCHMARKS.md. */
export async function claimsSection({ quick = false, fmt }) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { marchClaimCheck } = await import('../dist/judges/index.js');
  const llm = await startScriptedLlmServer(replies, LATENCY_MS, pickName);
  try {
    const { stats } = llm;
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    let batch = 0;
    const checkMany = async (mode, concurrency, answers) => {
      const prefix = `b${batch++}`;
      let next = 0;
      let claims = 0;
      const before = await stats();
      const start = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < answers) {
            const i = next++;
            const got = await marchClaimCheck(
              {
                question: `${prefix} question ${i}`,
                answer: `${prefix} answer ${i} with figures ${values.join(', ')}`,
                documents: [
                  `${prefix} report ${i}: ${values.map((v, j) => `figure ${j + 1} is ${v}`).join('; ')}`,
                ],
              },
              { proposer: model, checker: model, mode },
            );
            if (got.status !== 'ok' || got.claims.length !== CLAIMS || got.verdict !== 'pass') {
              throw new Error(`bench claim check did not pass: ${JSON.stringify(got).slice(0, 300)}`);
            }
            claims += got.claims.length;
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const after = await stats();
      return {
        claimsPerSecond: claims / seconds,
        calls: (after.calls - before.calls) / answers,
        prompt: (after.promptTokens - before.promptTokens) / answers,
      };
    };
    // Baseline: the same call pattern with no claim logic (one call, then the k = 3 Checker calls at
    // once, then in claims mode one call per claim at once), with request bodies as large as the
    // check's, so the ratio is the cost of prompts, parsing and matching on this machine at this
    // moment, whatever else it is running.
    const bareMany = async (mode, concurrency, answers, charsPerCall) => {
      const prefix = `bare${batch++}`;
      const padding = 'x'.repeat(charsPerCall);
      let next = 0;
      const call = (text) =>
        model.complete({ messages: [{ role: 'user', content: `${prefix} ${text} ${padding}` }] });
      const start = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < answers) {
            const i = next++;
            await call(`propose ${i}`);
            await Promise.all([0, 1, 2].map((run) => call(`check ${i} ${run}`)));
            if (mode === 'claims') await Promise.all(values.map((_, c) => call(`match ${i} ${c}`)));
          }
        }),
      );
      return (answers * CLAIMS) / ((performance.now() - start) / 1000);
    };
    await checkMany('numeric', 8, 16); // warm up connections and the JIT
    await bareMany('numeric', 8, 16, 100);
    const rows = [];
    for (const [mode, depth, callsIdeal] of [
      ['numeric', 2, 1 + 3],
      ['claims', 3, 1 + 3 + CLAIMS],
    ]) {
      for (const concurrency of [1, 16, 64]) {
        const answers = concurrency * (quick ? 2 : 4);
        const got = await checkMany(mode, concurrency, answers);
        // Tokens are counted as characters / 4 by the server.
        const bare = await bareMany(mode, concurrency, answers, Math.round((4 * got.prompt) / got.calls));
        // Proposer, then the k = 3 Checker runs at once, then (claims mode) the matcher calls at once.
        const ideal = (concurrency * CLAIMS) / ((depth * LATENCY_MS) / 1000);
        rows.push({ mode, concurrency, depth, callsIdeal, ideal, bare, ...got });
      }
    }
    const at64 = rows.filter((r) => r.concurrency === 64);
    return `## Claim checks against a scripted server (${LATENCY_MS} ms per call)

MARCH claim check (\`marchClaimCheck\`, k = 3 Checker runs, ${CLAIMS} claims per answer, every claim supported). Ideal = concurrency × ${CLAIMS} claims / (sequential calls × ${LATENCY_MS} ms): the Proposer, then the three Checker runs in parallel, then (claims mode) the matcher calls in parallel. Baseline: the same call pattern through the same client with request bodies of the same size but no claim logic (no prompt building, parsing or matching), measured right after, so it shows what this machine could do at that moment. Calls per answer: 1 Proposer + 3 Checker (+ 1 matcher per distinct answer the rules cannot match).

| mode | concurrency | claims/s | bare call pattern (baseline) | vs baseline | ideal | share of ideal | LLM calls / answer (expected) | prompt tokens / answer |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.mode} | ${r.concurrency} | ${fmt(r.claimsPerSecond, 1)} | ${fmt(r.bare, 1)} | ${fmt((100 * r.claimsPerSecond) / r.bare, 1)}% | ${fmt(r.ideal, 1)} | ${fmt((100 * r.claimsPerSecond) / r.ideal, 1)}% | ${fmt(r.calls, 2)} (${r.callsIdeal}) | ${fmt(r.prompt, 0)} |`).join('\n')}

1-minute load average at the end of the run: ${fmt(loadavg()[0], 1)} on ${cpus().length} cores. Above the core count the run is CPU-bound and not latency-bound, the baseline and the check compete with other processes, and the ratios are noisy: compare them only between runs on a quiet machine.

Target ≥ 90% of the baseline at concurrency 64: **${at64.every((r) => r.claimsPerSecond / r.bare >= 0.9) ? 'met' : 'NOT met'}** (${at64.map((r) => `${r.mode} ${fmt((100 * r.claimsPerSecond) / r.bare, 1)}%`).join(', ')}).`;
  } finally {
    llm.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  process.stdout.write(`${await claimsSection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
