// Trace2Skill against a fixed-latency scripted server: MAP analyses per minute next to the ideal
// (concurrency / latency), and the wall time of a whole 100-trajectory `evolveSkill` next to the
// ideal set by its sequential rounds of calls. `bench/run.mjs` adds this section to BENCHMARKS.md;
// `node bench/trace2skill.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 200;
const DEFAULT_CONCURRENCY = 8;
const EVOLVE_TRAJECTORIES = 100;

const lesson = (title) => ({ title, description: `when ${title}`, content: `Do ${title} before answering.` });
const edit = (extra) => ({
  file: 'SKILL.md',
  op: 'append_to_section',
  target_section: '## Checks',
  target_text: null,
  content: '- Check the units before answering.',
  old_text: null,
  after_section: null,
  ...extra,
});
const replies = {
  trace_failure_analyst: {
    failure_cause: lesson('the units were mixed'),
    lessons: [lesson('unit checks'), lesson('re-reading the task')],
    fix: { description: 'convert first', answer: null },
  },
  trace_success_analyst: { lessons: [lesson('showing the work'), lesson('a final check')] },
  trace_patch_proposer: { reasoning: 'units', edits: [edit({ supports: [] })], changelog: 'units check' },
  trace_patch_merger: {
    reasoning: 'one lesson',
    edits: [edit({ merged_from: ['P1.E1'] })],
    changelog: 'units check',
  },
};

const SKILL = `---
name: bench-skill
description: A skill for the Trace2Skill benchmark.
---
# Bench Skill

## Checks

- Read the task twice.
`;

const trajectory = (prefix, i) => ({
  id: `${prefix}-${i}`,
  task: `${prefix} task ${i}: convert ${i} km to metres`,
  steps: [
    { thought: 'I will convert.', action: `calc(${i} * 100)` },
    { observation: String(i * 100), content: `The answer is ${i * 100}.` },
  ],
  outcome: { pass: i % 10 >= 7, score: i % 10 >= 7 ? 1 : 0 },
});

/** The "Trace2Skill" section of BENCHMARKS.md. */
export async function trace2skillSection({ quick = false, fmt }) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { evolveSkill } = await import('../dist/skills/index.js');
  const { mapAnalyses } = await import('../dist/skills/trace2skill/index.js');
  const llm = await startScriptedLlmServer(replies, LATENCY_MS);
  try {
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    let batch = 0;
    const analyse = async (concurrency, n) => {
      const prefix = `map${batch++}`;
      const runs = Array.from({ length: n }, (_, i) => trajectory(prefix, i));
      const before = await llm.stats();
      const start = performance.now();
      const got = await mapAnalyses(runs, { model, concurrency });
      const seconds = (performance.now() - start) / 1000;
      const after = await llm.stats();
      if (got.records.some((r) => r.status !== 'ok')) throw new Error('bench analysis was invalid');
      return {
        perMinute: (n / seconds) * 60,
        calls: (after.calls - before.calls) / n,
        prompt: (after.promptTokens - before.promptTokens) / n,
      };
    };
    await analyse(DEFAULT_CONCURRENCY, 16); // warm up connections and the JIT
    const rows = [];
    for (const concurrency of [1, DEFAULT_CONCURRENCY, 32]) {
      const n = concurrency * (quick ? 2 : concurrency === 1 ? 10 : 6);
      const got = await analyse(concurrency, n);
      rows.push({ concurrency, n, ideal: (concurrency / (LATENCY_MS / 1000)) * 60, ...got });
    }

    // A whole evolve: 100 runs (70 failed, 30 passed), combined mode, one seed, default concurrency.
    const runs = Array.from({ length: EVOLVE_TRAJECTORIES }, (_, i) => trajectory('evolve', i));
    const before = await llm.stats();
    const start = performance.now();
    const evolved = await evolveSkill({
      files: new Map([['SKILL.md', SKILL]]),
      trajectories: runs,
      model,
      mode: 'combined',
    });
    const wall = (performance.now() - start) / 1000;
    const after = await llm.stats();
    const { report } = evolved;
    const seed = report.seeds[0];
    if (!report.valid || seed.edits.applied < 1)
      throw new Error(`bench evolve failed: ${JSON.stringify(report).slice(0, 400)}`);
    const byRole = Object.fromEntries(
      Object.entries(report.usage_by_role).map(([role, u]) => [role, u.calls]),
    );
    const proposals = byRole.trace_patch_proposer ?? 0;
    // Sequential rounds at the default concurrency: the analyses, the proposals, one round per merge level (+ the forced merge).
    const rounds =
      Math.ceil(EVOLVE_TRAJECTORIES / DEFAULT_CONCURRENCY) +
      Math.ceil(proposals / DEFAULT_CONCURRENCY) +
      seed.patches.levels +
      (seed.patches.forced_merge ? 1 : 0) +
      seed.fix_rounds;
    const idealWall = (rounds * LATENCY_MS) / 1000;
    const atDefault = rows.find((r) => r.concurrency === DEFAULT_CONCURRENCY);

    return `## Trace2Skill against a scripted server (${LATENCY_MS} ms per call)

MAP analysis (\`mapAnalyses\`: one analyst call per trajectory, 2-step runs, 70% failed): trajectories analysed per minute at concurrency 1, the default ${DEFAULT_CONCURRENCY} (\`skill evolve --concurrency\`) and 32, next to the ideal = concurrency / ${LATENCY_MS} ms.

| concurrency | trajectories | analysed / min | ideal / min | share of ideal | calls / trajectory | prompt tokens / trajectory |
|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.concurrency} | ${r.n} | ${fmt(r.perMinute, 0)} | ${fmt(r.ideal, 0)} | ${fmt((100 * r.perMinute) / r.ideal, 1)}% | ${fmt(r.calls, 2)} | ${fmt(r.prompt, 0)} |`).join('\n')}

A whole ${EVOLVE_TRAJECTORIES}-trajectory evolve (\`evolveSkill\`, combined mode, one seed, concurrency ${DEFAULT_CONCURRENCY}): MAP, proposals in batches of 5, the hierarchical merge, anchor translation, apply and validation.

| wall time | ideal (sequential rounds × ${LATENCY_MS} ms) | share of ideal | LLM calls | analyst / proposer / merger / fixer calls | merge levels | prompt tokens | completion tokens |
|---:|---:|---:|---:|---|---:|---:|---:|
| ${fmt(wall, 2)} s | ${fmt(idealWall, 2)} s (${rounds} rounds) | ${fmt((100 * idealWall) / wall, 1)}% | ${after.calls - before.calls} | ${(byRole.trace_failure_analyst ?? 0) + (byRole.trace_success_analyst ?? 0)} / ${proposals} / ${byRole.trace_patch_merger ?? 0} / ${byRole.trace_patch_fixer ?? 0} | ${seed.patches.levels} | ${fmt(after.promptTokens - before.promptTokens)} | ${fmt(after.completionTokens - before.completionTokens)} |

The MAP at the default concurrency ran at ${fmt((100 * atDefault.perMinute) / atDefault.ideal, 1)}% of its ideal; the evolve's wall time is ${fmt(wall / idealWall, 2)}× the ideal of its sequential rounds. 1-minute load average at the end of the run: ${fmt(loadavg()[0], 1)} on ${cpus().length} cores (shared with other work: compare runs only on a quiet machine).`;
  } finally {
    llm.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  process.stdout.write(`${await trace2skillSection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
