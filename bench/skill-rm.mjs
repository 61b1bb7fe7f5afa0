// Skill-RM against a fixed-latency scripted server: judgments per second at concurrency 1/16/64
// next to the ideal set by its measured calls per judgment, and calls and tokens per judgment next
// to GenRM on the same pairs. `bench/run.mjs` adds this section to BENCHMARKS.md;
// `node bench/skill-rm.mjs [--quick]` prints it alone (build first).
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startScriptedLlmServer } from './scripted-llm-server.mjs';

const LATENCY_MS = 200;

// The scripted judge (in its own process, bench/scripted-llm-server.mjs) plays a Skill-RM judge
// that opens the skill, runs the reference match and finalizes with what the match favours (3
// calls per order), and answers GenRM by its schema.
const REPLY_OF = `(request, counters) => {
  if (request.response_format?.json_schema?.name === 'genrm_scores') {
    const user = request.messages.at(-1).content;
    const rightFirst = user.indexOf('The answer is 42.') < user.indexOf('It is 41');
    return { content: JSON.stringify({ principles: ['correct final answer'], critique: 'one is right', score_1: rightFirst ? 8 : 3, score_2: rightFirst ? 3 : 8 }) };
  }
  const tool = (name, args) => ({ content: '', tool_calls: [{ id: 'c' + counters.calls, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
  if (!request.tools) return { content: 'Final: A' };
  const last = request.messages.at(-1);
  if (request.tool_choice?.function?.name === 'final_answer') return tool('final_answer', { verdict: 'A', reason: 'forced' });
  if (last.role !== 'tool') return tool('use_skill', { name: 'reward-judge', reason: 'a short answer with a reference' });
  if (last.content.startsWith('Skill "')) return tool('run_resource', { id: 'reference-match' });
  const favours = JSON.parse(last.content.split('\\n')[0]).favours;
  return tool('final_answer', { verdict: favours ?? 'tie', confidence: 0.95, used_resources: ['reference-match'], reason: 'the reference match decides' });
}`;

/** The "Skill-RM" section of BENCHMARKS.md. */
export async function skillRmSection({ quick = false, fmt }) {
  const { createOpenAICompatibleModel } = await import('../dist/llm/index.js');
  const { createGenrmJudge } = await import('../dist/judges/index.js');
  const { sourceKinds } = await import('../dist/spec/index.js');
  const { createCodeSandbox } = await import('../dist/verify/code/index.js');
  const llm = await startScriptedLlmServer({}, LATENCY_MS, undefined, REPLY_OF);
  const sandbox = createCodeSandbox();
  try {
    const model = createOpenAICompatibleModel({
      name: 'bench',
      model: 'm',
      endpoints: [{ baseURL: llm.baseURL }],
      maxConcurrency: 512,
    });
    const kind = sourceKinds.get('skill_rm');
    const services = { model: () => model, codeSandbox: () => sandbox };
    const judges = {
      skill_rm: kind.pairwise(kind.params.parse({ model: 'bench', benchmark_visible: true }), services),
      genrm: createGenrmJudge({ model }),
    };
    let batch = 0;
    const judgeMany = async (name, concurrency, pairs) => {
      const prefix = `b${batch++}`;
      let next = 0;
      const before = await llm.stats();
      const start = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < pairs) {
            const i = next++;
            const judgment = await judges[name].judge({
              prompt: `${prefix}-${i}: What is 6 times 7? Answer with the number.`,
              first: 'The answer is 42.',
              second: 'It is 41',
              reference: '42',
            });
            if (
              judgment.verdict !== 'first' ||
              (name === 'skill_rm' && judgment.decidedBy !== 'reference-match')
            ) {
              throw new Error(
                `bench ${name} judgment was not "first": ${JSON.stringify(judgment).slice(0, 300)}`,
              );
            }
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const after = await llm.stats();
      return {
        perSecond: pairs / seconds,
        calls: (after.calls - before.calls) / pairs,
        prompt: (after.promptTokens - before.promptTokens) / pairs,
        completion: (after.completionTokens - before.completionTokens) / pairs,
      };
    };
    await judgeMany('skill_rm', 8, 16); // warm up connections and the JIT
    await judgeMany('genrm', 8, 16);
    const rows = [];
    for (const concurrency of [1, 16, 64]) {
      const pairs = concurrency * (quick ? 2 : 4);
      const skill = await judgeMany('skill_rm', concurrency, pairs);
      const genrm = await judgeMany('genrm', concurrency, pairs);
      // Every call of a judgment is sequential (the orders run one after the other), so a judgment
      // takes calls × latency at best and `concurrency` of them run at once.
      const ideal = (c, calls) => c / ((calls * LATENCY_MS) / 1000);
      rows.push({
        concurrency,
        pairs,
        skill,
        genrm,
        skillIdeal: ideal(concurrency, skill.calls),
        genrmIdeal: ideal(concurrency, genrm.calls),
      });
    }
    const at64 = rows.at(-1);
    const table = rows
      .map(
        (r) =>
          `| ${r.concurrency} | ${r.pairs} | ${fmt(r.skill.perSecond, 2)} | ${fmt(r.skillIdeal, 2)} | ${fmt((100 * r.skill.perSecond) / r.skillIdeal)} % | ${fmt(r.genrm.perSecond, 2)} | ${fmt(r.genrmIdeal, 2)} | ${fmt((100 * r.genrm.perSecond) / r.genrmIdeal)} % |`,
      )
      .join('\n');
    const cost = `| Skill-RM (skill reward-judge, both orders) | ${fmt(at64.skill.calls, 1)} | ${fmt(at64.skill.prompt)} | ${fmt(at64.skill.completion)} |
| GenRM (both orders, 1 vote) | ${fmt(at64.genrm.calls, 1)} | ${fmt(at64.genrm.prompt)} | ${fmt(at64.genrm.completion)} |`;
    return `## Skill-RM against a scripted server (${LATENCY_MS} ms per call)

\`bench/skill-rm.mjs\`: the \`skill_rm\` judge kind's \`PairwiseJudge\` (the shipped \`skills/reward-judge\`, \`benchmark_visible\` on) and GenRM on the same pairs (reference "42"; "The answer is 42." vs "It is 41"), against an OpenAI-compatible server in its own process answering every call after ${LATENCY_MS} ms. The scripted Skill-RM judge opens the skill, runs the \`reference-match\` resource (rewardkit's reference verifier, through the source-kind registry) and calls \`final_answer\` with what the match favours: 3 calls per order, both orders. Every judgment must come out "first". Ideal = concurrency / (calls per judgment × ${LATENCY_MS} ms): the calls of a judgment are sequential. Tokens are the server's estimate (characters / 4 of each request body and reply). ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fmt(loadavg()[0], 1)} at the end${quick ? ' (quick mode: 2 judgments per concurrency slot)' : ''}.

| concurrency | judgments | Skill-RM judgments/s | ideal | of ideal | GenRM judgments/s | ideal | of ideal |
|---:|---:|---:|---:|---:|---:|---:|---:|
${table}

Cost per judgment (measured at concurrency 64):

| judge | calls | prompt tokens | completion tokens |
|---|---:|---:|---:|
${cost}

Skill-RM costs ${fmt(at64.skill.calls / at64.genrm.calls, 1)}× GenRM's calls and ${fmt(at64.skill.prompt / at64.genrm.prompt, 1)}× its prompt tokens here: each agent turn resends the conversation with the tool schemas, and opening the skill adds SKILL.md and the resource index (about ${fmt(at64.skill.prompt / at64.skill.calls)} prompt tokens a call against GenRM's ${fmt(at64.genrm.prompt / at64.genrm.calls)}). What it buys is the verdict of a hard check (the reference match decided every pair, \`decidedBy: reference-match\`) rather than a judgment.`;
  } finally {
    llm.stop();
    await sandbox.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { fmt } = await import('./measure.mjs');
  process.stdout.write(`${await skillRmSection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
