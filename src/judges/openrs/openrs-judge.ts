import type { CallTrace, ChatModel } from '../../llm/index.js';
import { tagCallOrder } from '../../llm/judge-call-of.js';
import { type CodeSandbox, createCodeSandbox } from '../../verify/code/index.js';
import type { RoleCallOptions } from '../judge-role.js';
import type { OrderedComparison, PairInput, PairwiseJudge, PairwiseJudgment } from '../pairwise-judge.js';
import type { Constraint } from './constraint.js';
import { type ConstraintResult, checkConstraints } from './constraint-check.js';
import { type ComparisonOutput, compareResponses } from './criterion-comparison.js';
import type { DomainPool } from './domain-pool.js';
import { checkGroundTruth, type GroundTruthCheck } from './ground-truth-check.js';
import { analyzeIntent, type Intent } from './intent-analysis.js';
import { aggregateOpenrs, combineOrders, type OpenrsAggregate } from './openrs-aggregate.js';
import { loadOpenrsFiles, type OpenrsFiles } from './openrs-files.js';
import { decideByConstraints, decideByGroundTruth } from './precheck-decision.js';

export interface OpenrsOptions {
  model: ChatModel;
  /** A meta-rubric markdown file (default: the one shipped in `presets/openrs/`). */
  metaRubric?: string;
  /** A folder of domain pool markdown files (default: `presets/openrs/domains/`). */
  domains?: string;
  /** Already loaded files; takes precedence over the two paths. */
  files?: OpenrsFiles;
  /** Judge both orders with the symmetric rule (default true). */
  bothOrders?: boolean;
  /** Re-asks after unreadable output, per call (default 2). */
  reasks?: number;
  temperature?: number;
  /** Where judge-written constraint checkers (JavaScript, run in QuickJS) run; asked for only when one runs (default: a fresh sandbox). */
  codeSandbox?: () => CodeSandbox;
}

/** A pair with the optional ground truth (`reference`) and instruction constraints. */
export interface OpenrsPair extends PairInput {
  constraints?: readonly Constraint[];
}

/** How the pre-check labels the two responses when it decides the pair. */
export type VerifiableLabel = 'verifiable_good' | 'verifiable_bad';

/** One order of the rubric comparison; `A` is the first response in `forward`, the second in `backward`. */
export interface OpenrsOrder {
  order: 'forward' | 'backward';
  output?: ComparisonOutput;
  aggregate?: OpenrsAggregate;
  invalid?: string;
}

/** Everything OpenRS found, for the trace. */
export interface OpenrsDetail {
  decidedBy: 'ground_truth' | 'constraints' | 'rubric' | 'none';
  groundTruth?: { first: GroundTruthCheck; second: GroundTruthCheck };
  constraints?: ConstraintResult[];
  labels?: { first: VerifiableLabel; second: VerifiableLabel };
  intent?: Intent;
  domains?: string[];
  orders: OpenrsOrder[];
  /** Pre-checks that could not run and were passed over, never silently. */
  warnings: string[];
}

export type OpenrsJudgment = PairwiseJudgment & { detail: OpenrsDetail };

const labels = (winner: 'first' | 'second') =>
  winner === 'first'
    ? ({ first: 'verifiable_good', second: 'verifiable_bad' } as const)
    : ({ first: 'verifiable_bad', second: 'verifiable_good' } as const);

/** The pair's own terms for an order's aggregate: in `backward`, A is the second response. */
function pairWinner(order: 'forward' | 'backward', aggregate: OpenrsAggregate): 'first' | 'second' | 'tie' {
  if (aggregate.winner === 'tie') return 'tie';
  return (aggregate.winner === 'A') === (order === 'forward') ? 'first' : 'second';
}

/**
 * OpenRS on one pair: pointwise verifiable pre-checks (ground truth, then every instruction
 * constraint) that decide the pair outright when they separate the responses; otherwise intent
 * analysis on the query alone, one criterion-wise comparison per order under the meta-rubric and
 * the chosen domain pools, aggregation in code (`aggregateOpenrs`), and the symmetric both-orders
 * rule (`combineOrders`). An unreadable intent or comparison makes the judgment `invalid` with its
 * reason: the symmetric rule needs both orders.
 */
export async function judgeOpenrs(
  pair: OpenrsPair,
  options: OpenrsOptions & { signal?: AbortSignal },
): Promise<OpenrsJudgment> {
  const files =
    options.files ?? loadOpenrsFiles({ metaRubric: options.metaRubric, domains: options.domains });
  const calls: CallTrace[] = [];
  const detail: OpenrsDetail = { decidedBy: 'none', orders: [], warnings: [] };
  const callOptions: RoleCallOptions = {
    model: options.model,
    reasks: options.reasks ?? 2,
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.signal !== undefined && { signal: options.signal }),
  };
  const decided = (by: 'ground_truth' | 'constraints', winner: 'first' | 'second'): OpenrsJudgment => ({
    verdict: winner,
    comparisons: [],
    calls,
    detail: { ...detail, decidedBy: by, labels: labels(winner) },
  });

  if (pair.reference !== undefined) {
    const check = (response: string) =>
      checkGroundTruth(
        { prompt: pair.prompt, response, reference: pair.reference as string },
        callOptions,
        calls,
      );
    const groundTruth = { first: await check(pair.first), second: await check(pair.second) };
    detail.groundTruth = groundTruth;
    for (const side of ['first', 'second'] as const) {
      if (groundTruth[side].score === null)
        detail.warnings.push(`ground truth of the ${side} response unchecked: ${groundTruth[side].reason}`);
    }
    const winner = decideByGroundTruth(groundTruth.first.score, groundTruth.second.score);
    if (winner) return decided('ground_truth', winner);
  }

  if (pair.constraints !== undefined && pair.constraints.length > 0) {
    let sandbox: CodeSandbox | undefined;
    const checked = await checkConstraints(
      { prompt: pair.prompt, first: pair.first, second: pair.second, constraints: pair.constraints },
      { ...callOptions, sandbox: () => (sandbox ??= options.codeSandbox?.() ?? createCodeSandbox()) },
      calls,
    );
    detail.constraints = checked.results;
    detail.warnings.push(...checked.warnings);
    const winner = decideByConstraints(checked.results);
    if (winner) return decided('constraints', winner);
  }

  detail.decidedBy = 'rubric';
  const comparisons: OrderedComparison[] = [];
  const invalid = (reason: string): OpenrsJudgment => ({
    verdict: 'invalid',
    comparisons,
    calls,
    detail,
    reason,
  });
  const intent = await analyzeIntent(pair.prompt, files.domains, callOptions, calls);
  if (intent.status === 'invalid') return invalid(`intent analysis: ${intent.reason}`);
  detail.intent = intent.value;
  detail.domains = intent.value.domains;
  const pools = intent.value.domains.map((id) => files.domains.get(id) as DomainPool);

  const orders: Array<'forward' | 'backward'> =
    options.bothOrders === false ? ['forward'] : ['forward', 'backward'];
  for (const order of orders) {
    const [a, b] = order === 'forward' ? [pair.first, pair.second] : [pair.second, pair.first];
    const orderCalls: CallTrace[] = [];
    const outcome = await compareResponses(
      {
        prompt: pair.prompt,
        a,
        b,
        intent: intent.value,
        ...(pair.reference !== undefined && { reference: pair.reference }),
      },
      { metaRubric: files.metaRubric, pools },
      callOptions,
      orderCalls,
    );
    calls.push(...tagCallOrder(order, orderCalls));
    if (outcome.status === 'invalid') {
      detail.orders.push({ order, invalid: outcome.reason });
      comparisons.push({ order, vote: 0, invalid: outcome.reason });
      continue;
    }
    const aggregate = aggregateOpenrs(outcome.value.criteria);
    detail.orders.push({ order, output: outcome.value, aggregate });
    comparisons.push({ order, vote: 0, winner: pairWinner(order, aggregate) });
  }
  const unreadable = detail.orders.filter((o) => o.invalid !== undefined);
  if (unreadable.length > 0)
    return invalid(unreadable.map((o) => `${o.order} comparison: ${o.invalid}`).join('; '));
  const [forward, backward] = detail.orders.map((o) => o.aggregate?.score ?? 0) as [
    number,
    number | undefined,
  ];
  const verdict =
    backward === undefined
      ? forward > 0
        ? 'first'
        : forward < 0
          ? 'second'
          : 'tie'
      : combineOrders(forward, backward);
  return { verdict, comparisons, calls, detail };
}

/** OpenRS behind the common pairwise-judge interface; the markdown files are loaded once, here. */
export function createOpenrsJudge(options: OpenrsOptions): PairwiseJudge {
  const files =
    options.files ?? loadOpenrsFiles({ metaRubric: options.metaRubric, domains: options.domains });
  return {
    name: 'openrs',
    judge: async (pair, call) => {
      const judgment = await judgeOpenrs(pair, {
        ...options,
        files,
        ...(call?.signal !== undefined && { signal: call.signal }),
      });
      const { decidedBy, warnings } = judgment.detail;
      return {
        ...judgment,
        ...(decidedBy !== 'none' && { decidedBy: decidedBy.replace('_', ' ') }),
        ...(warnings.length > 0 && { warnings }),
      };
    },
  };
}
