import { describe, expect, test } from 'vitest';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import {
  createSkillRmJudge,
  judgeSkillRmPair,
  judgeSkillRmPointwise,
  parseSkill,
  type Skill,
  type SkillRmOptions,
} from '../src/skills/index.js';
import { sourceKinds } from '../src/spec/index.js';
import { bindingKinds, skillRmRuntime } from '../src/spec/sources/skill-rm-bindings.js';
import { loadJudgeSkill } from '../src/spec/sources/skill-rm-source.js';
import { createCodeSandbox } from '../src/verify/code/index.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const shipped = loadJudgeSkill(undefined);
const model = () =>
  createOpenAICompatibleModel({
    name: 'judge',
    model: 'judge-model',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });
const services = () => ({ model, codeSandbox: () => createCodeSandbox() });
const options = (extra: Partial<SkillRmOptions> & { bothOrders?: boolean } = {}) => ({
  model: model(),
  skill: shipped,
  runtime: skillRmRuntime(services(), { model: 'judge', reasks: 0 }),
  ...extra,
});

/** One scripted turn: the model calls these tools (in order). */
const calls = (...list: Array<[string, unknown]>): ScriptRule => ({
  times: 1,
  reply: { content: '', toolCalls: list.map(([name, args]) => ({ name, arguments: JSON.stringify(args) })) },
});
const call = (name: string, args: unknown) => calls([name, args]);
const text = (content: string): ScriptRule => ({ times: 1, reply: { content } });

type Body = {
  tools?: Array<{ function: { name: string } }>;
  tool_choice?: unknown;
  response_format?: { json_schema?: { name?: string } };
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown }>;
};
const bodies = () => server.requests.map((r) => r.body as unknown as Body);
const toolNames = (body: Body) => (body.tools ?? []).map((t) => t.function.name);
/** The tool messages of a request, parsed where they are JSON (else their first line). */
const toolResults = (body: Body) =>
  body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => {
      const content = String(m.content);
      try {
        return JSON.parse(content) as Record<string, unknown>;
      } catch {
        try {
          return JSON.parse(content.split('\n')[0] as string) as Record<string, unknown>;
        } catch {
          return { text: content };
        }
      }
    });

const pair42 = {
  prompt: 'What is 6 times 7?',
  first: 'The answer is 42.',
  second: 'It is 41',
  reference: '42',
};

describe('Skill-RM tool loop', () => {
  test('should offer only use_skill and final_answer until the skill is opened, then the resource tools', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge', reason: 'a math answer' }),
      call('list_resources', {}),
      call('final_answer', { verdict: 'A', confidence: 0.6, used_resources: [], reason: 'A is right' }),
    );
    const judgment = await judgeSkillRmPair(pair42, { ...options(), bothOrders: false });
    expect(judgment.verdict).toBe('first');
    const [first, second, third] = bodies();
    expect(toolNames(first as Body)).toEqual(['use_skill', 'final_answer']);
    expect(toolNames(second as Body)).toEqual([
      'use_skill',
      'final_answer',
      'list_resources',
      'view_resource',
      'run_resource',
      'sandbox',
    ]);
    // use_skill returned SKILL.md, the tool guidance and the resource index.
    const opened = String((second as Body).messages.at(-1)?.content);
    expect(opened).toContain('Skill "reward-judge" is open.');
    expect(opened).toContain('## Evidence priority');
    expect(opened).toContain('## Tools now available');
    expect(opened).toContain('"id": "math-answers-guide"');
    expect(toolNames(third as Body)).toContain('run_resource');
    expect(server.requests).toHaveLength(3);
    expect(judgment.detail).toMatchObject({ orders: [{ route: 'final_answer', shown: 'A' }] });
  });

  test('should decide A by the reference match in both orders (reference "42": "The answer is 42." vs "It is 41")', async () => {
    server.script(
      // forward: A = "The answer is 42."
      call('use_skill', { name: 'reward-judge' }),
      call('run_resource', { id: 'reference-match' }),
      call('final_answer', { verdict: 'A', used_resources: ['reference-match'], reason: 'A matches 42' }),
      // backward: the same response is now B
      call('use_skill', { name: 'reward-judge' }),
      call('run_resource', { id: 'reference-match' }),
      call('final_answer', { verdict: 'B', used_resources: ['reference-match'], reason: 'B matches 42' }),
    );
    const judgment = await judgeSkillRmPair(pair42, { ...options(), benchmarkVisible: true });
    expect(judgment.verdict).toBe('first');
    expect(judgment.decidedBy).toBe('reference-match');
    expect(judgment.comparisons).toEqual([
      { order: 'forward', vote: 0, winner: 'first' },
      { order: 'backward', vote: 0, winner: 'first' },
    ]);
    const forwardRun = toolResults(bodies()[2] as Body).at(-1);
    expect(forwardRun).toMatchObject({ resource: 'reference-match', binding: 'reference', favours: 'A' });
    const backwardRun = toolResults(bodies()[5] as Body).at(-1);
    expect(backwardRun).toMatchObject({ favours: 'B' });
    expect(judgment.calls).toHaveLength(6);
  });

  test('should report the reference match inconclusive when both responses contain 42', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      call('run_resource', { id: 'reference-match' }),
      call('final_answer', { verdict: 'tie', reason: 'both match' }),
    );
    const judgment = await judgeSkillRmPair(
      { ...pair42, second: '42, since 6 * 7 = 42.' },
      { ...options(), benchmarkVisible: true, bothOrders: false },
    );
    const run = toolResults(bodies()[2] as Body).at(-1);
    expect(run).toMatchObject({ favours: null });
    expect(String(run?.summary)).toMatch(/inconclusive: both responses pass/);
    expect(judgment.verdict).toBe('tie');
    expect(judgment.decidedBy).toBeUndefined();
  });

  test('should call disagreeing orders inconsistent (a position-biased judge)', async () => {
    server.script(
      call('final_answer', { verdict: 'A', reason: 'first shown' }),
      call('final_answer', { verdict: 'A', reason: 'first shown' }),
    );
    const judgment = await createSkillRmJudge(options()).judge(pair42);
    expect(judgment.verdict).toBe('inconsistent');
    expect(judgment.comparisons.map((c) => c.winner)).toEqual(['first', 'second']);
  });

  test('should answer unknown tools, locked tools and bad arguments with structured tool errors, never a verdict', async () => {
    server.script(
      calls(['view_resource', { path: 'reference-answer' }], ['delete_everything', {}]),
      { times: 1, reply: { content: '', toolCalls: [{ name: 'use_skill', arguments: '{not json' }] } },
      call('final_answer', { verdict: 'maybe', reason: 'unsure' }),
      call('final_answer', { verdict: 'B', reason: 'B is fine' }),
    );
    const judgment = await judgeSkillRmPair(pair42, { ...options(), bothOrders: false });
    expect(judgment.verdict).toBe('second');
    const [locked, unknown] = toolResults(bodies()[1] as Body);
    expect(locked).toMatchObject({
      error: 'unknown_tool',
      hint: 'Open the skill first: use_skill{"name": "reward-judge"}.',
    });
    expect(String(locked?.message)).toContain('before the skill is opened');
    expect(unknown).toMatchObject({ error: 'unknown_tool' });
    expect(toolResults(bodies()[2] as Body).at(-1)).toMatchObject({ error: 'bad_arguments' });
    const badVerdict = toolResults(bodies()[3] as Body).at(-1);
    expect(badVerdict).toMatchObject({ error: 'bad_arguments' });
    expect(String(badVerdict?.message)).toContain('verdict');
  });
});

describe('Skill-RM caps', () => {
  test('should refuse a view past the distinct-views cap with a hint to finalize; a repeat view is free', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      calls(
        ['view_resource', { path: 'math-answers-guide' }],
        ['view_resource', { path: 'references/math-answers.md' }],
        ['view_resource', { path: 'code-guide' }],
      ),
      call('final_answer', { verdict: 'A', reason: 'r' }),
    );
    await judgeSkillRmPair(pair42, { ...options(), caps: { maxViews: 1 }, bothOrders: false });
    const [one, again, capped] = toolResults(bodies()[2] as Body).slice(-3);
    expect(one).toMatchObject({ resource: 'math-answers-guide' });
    expect(again).toMatchObject({ resource: 'math-answers-guide' });
    expect(capped).toEqual({
      error: 'cap_exceeded',
      cap: 'distinct resources viewed',
      limit: 1,
      message: 'the distinct resources viewed cap of 1 per sample is reached',
      hint: 'Finalize now: call final_answer with the evidence you have.',
    });
  });

  test('should cut a resource at the character cap and say so', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      call('view_resource', { path: 'code-guide' }),
      call('final_answer', { verdict: 'A', reason: 'r' }),
    );
    const judgment = await judgeSkillRmPair(pair42, {
      ...options(),
      caps: { maxResourceChars: 40 },
      bothOrders: false,
    });
    const viewed = bodies()[2]?.messages.at(-1)?.content as string;
    expect(JSON.parse(viewed.split('\n')[0] as string)).toMatchObject({
      resource: 'code-guide',
      truncated: { shown_chars: 40 },
    });
    expect(viewed.split('\n').slice(1).join('\n')).toHaveLength(40);
    expect(judgment.warnings?.[0]).toMatch(/cut at 40 of \d+ characters/);
  });

  test('should refuse runs past the runtime-run cap', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      calls(['run_resource', { id: 'reference-match' }], ['run_resource', { id: 'math-verifier' }]),
      call('final_answer', { verdict: 'A', reason: 'r' }),
    );
    await judgeSkillRmPair(pair42, {
      ...options(),
      benchmarkVisible: true,
      caps: { maxRuns: 1 },
      bothOrders: false,
    });
    const [ran, capped] = toolResults(bodies()[2] as Body).slice(-2);
    expect(ran).toMatchObject({ resource: 'reference-match', favours: 'A' });
    expect(capped).toMatchObject({ error: 'cap_exceeded', cap: 'runtime runs', limit: 1 });
  });

  test('should stop the loop at the step cap and force final_answer with a structured cap error', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      call('list_resources', {}),
      call('final_answer', { verdict: 'B', reason: 'forced' }),
    );
    const judgment = await judgeSkillRmPair(pair42, {
      ...options(),
      caps: { maxSteps: 2 },
      bothOrders: false,
    });
    expect(judgment.verdict).toBe('second');
    const forced = bodies()[2] as Body;
    expect(forced.tool_choice).toEqual({ type: 'function', function: { name: 'final_answer' } });
    expect(toolNames(forced)).toEqual(['final_answer']);
    expect(JSON.parse(String(forced.messages.at(-1)?.content))).toMatchObject({
      error: 'cap_exceeded',
      cap: 'agent steps',
      limit: 2,
    });
    expect(judgment.detail).toMatchObject({ orders: [{ route: 'forced_final_answer' }] });
  });
});

describe('Skill-RM termination cascade', () => {
  test('should try the forced final_answer, then a plain-text retry, then the direct judge, in that order', async () => {
    server.script(text('Let me think about it.'), text('Still thinking.'), text('No idea.'), {
      match: { contains: 'Reply with only a JSON object' },
      reply: { content: '{"reason": "B is right", "verdict": "B"}' },
    });
    const judgment = await judgeSkillRmPair(pair42, { ...options(), bothOrders: false });
    expect(judgment.verdict).toBe('second');
    const [agent, forced, plain, direct] = bodies() as Body[];
    expect(toolNames(agent as Body)).toEqual(['use_skill', 'final_answer']);
    expect(forced?.tool_choice).toEqual({ type: 'function', function: { name: 'final_answer' } });
    expect(String(forced?.messages.at(-1)?.content)).toContain('Your reply had no verdict.');
    expect(plain?.tools).toBeUndefined();
    expect(String(plain?.messages[0]?.content)).toContain('Final: A');
    expect(direct?.response_format?.json_schema?.name).toBe('skill_rm_direct');
    const stages = (judgment.detail as { orders: Array<{ trace: { stages: Array<{ stage: string }> } }> })
      .orders[0]?.trace.stages;
    expect(stages?.map((s) => s.stage)).toEqual([
      'agent',
      'forced_final_answer',
      'plain_text_retry',
      'direct_judge',
    ]);
    expect(judgment.detail).toMatchObject({ orders: [{ route: 'direct_judge' }] });
  });

  test('should take a text verdict of the plain-text retry', async () => {
    server.script(text('Hmm.'), text('Hmm.'), text('B is closer to the request. [[B]]'));
    const judgment = await judgeSkillRmPair(pair42, { ...options(), bothOrders: false });
    expect(judgment.verdict).toBe('second');
    expect(judgment.detail).toMatchObject({ orders: [{ route: 'plain_text_retry' }] });
  });

  test('should take a parseable text verdict of the agent at once', async () => {
    server.script(text('A is correct, B is not. A>>B'));
    const judgment = await judgeSkillRmPair(pair42, { ...options(), bothOrders: false });
    expect(judgment.verdict).toBe('first');
    expect(server.requests).toHaveLength(1);
  });

  test('should end invalid with every step in the reason when the whole cascade fails', async () => {
    server.script({ reply: { content: 'I would rather not say.' } });
    const judgment = await judgeSkillRmPair(pair42, { ...options(), reasks: 0 });
    expect(judgment.verdict).toBe('invalid');
    expect(judgment.reason).toMatch(
      /^forward order: no verdict after the whole cascade: agent 1: .*; forced_final_answer: .*; plain_text_retry: .*; direct_judge: /,
    );
    // The backward order is not run once one order is invalid.
    expect(server.requests).toHaveLength(4);
    expect(judgment.calls).toHaveLength(4);
  });
});

describe('Skill-RM sanitization and visibility', () => {
  const files = new Map([
    [
      'SKILL.md',
      '---\nname: tiny-judge\ndescription: A tiny judge skill for tests.\n---\n\n# Tiny judge\n\nUse the metadata. See [notes](references/notes.md).\n',
    ],
    ['references/notes.md', '# Notes\n\nCompare carefully.\n'],
    ['references/labels.md', '# Labels\n\nORACLE-SECRET: the chosen response is A.\n'],
    [
      'resources.yaml',
      `resources:
  - id: task-metadata
    type: reference
    implementation: runtime_sample
    sample_field: metadata
    applies_to: [all]
    cost: low
    hard_or_soft: soft
    decision_impact: routing
    inputs_required: [metadata]
    outputs_produced: [task_kind]
    visibility: sample_visible
  - id: reference-answer
    type: reference
    implementation: runtime_sample
    sample_field: reference
    applies_to: [all]
    cost: low
    hard_or_soft: hard
    decision_impact: strong
    inputs_required: [reference]
    outputs_produced: [reference_text]
    visibility: benchmark_visible
  - id: oracle-labels
    type: calibration
    implementation: reference_doc
    path: references/labels.md
    applies_to: [all]
    cost: low
    hard_or_soft: hard
    decision_impact: strong
    inputs_required: [prompt]
    outputs_produced: [label]
    visibility: oracle_only
`,
    ],
  ]);
  const parsed = parseSkill(files);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
  const tiny: Skill = parsed.skill;
  const metadata = {
    data_source: 'arith-bench',
    label: 'SECRET-LABEL',
    Winner: 'SECRET-WINNER',
    preference: { strength: 'SECRET-PREF' },
    details: {
      chosen_response: 'SECRET-CHOSEN',
      rejectedText: 'SECRET-REJECTED',
      is_correct: 'SECRET-CORRECT',
    },
    annotations: [{ gold_answer: 'SECRET-GOLD', note: 'kept note' }],
    scores: [9, 1],
    model_a: 'SECRET-MODEL',
    presentation_order: 'SECRET-ORDER',
    tests: ['SECRET-TEST'],
  };
  const secrets = [
    'SECRET-LABEL',
    'SECRET-WINNER',
    'SECRET-PREF',
    'SECRET-CHOSEN',
    'SECRET-REJECTED',
    'SECRET-CORRECT',
    'SECRET-GOLD',
    'SECRET-MODEL',
    'SECRET-ORDER',
    'ORACLE-SECRET',
  ];

  test('should never send a label key, a label value or an oracle-only resource to the model', async () => {
    server.script(
      call('use_skill', { name: 'tiny-judge' }),
      calls(
        ['view_resource', { path: 'task-metadata' }],
        ['view_resource', { path: 'oracle-labels' }],
        ['view_resource', { path: 'references/labels.md' }],
        ['view_resource', { path: 'reference-answer' }],
      ),
      call('list_resources', {}),
      call('final_answer', { verdict: 'A', reason: 'r' }),
    );
    const judgment = await judgeSkillRmPair(
      { ...pair42, reference: 'SECRET-REF-77', metadata },
      { ...options(), skill: tiny, bothOrders: false },
    );
    expect(judgment.verdict).toBe('first');
    const sent = JSON.stringify(bodies());
    for (const secret of [...secrets, 'SECRET-REF-77', 'SECRET-TEST']) expect(sent).not.toContain(secret);
    for (const key of [
      'label',
      'Winner',
      'preference',
      'chosen_response',
      'rejectedText',
      'is_correct',
      'gold_answer',
      'scores',
      'model_a',
      'presentation_order',
    ]) {
      expect(sent).not.toContain(`\\"${key}\\"`);
    }
    // Only the model's own calls (and the errors echoing them) name the oracle resource: no
    // instruction, index or resource text does.
    const shown = JSON.stringify(
      bodies().map((b) =>
        b.messages.filter((m) => m.role !== 'assistant' && !String(m.content).startsWith('{"error"')),
      ),
    );
    expect(shown).not.toContain('oracle-labels');
    expect(shown).not.toContain('references/labels.md');
    // The metadata resource kept what is not a label, inside a nonce-tagged block.
    const [meta, oracleById, oracleByPath, reference] = toolResults(bodies()[2] as Body).slice(-4);
    expect(meta).toMatchObject({ resource: 'task-metadata' });
    const metaText = String(
      bodies()[2]
        ?.messages.filter((m) => m.role === 'tool')
        .at(-4)?.content,
    );
    expect(metaText).toMatch(/<resource-[0-9a-f]{12}>/);
    expect(metaText).toContain('arith-bench');
    expect(metaText).toContain('kept note');
    expect(oracleById).toMatchObject({ error: 'unknown_resource' });
    expect(oracleByPath).toMatchObject({ error: 'unknown_resource' });
    // benchmark_visible is off: the reference is not a resource of this sample.
    expect(reference).toMatchObject({ error: 'unknown_resource' });
    const detail = judgment.detail as {
      orders: Array<{ trace: { withheld: unknown[]; removedLabelKeys: string[] } }>;
    };
    expect(detail.orders[0]?.trace.withheld).toEqual([
      { id: 'reference-answer', why: 'visibility benchmark_visible' },
      { id: 'oracle-labels', why: 'visibility oracle_only' },
    ]);
    expect(detail.orders[0]?.trace.removedLabelKeys).toContain('metadata.details.chosen_response');
  });

  test('should show benchmark-visible resources (and benchmark metadata) only when the caller says so', async () => {
    server.script(
      call('use_skill', { name: 'tiny-judge' }),
      calls(['view_resource', { path: 'reference-answer' }], ['view_resource', { path: 'task-metadata' }]),
      call('final_answer', { verdict: 'A', reason: 'r' }),
    );
    await judgeSkillRmPair(
      { ...pair42, reference: 'VISIBLE-REF-77', metadata },
      { ...options(), skill: tiny, bothOrders: false, benchmarkVisible: true },
    );
    const sent = JSON.stringify(bodies());
    expect(sent).toContain('VISIBLE-REF-77');
    expect(sent).toContain('SECRET-TEST');
    for (const secret of secrets) expect(sent).not.toContain(secret);
  });
});

describe('Skill-RM pointwise', () => {
  const sample = { prompt: 'What is 6 times 7?', response: 'The answer is 42.', reference: '42' };

  test('should clamp a score above 1 and record it', async () => {
    server.script(call('final_answer', { score: 1.7, reason: 'right' }));
    const result = await judgeSkillRmPointwise(sample, options());
    expect(result).toMatchObject({ score: 1, invalid: false, from: 'score', route: 'final_answer' });
    expect(result.warnings).toEqual(['the score 1.7 was outside [0, 1] and clamped to 1']);
  });

  test('should score satisfied / total when the judge gives a checklist count and no score', async () => {
    server.script(call('final_answer', { satisfied: 3, total: 4, reason: 'one constraint missed' }));
    const result = await judgeSkillRmPointwise(sample, options());
    expect(result).toMatchObject({ score: 0.75, invalid: false, from: 'checklist' });
  });

  test('should return the failure score with invalid recorded when the cascade fails', async () => {
    server.script({ reply: { content: 'I would rather not say.' } });
    const failed = await judgeSkillRmPointwise(sample, { ...options(), reasks: 0 });
    expect(failed).toMatchObject({ score: 0.5, invalid: true });
    expect(failed.reason).toMatch(/no verdict after the whole cascade/);
    const configured = await judgeSkillRmPointwise(sample, { ...options(), reasks: 0, failureScore: 0 });
    expect(configured).toMatchObject({ score: 0, invalid: true });
  });

  test('should run a verifier on the one response and offer no pairwise judge', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      calls(['run_resource', { id: 'math-verifier' }], ['run_resource', { id: 'genrm-judge' }]),
      call('final_answer', { score: 0.95, reason: 'matches the reference' }),
    );
    const result = await judgeSkillRmPointwise(sample, { ...options(), benchmarkVisible: true });
    expect(result.score).toBe(0.95);
    const [math, genrm] = toolResults(bodies()[2] as Body).slice(-2);
    expect(math).toMatchObject({ resource: 'math-verifier', summary: 'the response passes' });
    expect(genrm).toMatchObject({ error: 'not_runnable' });
  });

  test('should run the judge’s own program in the sandbox', async () => {
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      call('sandbox', { code: 'console.log(6 * 7)', language: 'javascript' }),
      call('final_answer', { score: 1, reason: '42 recomputed' }),
    );
    const result = await judgeSkillRmPointwise(sample, options());
    expect(result.score).toBe(1);
    const output = String(bodies()[2]?.messages.at(-1)?.content);
    expect(output).toMatch(/<sandbox-output-[0-9a-f]{12}>/);
    expect(output).toContain('"stdout": "42\\n"');
  });
});

describe('Skill-RM resource bindings', () => {
  test('should run each binding through the same source kind the registry holds', () => {
    for (const [name, kind] of bindingKinds) expect(sourceKinds.get(name)).toBe(kind);
  });
});
