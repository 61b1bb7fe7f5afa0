// Rubric quality by proxy (Proxy-GRM) against a fixed-latency scripted server: what scoring one
// labelled pair costs per producer (calls, tokens, wall time) next to the ideal set by its calls,
// with the proxy asked in both orders and in one. `bench/run.mjs` adds this section to
// BENCHMARKS.md; `node bench/rubric-quality.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 50;

// The scripted models (in their own process) answer by the JSON schema each role asks for, and
// always favour the response that contains GOOD, wherever it is shown.
const REPLY_OF = `(request) => {
  const name = request.response_format?.json_schema?.name;
  const user = request.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\\n');
  const goodFirst = user.indexOf('GOOD') < user.indexOf('BAD');
  const json = (value) => ({ content: JSON.stringify(value) });
  if (name === 'genrm_scores') return json({ principles: ['states the right number', 'shows the working'], critique: 'one is right', score_1: goodFirst ? 8 : 3, score_2: goodFirst ? 3 : 8 });
  if (name === 'proxy_grm') return json({ reason: 'the rubric asks for the right number', preferred: goodFirst ? 1 : 2 });
  if (name === 'openrs_intent') return json({ query_type: 'math', primary_need: 'the product', secondary_needs: [], user_context: 'none', domains: ['general'] });
  if (name === 'openrs_comparison') return json({ differences: ['the number'], criteria: [1, 2, 3, 4, 5].map((i) => ({ name: 'criterion ' + i, type: 'core', evidence_a: 'a', evidence_b: 'b', reason: 'r', winner: goodFirst ? 'A' : 'B', strength: 2 })) });
  if (name === 'medical_rubric_grades') return json({ grades: [{ id: 'E1', evidence: '', reason: 'r', grade: user.includes('GOOD') ? 'fully_met' : 'not_met' }] });
  return json({});
}`;

/** The "Rubric quality by proxy" section of BENCHMARKS.md. */
export async function rubricQualitySection({ quick = false, fmt }) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { genrmRubricProducer, medicalRubricProducer, openrsRubricProducer, scoreRubricQuality } =
    await import('../dist/judges/index.js');
  const { MedicalRubricSchema } = await import('../dist/judges/medical/index.js');
  const llm = await startScriptedLlmServer({}, LATENCY_MS, undefined, REPLY_OF);
  try {
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    const levels = { not_met: 'no number', partially_met: 'a number', fully_met: 'the right number' };
    const rubricOf = (id) =>
      MedicalRubricSchema.parse({
        id,
        query: 'q',
        essential: [{ title: 'States 42', levels }],
        important: [],
        highlight: [],
        pitfall: [],
      });
    const ids = Array.from({ length: 256 }, (_, i) => `p${i}`);
    const rubrics = {
      file: 'bench',
      rubrics: new Map(ids.map((id) => [id, rubricOf(id)])),
      rejected: new Map(),
      unattributed: [],
    };
    const producers = {
      genrm: genrmRubricProducer,
      openrs: openrsRubricProducer(),
      medical: medicalRubricProducer(rubrics),
    };
    let batch = 0;
    const scoreMany = async (producer, bothOrders, concurrency, pairs) => {
      const prefix = `b${batch++}`;
      let next = 0;
      const totals = { producer: 0, proxy: 0, prompt: 0, completion: 0 };
      const start = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < pairs) {
            const i = next++;
            const record = await scoreRubricQuality(
              {
                id: `p${i}`,
                prompt: `${prefix}-${i}: What is 6 times 7?`,
                chosen: 'GOOD: 6 × 7 = 42.',
                rejected: 'BAD: it is 41',
              },
              {
                producer: producers[producer],
                producerModel: model,
                proxy: { model, bothOrders },
                chosenFirst: i % 2 === 0,
              },
            );
            if ('error' in record || record.terms.acc !== 1 || record.terms.proxy !== 1)
              throw new Error(
                `bench ${producer} pair was not scored right: ${JSON.stringify(record).slice(0, 300)}`,
              );
            totals.producer += record.usage.producer.calls;
            totals.proxy += record.usage.proxy.calls;
            totals.prompt += record.usage.producer.prompt_tokens + record.usage.proxy.prompt_tokens;
            totals.completion +=
              record.usage.producer.completion_tokens + record.usage.proxy.completion_tokens;
          }
        }),
      );
      const ms = performance.now() - start;
      const calls = (totals.producer + totals.proxy) / pairs;
      return {
        producerCalls: totals.producer / pairs,
        proxyCalls: totals.proxy / pairs,
        prompt: totals.prompt / pairs,
        completion: totals.completion / pairs,
        perSecond: pairs / (ms / 1000),
        // A pair's calls are sequential (producer, then the proxy's orders), `concurrency` pairs at once.
        ideal: concurrency / ((calls * LATENCY_MS) / 1000),
        msPerPair: ms / pairs,
        calls,
      };
    };
    for (const name of Object.keys(producers)) await scoreMany(name, true, 8, 16); // warm up
    const rows = [];
    for (const name of Object.keys(producers))
      for (const bothOrders of [true, false]) {
        const one = await scoreMany(name, bothOrders, 1, quick ? 2 : 4);
        const many = await scoreMany(name, bothOrders, 16, quick ? 32 : 64);
        rows.push({ name, bothOrders, one, many });
      }
    const table = rows
      .map(
        ({ name, bothOrders, one, many }) =>
          `| ${name} | ${bothOrders ? 2 : 1} | ${fmt(one.producerCalls, 1)} + ${fmt(one.proxyCalls, 1)} | ${fmt(one.prompt)} | ${fmt(one.completion)} | ${fmt(one.msPerPair)} | ${fmt(one.calls * LATENCY_MS)} | ${fmt(many.perSecond, 1)} | ${fmt(many.ideal, 1)} | ${fmt((100 * many.perSecond) / many.ideal)} % |`,
      )
      .join('\n');
    return `## Rubric quality by proxy (Proxy-GRM) against a scripted server (${LATENCY_MS} ms per call)

\`bench/rubric-quality.mjs\`: \`scoreRubricQuality\` (what \`rewardkit rubrics quality\` runs per pair) for each producer on the same pairs ("GOOD: 6 × 7 = 42." vs "BAD: it is 41", the chosen one shown first in every other pair), with the proxy asked in both orders (the default) and in one, against an OpenAI-compatible server in its own process answering every call after ${LATENCY_MS} ms by the schema each role asks for. Every pair must score acc +1 and proxy +1. Ideal: a pair's calls are sequential (the producer's, then the proxy's), so one pair takes calls × ${LATENCY_MS} ms at best and 16 run at once. Tokens are the server's estimate (characters / 4 of each request body and reply). ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fmt(loadavg()[0], 1)} at the end${quick ? ' (quick mode)' : ''}.

| producer | proxy orders | calls per pair (producer + proxy) | prompt tokens per pair | completion tokens per pair | ms per pair, one at a time | ideal | pairs/s at concurrency 16 | ideal | of ideal |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${table}

The proxy adds 2 calls per pair in both orders (1 in one), on top of the producer's own (GenRM: 2, one per order; OpenRS: 3, intent then one comparison per order; QuarkMedBench: 2, one grading per response).`;
  } finally {
    llm.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { fmt } = await import('./measure.mjs');
  process.stdout.write(`${await rubricQualitySection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
