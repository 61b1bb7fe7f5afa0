// The pointwise rubric judge (`kind: rubric`) against a fixed-latency scripted server: judgments
// per second at concurrency 1/16/64 next to the ideal, and calls and tokens per judgment next to
// GenRM's on the same server. `bench/run.mjs` adds this section to BENCHMARKS.md;
// `node bench/rubric-judge.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { fmt as defaultFmt } from './measure.mjs';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 200;
const CRITERIA = ['correct', 'complete', 'grounded', 'clear'];

const replies = {
  rubric_grades: {
    grades: CRITERIA.map((_, i) => ({
      id: `c${i + 1}`,
      reason: 'the response states it with a figure',
      grade: 7,
    })),
  },
  rubric_criterion: { reason: 'the response states it with a figure', grade: 7 },
  genrm_scores: {
    principles: ['clear', 'correct'],
    critique: 'The first is clearer.',
    score_1: 7,
    score_2: 5,
  },
};

/** The "Rubric judge" section of BENCHMARKS.md. */
export async function rubricJudgeSection({ quick = false, fmt = defaultFmt } = {}) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { createGenrmJudge } = await import('../dist/judges/index.js');
  const { judgeRubric, RubricSchema } = await import('../dist/judges/rubric/index.js');
  const llm = await startScriptedLlmServer(replies, LATENCY_MS);
  try {
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 256,
    });
    const rubric = RubricSchema.parse({
      mode: 'criteria',
      criteria: CRITERIA.map((name) => ({
        name,
        description: `The answer is ${name}, as a reviewer would judge it`,
      })),
    });
    const rubricJudge = (options) => async (i, prefix) => {
      const got = await judgeRubric(
        { prompt: `${prefix} question ${i}`, response: `answer ${i} with a figure`, rubric },
        { model, ...options },
      );
      return got.status === 'ok' ? got : { verdict: 'invalid', reason: got.reason };
    };
    const genrm = createGenrmJudge({ model });
    let run = 0;
    const judgeMany = async (judgeOne, concurrency, judgments, prefix = `r${run++}`) => {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < judgments) {
            const got = await judgeOne(next++, prefix);
            if (got.verdict === 'invalid') throw new Error(`bench judgment invalid: ${got.reason}`);
          }
        }),
      );
      return judgments / ((performance.now() - start) / 1000);
    };
    const batch = rubricJudge({ calls: 'batch' });
    await judgeMany(batch, 8, 16); // warm up connections and the JIT
    const rows = [];
    for (const concurrency of [1, 16, 64]) {
      const rate = await judgeMany(batch, concurrency, concurrency * (quick ? 2 : 10));
      // One batched call per judgment: one worker does at most 1 / latency judgments a second.
      rows.push({ concurrency, rate, ideal: concurrency / (LATENCY_MS / 1000) });
    }
    // Each family at concurrency 64; `sequential` is the calls one judgment waits for in a row
    // (per-criterion calls and votes go out at once; GenRM's two orders are one after another).
    const families = [
      { name: 'rubric, batch (1 call)', judge: batch, sequential: 1 },
      {
        name: `rubric, per criterion (${CRITERIA.length} calls at once)`,
        judge: rubricJudge({ calls: 'per_criterion' }),
        sequential: 1,
      },
      { name: 'rubric, batch, 3 votes', judge: rubricJudge({ calls: 'batch', votes: 3 }), sequential: 1 },
      {
        name: 'GenRM, both orders',
        judge: (i, prefix) =>
          genrm.judge({ prompt: `${prefix} question ${i}`, first: `answer ${i}`, second: `other ${i}` }),
        sequential: 2,
      },
    ];
    const familyRows = [];
    for (const family of families) {
      await judgeMany(family.judge, 4, 8);
      const judgments = 64 * (quick ? 2 : 5);
      const before = await llm.stats();
      const rate = await judgeMany(family.judge, 64, judgments);
      const after = await llm.stats();
      familyRows.push({
        ...family,
        rate,
        ideal: 64 / ((family.sequential * LATENCY_MS) / 1000),
        calls: (after.calls - before.calls) / judgments,
        prompt: (after.promptTokens - before.promptTokens) / judgments,
        completion: (after.completionTokens - before.completionTokens) / judgments,
      });
    }
    const at64 = rows.at(-1);
    return `## Rubric judge against a scripted server (${LATENCY_MS} ms per call)

\`kind: rubric\`, a ${CRITERIA.length}-criterion \`criteria\` rubric graded in one batched call per judgment; ideal = concurrency / ${LATENCY_MS} ms.

| concurrency | judgments/s | ideal | share of ideal |
|---:|---:|---:|---:|
${rows.map((r) => `| ${r.concurrency} | ${fmt(r.rate, 2)} | ${fmt(r.ideal, 2)} | ${fmt((100 * r.rate) / r.ideal, 1)}% |`).join('\n')}

Target ≥ 90% of ideal at concurrency 64: **${at64.rate / at64.ideal >= 0.9 ? 'met' : 'NOT met'}**.

Each shape at concurrency 64 beside GenRM on the same server (${64 * (quick ? 2 : 5)} judgments each; ideal = 64 / (calls in a row × ${LATENCY_MS} ms); tokens estimated as characters / 4):

| judge | judgments/s | ideal | share | calls / judgment | prompt tokens / judgment | completion tokens / judgment |
|---|---:|---:|---:|---:|---:|---:|
${familyRows.map((f) => `| ${f.name} | ${fmt(f.rate, 1)} | ${fmt(f.ideal, 1)} | ${fmt((100 * f.rate) / f.ideal, 1)}% | ${fmt(f.calls, 2)} | ${fmt(f.prompt, 0)} | ${fmt(f.completion, 0)} |`).join('\n')}

1-minute load average at the end of the run: ${fmt(loadavg()[0], 1)} on ${cpus().length} cores. Above the core count the judges compete with other processes for the CPU each call costs (about 1 ms in this process), so shapes with more calls in flight fall further below their ideal: compare shares only between runs on a quiet machine.`;
  } finally {
    llm.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await rubricJudgeSection({ quick: process.argv.includes('--quick') })}\n`);
}
