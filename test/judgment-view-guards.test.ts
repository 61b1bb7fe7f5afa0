import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AnyBenchDataset, BENCH_DATASETS, type BenchRecord, runBench } from '../src/bench/index.js';
import { benchRecordResult } from '../src/cli/bench-record-result.js';
import { pairwiseJudgeOf } from '../src/cli/pairwise-judge-of.js';
import { type RewardResult, type Sample, SampleSchema } from '../src/core/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { createEvaluator, parseSpec } from '../src/spec/index.js';
import { isBenchDetail } from '../web/src/judgments/bench-detail.js';
import { isClaimsDetail } from '../web/src/judgments/claims-detail.js';
import { isEvpvDetail } from '../web/src/judgments/evpv-detail.js';
import { isGenrmDetail } from '../web/src/judgments/genrm-detail.js';
import { judgmentView } from '../web/src/judgments/judgment-view.js';
import { isMedicalRubricDetail } from '../web/src/judgments/medical-rubric-detail.js';
import { isOpenrsPair, isOpenrsRoundRobin } from '../web/src/judgments/openrs-detail.js';
import { isToolPlanDetail } from '../web/src/judgments/tool-plan-detail.js';
import { repoRoot } from './cli-harness.js';
import { openrsComparisonRules, openrsIntentRule, ragAnswerRow } from './judge-fixtures.js';
import {
  type ScriptedOpenAIServer,
  type ScriptRule,
  startScriptedOpenAIServer,
} from './scripted-openai-server.js';

/**
 * The inspector draws a judge kind's evidence with its own view only when the view's guard
 * (web/src/judgments/*-detail.ts) accepts the stored detail; anything else falls back to a tree.
 * So a detail shape changed in src/ would silently stop the view being used. Here every kind with a
 * view is run for real (its spec source against the scripted server) and its guard must accept the
 * detail; then each field the view reads is broken one at a time and the guard must refuse it,
 * never throw.
 */
let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

/** One source judging `samples`; the run's model name keeps its script from answering another run. */
async function judge(
  model: string,
  source: string,
  rules: ScriptRule[],
  samples: Sample[],
): Promise<RewardResult[]> {
  server.script(...rules.map((rule) => ({ ...rule, match: { ...rule.match, model } })));
  const evaluator = createEvaluator(parseSpec(`sources:\n  - ${source}\n`, `${model}.yaml`), {
    models: new Map([
      [
        'judge',
        createOpenAICompatibleModel({
          name: 'judge',
          model,
          endpoints: [{ baseURL: server.url }],
          maxRetries: 0,
        }),
      ],
    ]),
  });
  try {
    return evaluator.needsGroups
      ? await evaluator.evaluateGroup(samples)
      : [await evaluator.evaluate(samples[0] as Sample)];
  } finally {
    await evaluator.close();
  }
}

/** A RAG answer with its documents and an inline rubric (as the browser test judges it). */
const ragAnswer = SampleSchema.parse(ragAnswerRow('rag', ['Acme had 1200 staff in 2023.']));

const json = (value: unknown) => ({ content: JSON.stringify(value) });

/** The claims (MARCH) judge: a Proposer's two claims, a Checker that can answer one. */
const claimsRules: ScriptRule[] = [
  {
    match: { role: 'system', contains: 'You split an answer' },
    reply: json({
      claims: [
        { question: 'How many staff did Acme have?', expected: '1,200' },
        { question: 'How many offices did Acme have?', expected: '40' },
      ],
    }),
  },
  {
    match: { role: 'system', contains: 'You answer questions using only the documents' },
    reply: json({
      items: [
        { id: 'C1', evidence: 'Acme had 1200 staff', answer: '1200' },
        { id: 'C2', evidence: '', answer: 'cannot answer' },
      ],
    }),
  },
];

const medicalRules: ScriptRule[] = [
  {
    match: { role: 'system', contains: 'You grade one answer to a health or medical question' },
    reply: json({
      grades: [
        { id: 'E1', evidence: 'Acme had 1,200 staff', reason: 'the exact count', grade: 'fully_met' },
        { id: 'I1', evidence: '', reason: 'no number for the offices', grade: 'not_met' },
        { id: 'P1', evidence: '', reason: 'nothing invented', grade: 'no_pitfall' },
      ],
    }),
  },
];

/** EVPV on a symbolic image: the response misreads the count, so the audit finds a contradiction. */
const evpvSample = SampleSchema.parse({
  id: 'evpv',
  prompt: 'One more apple: how many?',
  response:
    '<step>Count.<visual_dependency>apples on the table: 4</visual_dependency></step><step>4 + 1 = 5</step><answer>5</answer>',
  metadata: { image: { facts: { 'apples on the table': 3, 'cup colour': 'red' } } },
});
const evpvRules: ScriptRule[] = [
  {
    match: { contains: 'C1: apples on the table: 4' },
    reply: json({
      contradictions: [
        { claim: 'C1', constraint: 'apples on the table: 3', severity: 'High', explanation: 'count' },
      ],
    }),
  },
  {
    reply: json({
      steps: [
        { step: 1, score: -1, reason: 'misread the count' },
        { step: 2, score: 1, reason: 'right sum' },
      ],
    }),
  },
];

/** An ATP-Bench-like answer with two planned calls, one miss and an overall rating. */
const toolPlanSample = SampleSchema.parse({
  id: 'plan',
  prompt: 'How do I recognise a red panda?',
  response:
    'Red pandas are small.\n<image_search>red panda</image_search>\nLook at the ringed tail.\n<image_generation>a ringed tail, close up</image_generation>\nThey live in trees.',
  metadata: { doc: ['Red pandas have a ringed tail.'], images: [] },
});
const forCall = (argument: string) => new RegExp(`<argument-[0-9a-f]+>\\n${argument}\\n</argument-`);
const toolPlanRules: ScriptRule[] = [
  {
    match: { contains: forCall('red panda') },
    reply: json({ reason: 'shows the animal', necessity: 'necessary', appropriateness: 'appropriate' }),
  },
  {
    match: { contains: forCall('a ringed tail, close up') },
    reply: json({ reason: 'nice to have', necessity: 'helpful', appropriateness: 'partly_appropriate' }),
  },
  {
    match: { contains: 'looking for pictures it should have planned' },
    reply: json({
      missed: [
        { after: 'They live in trees.', tool: 'image_search', need: 'the habitat', importance: 'critical' },
      ],
    }),
  },
  {
    match: { contains: 'You rate the overall quality' },
    reply: json({ strengths: 'clear', weaknesses: 'no habitat picture', score: 7 }),
  },
];

/** OpenRS replies: the intent, a ground truth that matches, and each comparison by the text that is A. */
const openrsRules = (table: Record<string, 'A' | 'B' | 'same'>): ScriptRule[] => [
  openrsIntentRule,
  {
    match: { role: 'system', contains: 'You compare one response with the reference answer' },
    reply: json({ reason: 'same gist', verdict: 'matches' }),
  },
  ...openrsComparisonRules(table),
];
const rain = (id: string, response: string, extra: Record<string, unknown> = {}) =>
  SampleSchema.parse({ id, prompt: 'Write a line about rain.', response, ...extra });

/** A detail a view must draw: its kind, its guard, and the real run that makes it. */
interface Case {
  kind: string;
  name: string;
  guard: (value: unknown) => boolean;
  run: () => Promise<RewardResult[]>;
  /** The detail under test (default: the first result's evidence detail). */
  pick?: (results: RewardResult[]) => unknown;
  /** Drawn inside another detail's view: that detail, holding this one (a round robin's match). */
  within?: (results: RewardResult[], detail: unknown) => unknown;
  /** The fields the view reads, each as `path rule [enum]` (see `expectations`). */
  fields: string[];
}

/** Runs once however many cases read it. */
const once = (run: () => Promise<RewardResult[]>) => {
  let done: Promise<RewardResult[]> | undefined;
  return () => {
    done ??= run();
    return done;
  };
};

const source = (kind: string, params = '') => `kind: ${kind}\n    params: {model: judge, reasks: 0${params}}`;
const roundRobin = once(() =>
  judge(
    'openrs-group-judge',
    source('openrs', ', against: group'),
    openrsRules({ ALPHA: 'A', BETA: 'B', GAMMA: 'same' }),
    // With a reference, each match checks the ground truth first (both match: the rubric decides).
    ['ALPHA', 'BETA', 'GAMMA'].map((text) =>
      rain(text.slice(0, 1).toLowerCase(), text, { group: 'g', reference: 'Rain falls.' }),
    ),
  ),
);
/** The middle rollout: its match with a is kept with a, its match with c is kept here. */
const middleRollout = (results: RewardResult[]) => results[1]?.evidence[0]?.detail as { matches: unknown[] };

/** The fields of an OpenRS pair judgment decided by its rubric. */
const openrsPairFields = (at: string) =>
  [
    'verdict req',
    'detail req',
    'detail.decidedBy req',
    'detail.groundTruth opt',
    'detail.groundTruth.first req',
    'detail.groundTruth.first.score reqnull',
    'detail.groundTruth.first.method req',
    'detail.groundTruth.first.reason req',
    'detail.groundTruth.second req',
    'detail.intent opt',
    'detail.intent.query_type req',
    'detail.intent.primary_need req',
    'detail.intent.secondary_needs opt',
    'detail.intent.secondary_needs.0 opt',
    'detail.intent.user_context opt',
    'detail.intent.domains opt',
    'detail.orders req',
    'detail.orders.0 opt',
    'detail.orders.0.order req enum',
    'detail.orders.0.output opt',
    'detail.orders.0.output.differences opt',
    'detail.orders.0.output.criteria req',
    'detail.orders.0.output.criteria.0.name req',
    'detail.orders.0.output.criteria.0.type req',
    'detail.orders.0.output.criteria.0.evidence_a opt',
    'detail.orders.0.output.criteria.0.evidence_b opt',
    'detail.orders.0.output.criteria.0.reason opt',
    'detail.orders.0.output.criteria.0.winner req enum',
    'detail.orders.0.output.criteria.0.strength req',
    'detail.orders.0.aggregate opt',
    'detail.orders.0.aggregate.score req',
    'detail.orders.0.aggregate.winner req',
    'detail.orders.0.aggregate.decidedByHardFlaw opt',
    'detail.warnings opt',
  ].map((field) => `${at}${field}`);

/** GenRM against the reference: each order scores the response 8 and the reference 3, by position. */
const genrmRules: ScriptRule[] = [
  {
    match: { contains: /Rain taps the glass\.[\s\S]*Rain falls\./ },
    reply: json({ principles: ['vivid'], critique: 'the response is vivid', score_1: 8, score_2: 3 }),
  },
  {
    match: { contains: /Rain falls\.[\s\S]*Rain taps the glass\./ },
    reply: json({ principles: ['vivid'], critique: 'the reference is flat', score_1: 3, score_2: 8 }),
  },
];

/**
 * `rewardkit bench` on one pair, the labelled better response shown second (seed 1), the GenRM
 * judge picking it in both orders; each record stored as a bench run stores it.
 */
const benchRun = once(async () => {
  server.script(
    {
      match: { model: 'bench-judge', contains: /<response-1-\w+>\nGOOD/ },
      reply: json({ principles: ['p'], critique: 'c', score_1: 9, score_2: 2 }),
    },
    {
      match: { model: 'bench-judge' },
      reply: json({ principles: ['p'], critique: 'c', score_1: 2, score_2: 9 }),
    },
  );
  const model = createOpenAICompatibleModel({
    name: 'judge',
    model: 'bench-judge',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-guard-'));
  writeFileSync(
    join(dir, 'pairs.jsonl'),
    `${JSON.stringify({ id: 'p-1', prompt: 'Rain?', chosen: 'GOOD soft rain', rejected: 'BAD wet' })}\n`,
  );
  const records: BenchRecord[] = [];
  await runBench({
    dataset: BENCH_DATASETS.pairwise as AnyBenchDataset,
    input: join(dir, 'pairs.jsonl'),
    output: join(dir, 'out.jsonl'),
    context: {
      judge: pairwiseJudgeOf('genrm', model, { reasks: 0 }),
      model,
      mode: 'listwise',
      seed: 1,
      reasks: 0,
    },
    onWritten: async (record) => {
      records.push(record);
    },
  });
  return records.map((record) => benchRecordResult(record, 'genrm'));
});

const CASES: Case[] = [
  {
    kind: 'bench',
    name: 'bench on a pair',
    guard: isBenchDetail,
    run: benchRun,
    fields: [
      'judge req',
      'key req',
      'kind req enum',
      'outcome req enum',
      'verdict opt',
      'better opt enum',
      'comparisons opt',
      'comparisons.0 opt',
      'comparisons.0.order req enum',
      'comparisons.0.vote req',
      'comparisons.0.winner opt enum',
      'lengths opt',
      'lengths.first req',
      'lengths.second req',
    ],
  },
  {
    kind: 'genrm',
    name: 'genrm against the reference',
    guard: isGenrmDetail,
    run: () =>
      judge('genrm-judge', source('genrm'), genrmRules, [
        rain('genrm', 'Rain taps the glass.', { reference: 'Rain falls.' }),
      ]),
    fields: [
      'verdict req enum',
      'comparisons req',
      'comparisons.0 opt',
      'comparisons.0.order req enum',
      'comparisons.0.vote req',
      'comparisons.0.winner opt enum',
      'comparisons.0.output opt',
      'comparisons.0.output.principles req',
      'comparisons.0.output.principles.0 opt',
      'comparisons.0.output.critique req',
      'comparisons.0.output.score_1 req',
      'comparisons.0.output.score_2 req',
    ],
  },
  {
    kind: 'claims',
    name: 'claims',
    guard: isClaimsDetail,
    run: () => judge('claims-judge', source('claims'), claimsRules, [ragAnswer]),
    fields: [
      'status opt',
      'score opt',
      'verdict opt',
      'aggregate opt',
      'figures opt',
      'claims req',
      'claims.0 opt',
      'claims.0.id req',
      'claims.0.question req',
      'claims.0.expected req',
      'claims.0.verdict opt enum',
      'claims.0.sum opt',
      'claims.0.tie opt',
      'claims.0.label opt',
      'claims.0.votes opt',
      'claims.0.votes.0.run opt',
      'claims.0.votes.0.status req enum',
      'claims.0.votes.0.evidence opt',
      'claims.0.votes.0.answer opt',
      'claims.0.votes.0.match req',
      'claims.0.votes.0.by opt',
      'claims.0.votes.0.point opt',
      'runs opt',
      'runs.0.run req',
      'runs.0.missing opt',
      'runs.0.unknown opt',
      'runs.0.duplicates opt',
      'thinkDropped opt',
      'flags opt',
      'warnings opt',
    ],
  },
  {
    kind: 'medical_rubric',
    name: 'medical_rubric',
    guard: isMedicalRubricDetail,
    run: () => judge('medical-judge', source('medical_rubric'), medicalRules, [ragAnswer]),
    fields: [
      'rubric_id opt',
      'rubric_from opt',
      'score req',
      'breakdown req',
      ...['essential', 'important', 'highlight'].flatMap((s) => [
        `breakdown.${s} req`,
        `breakdown.${s}.credit req`,
        `breakdown.${s}.max req`,
      ]),
      'breakdown.pitfall req',
      'breakdown.pitfall.deduction req',
      'breakdown.pitfall.max req',
      'breakdown.extraCredit opt',
      'breakdown.essentialCap optnull',
      'breakdown.rules req',
      'breakdown.raw opt',
      'breakdown.min opt',
      'breakdown.max opt',
      'grades req',
      'grades.0 opt',
      'grades.0.id req',
      'grades.0.section req enum',
      'grades.0.title opt',
      'grades.0.weight opt',
      'grades.0.grade req enum',
      'grades.0.evidence opt',
      'grades.0.reason opt',
    ],
  },
  {
    kind: 'evpv',
    name: 'evpv',
    guard: isEvpvDetail,
    run: () => judge('evpv-judge', source('evpv'), evpvRules, [evpvSample]),
    fields: [
      'final_answer opt',
      'checklist req',
      'checklist.0 opt',
      'audit req',
      'audit.status req enum',
      'audit.p req',
      'audit.contradictions opt',
      'audit.contradictions.0.claim req',
      'audit.contradictions.0.constraint req',
      'audit.contradictions.0.severity req',
      'audit.contradictions.0.explanation opt',
      'step_scores req',
      'step_scores.0 opt',
      'step_judgments opt',
      'step_judgments.0.score req',
      'step_judgments.0.reason opt',
      'visual_steps req',
      'gated_scores req',
      'scores req',
      'constraints opt',
      'constraints.caption req',
      'constraints.key_facts req',
      'constraints.uncertain opt',
      'extraction opt',
      'extraction.source req',
    ],
  },
  {
    kind: 'tool_plan',
    name: 'tool_plan',
    guard: isToolPlanDetail,
    run: () => judge('tool-plan-judge', source('tool_plan'), toolPlanRules, [toolPlanSample]),
    fields: [
      'status opt',
      'score optnull',
      'components optnull',
      'components.precision optnull',
      'components.recall optnull',
      'components.overall optnull',
      'calls_planned req',
      'calls_planned.0 opt',
      'calls_planned.0.index req',
      'calls_planned.0.tool req',
      'calls_planned.0.argument req',
      'calls_planned.0.line opt',
      'calls_planned.0.column opt',
      'calls_planned.0.judgment optnull',
      'calls_planned.0.judgment.reason req',
      'calls_planned.0.judgment.necessity req',
      'calls_planned.0.judgment.appropriateness req',
      'calls_planned.0.judgment.score opt',
      'findings opt',
      'missed optnull',
      'missed.0.after req',
      'missed.0.tool req',
      'missed.0.need req',
      'missed.0.importance req',
      'overall optnull',
      'overall.strengths req',
      'overall.weaknesses req',
      'overall.score req',
      'warnings opt',
    ],
  },
  {
    kind: 'openrs',
    name: 'openrs against the reference, decided by the rubric after a constraint pre-check',
    guard: isOpenrsPair,
    run: () =>
      judge('openrs-rubric-judge', source('openrs'), openrsRules({ ALPHA: 'A', 'Rain falls.': 'B' }), [
        rain('r', 'ALPHA', {
          reference: 'Rain falls.',
          metadata: { instruction_id_list: ['punctuation:no_comma'], kwargs: [null] },
        }),
      ]),
    fields: [
      ...openrsPairFields(''),
      'detail.constraints opt',
      'detail.constraints.0 opt',
      'detail.constraints.0.constraint any',
      'detail.constraints.0.method req',
      'detail.constraints.0.first req',
      'detail.constraints.0.first.passed reqnull',
      'detail.constraints.0.first.reason req',
      'detail.constraints.0.second req',
    ],
  },
  {
    kind: 'openrs',
    name: 'openrs against the reference, decided by the ground truth',
    guard: isOpenrsPair,
    run: () =>
      judge('openrs-truth-judge', source('openrs'), openrsRules({}), [
        SampleSchema.parse({ id: 't', prompt: 'What is 2+2?', response: 'The answer is 5.', reference: '4' }),
      ]),
    fields: [
      'verdict req',
      'detail req',
      'detail.decidedBy req',
      'detail.orders req',
      'detail.groundTruth opt',
      'detail.groundTruth.first req',
      'detail.groundTruth.first.score reqnull',
      'detail.groundTruth.first.method req',
      'detail.groundTruth.second req',
      'detail.groundTruth.second.reason req',
    ],
  },
  {
    kind: 'openrs',
    name: 'openrs round robin in a group',
    guard: isOpenrsRoundRobin,
    run: roundRobin,
    pick: middleRollout,
    fields: [
      'mode req enum',
      'record req',
      'record.wins req',
      'record.losses req',
      'record.ties req',
      'record.inconsistent req',
      'record.winRate optnull',
      'matches req',
      'matches.0 opt',
      'matches.0.opponent req',
      'matches.0.result req',
      'matches.0.judgment_kept_with opt',
      'matches.1.opponent req',
      // The judgment is drawn only if it is a pair (below); the round robin is drawn without it.
      'matches.1.judgment any',
    ],
  },
  {
    kind: 'openrs',
    name: "openrs round robin in a group: a match's judgment kept with this rollout",
    guard: isOpenrsPair,
    run: roundRobin,
    pick: (results) => (middleRollout(results).matches[1] as { judgment?: unknown }).judgment,
    within: (results, judgment) => {
      const roundRobin = structuredClone(middleRollout(results));
      (roundRobin.matches[1] as { judgment?: unknown }).judgment = judgment;
      return roundRobin;
    },
    fields: openrsPairFields(''),
  },
];

describe('every judge kind with a view in the inspector', () => {
  test('should have a real detail here (a new view needs a case above)', () => {
    // The views are keyed by the evidence's kind in judgment-view.tsx's VIEWS.
    const text = readFileSync(join(repoRoot, 'web/src/judgments/judgment-view.tsx'), 'utf8');
    const block = /const VIEWS[^{]*\{([^}]*)\}/.exec(text)?.[1] ?? '';
    const kinds = [...block.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]);
    expect(kinds.length).toBeGreaterThan(0);
    expect([...new Set(CASES.map((c) => c.kind))].sort()).toEqual(kinds.sort());
  });
});

type Path = Array<string | number>;
type Breakage = 'wrong type' | 'missing' | 'null' | 'not one of its values';

/** What the guard must do with each breakage of a field, by the field's rule. */
const expectations: Record<string, Record<Exclude<Breakage, 'not one of its values'>, boolean>> = {
  /** Read and always there. */
  req: { 'wrong type': false, missing: false, null: false },
  /** Read where present (an array element: removing it leaves a valid array). */
  opt: { 'wrong type': false, missing: true, null: false },
  /** May be absent or null. */
  optnull: { 'wrong type': false, missing: true, null: true },
  /** Always there, may be null. */
  reqnull: { 'wrong type': false, missing: false, null: true },
  /** Not read as any one type. */
  any: { 'wrong type': true, missing: true, null: true },
};

const parsePath = (path: string): Path =>
  path.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key));
const at = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);

/** A value of another JSON type than `value`. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return { 0: value[0], length: value.length };
  if (value !== null && typeof value === 'object') return 'an object once';
  return 'not null';
}

/** A copy of `detail` with one field broken. */
function broken(detail: unknown, path: Path, how: Breakage): unknown {
  const copy = structuredClone(detail);
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  if (how === 'missing') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    parent[key] = how === 'null' ? null : how === 'wrong type' ? wrongType(parent[key]) : 'no-such-value';
  }
  return copy;
}

/** Every path in `value`, containers and leaves. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** The guard's answer, which must be a boolean: a throwing guard would break the page, not fall back. */
function answer(guard: Case['guard'], value: unknown): boolean {
  let result: unknown;
  expect(() => {
    result = guard(value);
  }).not.toThrow();
  expect(typeof result).toBe('boolean');
  return result as boolean;
}

const details = new Map<Case, Promise<unknown>>();
/** The case's real detail; every result of its run must have been scored. */
function detailOf(c: Case): Promise<unknown> {
  let detail = details.get(c);
  if (!detail) {
    detail = c.run().then((results) => {
      for (const r of results) {
        expect(r.errors, `${r.id}: ${r.errors.join('; ')}`).toEqual([]);
        expect(r.status).toBe('ok');
        expect(r.evidence[0]?.kind).toBe(c.kind);
      }
      return c.pick ? c.pick(results) : results[0]?.evidence[0]?.detail;
    });
    details.set(c, detail);
  }
  return detail;
}

/**
 * The page's view of `detail` as HTML, or undefined where it falls back to the tree; a view that
 * throws on a detail its guard let through fails here, as it would break the page.
 */
async function drawn(c: Case, detail: unknown): Promise<string | undefined> {
  const shown = c.within ? c.within(await c.run(), detail) : detail;
  const view = judgmentView(c.kind, shown);
  return view && renderToStaticMarkup(view);
}

describe.each(CASES.map((c) => [c.name, c] as const))('the view of %s', (_name, c) => {
  test('should accept the detail a real run stores, and draw it', async () => {
    const detail = await detailOf(c);
    expect(detail).toBeDefined();
    expect(answer(c.guard, detail)).toBe(true);
    expect(await drawn(c, detail)).toContain(`data-judgment="${c.kind}"`);
  });

  test.each(c.fields)('should refuse %s broken, never throw', async (field) => {
    const [path = '', rule = '', isEnum] = field.split(' ');
    const detail = await detailOf(c);
    const keys = parsePath(path);
    // The table names fields of the real detail, so it tests what a run really stores.
    expect(at(detail, keys), `${path} is not in the real detail`).not.toBeUndefined();
    const expected = expectations[rule];
    if (!expected) throw new Error(`unknown rule "${rule}" for ${path}`);
    const got = Object.fromEntries(
      Object.keys(expected).map((how) => [how, answer(c.guard, broken(detail, keys, how as Breakage))]),
    );
    expect(got).toEqual(expected);
    if (isEnum === 'enum') expect(answer(c.guard, broken(detail, keys, 'not one of its values'))).toBe(false);
    if (!c.within && !expected.missing) {
      // Refused means the page shows the stored detail as a tree instead of the view.
      expect(await drawn(c, broken(detail, keys, 'missing'))).toBeUndefined();
    }
  });

  test('should answer true or false, never throw, and draw whatever it accepts, with any one field broken', async () => {
    const detail = await detailOf(c);
    for (const path of pathsOf(detail)) {
      for (const how of ['wrong type', 'missing', 'null', 'not one of its values'] as const) {
        const junk = broken(detail, path, how);
        if (answer(c.guard, junk)) {
          await expect(drawn(c, junk), `${path.join('.')} ${how}`).resolves.toBeDefined();
        }
      }
    }
    for (const junk of [undefined, null, 0, '', 'detail', [], [detail], {}, { detail }]) {
      expect(answer(c.guard, junk)).toBe(false);
    }
  });
});
