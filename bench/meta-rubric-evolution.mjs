// Meta-rubric evolution (`rubrics evolve`'s loop) against a fixed-latency scripted server:
// generations per hour next to the ideal set by its sequential rounds of calls. `bench/run.mjs`
// adds this section to BENCHMARKS.md; `node bench/meta-rubric-evolution.mjs [--quick]` prints it
// alone (build first).
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 100;
const PAIRS = 24;
const POPULATION = 4;

const criteria = (winner) => ({
  differences: ['d'],
  criteria: Array.from({ length: 5 }, (_, i) => ({
    name: `c${i}`,
    type: 'core',
    evidence_a: 'a',
    evidence_b: 'b',
    reason: 'r',
    winner: i === 0 ? winner : 'same',
    strength: i === 0 ? 2 : 0,
  })),
});
const INTENT = {
  query_type: 'creative brief',
  primary_need: 'a line',
  secondary_needs: [],
  user_context: 'unknown',
  domains: ['general'],
};
// The judge is swap-consistent and right on pair k only when the meta-rubric holds more than k % 3
// "RULE-" markers, and prefers position A otherwise: no variant is right everywhere, so every
// member of the population is mutated each generation, and a child is kept when it adds a marker.
// Each rewrite is worded apart (the call counter), so no child repeats another's requests.
const replyOf = `(request, counters) => {
  const name = request.response_format?.json_schema?.name;
  const text = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\\n');
  if (name === 'openrs_intent') return { content: ${JSON.stringify(JSON.stringify(INTENT))} };
  if (name === 'meta_rubric_mutation')
    return { content: JSON.stringify({ rationale: 'imagery', section: 'Prefer imagery that serves the request (' + counters.calls + '). RULE-imagery.' }) };
  const a = /Response A:\\n<response-a-\\w+>\\n(GOOD|BAD)(\\d+)/.exec(text);
  const markers = (text.match(/RULE-/g) || []).length;
  const aWins = !a || markers <= Number(a[2]) % 3 || a[1] === 'GOOD';
  return { content: aWins ? ${JSON.stringify(JSON.stringify(criteria('A')))} : ${JSON.stringify(JSON.stringify(criteria('B')))} };
}`;

/** The "Meta-rubric evolution" section of BENCHMARKS.md. */
export async function metaRubricEvolutionSection({ quick = false, fmt }) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { evolveMetaRubric } = await import('../dist/judges/meta-rubric-evolution/index.js');
  const { loadOpenrsFiles } = await import('../dist/judges/openrs/index.js');
  const { directoryGenerationStore } = await import('../dist/cli/commands/rubrics-evolve-store.js');
  const llm = await startScriptedLlmServer({}, LATENCY_MS, undefined, replyOf);
  const generations = quick ? 1 : 3;
  try {
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    const files = loadOpenrsFiles();
    const pairs = Array.from({ length: PAIRS }, (_, k) => ({
      id: `p${k}`,
      prompt: `A line about rain, ${k}.`,
      chosen: `GOOD${k}`,
      rejected: `BAD${k}`,
    }));
    const rows = [];
    for (const concurrency of [8, PAIRS]) {
      const times = [];
      let last = performance.now();
      const before = await llm.stats();
      const result = await evolveMetaRubric({
        seedMetaRubric: files.metaRubric,
        pairs,
        judge: { model, domains: files.domains, reasks: 0 },
        mutator: { model, reasks: 0 },
        generations,
        population: POPULATION,
        tiePenalty: 0.5,
        sections: ['Ideal answer', 'Comparison protocol'],
        misjudged: 4,
        seed: 0,
        concurrency,
        store: directoryGenerationStore(mkdtempSync(join(tmpdir(), 'rk-bench-evolve-'))),
        onGeneration: () => {
          const now = performance.now();
          times.push((now - last) / 1000);
          last = now;
        },
      });
      const after = await llm.stats();
      const later = result.generations.slice(1);
      const seconds = times.slice(1).reduce((s, t) => s + t, 0);
      const mutations = later.reduce((s, g) => s + g.variants.length, 0);
      const evaluated = later.reduce((s, g) => s + g.variants.filter((v) => v.outcomes.length > 0).length, 0);
      // Parents are mutated one after another; a child's pairs run `concurrency` at once, each a
      // chain of 2 comparisons (the intents were asked in generation 0).
      const idealSeconds = ((mutations + evaluated * Math.ceil(PAIRS / concurrency) * 2) * LATENCY_MS) / 1000;
      const kept = later.reduce((s, g) => s + g.variants.filter((v) => v.kept).length, 0);
      rows.push({
        concurrency,
        perHour: (later.length / seconds) * 3600,
        idealPerHour: (later.length / idealSeconds) * 3600,
        mutations,
        kept,
        calls: after.calls - before.calls,
        best: result.best.fitness.fitness,
        seed: result.generations[0].variants[0].fitness.fitness,
      });
    }
    return `## Meta-rubric evolution against a scripted server (${LATENCY_MS} ms per call)

\`node bench/meta-rubric-evolution.mjs\`: \`evolveMetaRubric\` (the loop of \`rubrics evolve\`, generations stored as files) on ${PAIRS} labelled pairs, population ${POPULATION}, ${generations} generation(s) after the seed's; every pair is judged in both orders (its intent analysis, asked once per run and shared by every variant, then one comparison per order). The scripted judge is right on more pairs the more "RULE-" markers the meta-rubric holds, so every member is mutated each generation and some children are kept. Ideal = the generation's sequential rounds × ${LATENCY_MS} ms: one mutation call per parent, then ⌈pairs / concurrency⌉ × 2 comparison calls for its child, parents one after another.

| pairs at once | generations / hour | ideal / hour | share of ideal | mutations | kept | LLM calls (seed's included) | training fitness seed → best |
|---:|---:|---:|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.concurrency} | ${fmt(r.perHour, 0)} | ${fmt(r.idealPerHour, 0)} | ${fmt((100 * r.perHour) / r.idealPerHour, 1)}% | ${r.mutations} | ${r.kept} | ${fmt(r.calls)} | ${fmt(r.seed, 3)} → ${fmt(r.best, 3)} |`).join('\n')}

A generation costs one mutation and ${PAIRS} × 2 judge calls per population member; at a real judge's latency (seconds per call) divide the rate accordingly. 1-minute load average at the end of the run: ${fmt(loadavg()[0], 1)} on ${cpus().length} cores (shared with other work: compare runs only on a quiet machine).`;
  } finally {
    llm.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  process.stdout.write(
    `${await metaRubricEvolutionSection({ quick: process.argv.includes('--quick'), fmt })}\n`,
  );
}
