import type { OrderedComparison, PairInput, PairwiseJudge, PairwiseJudgment } from '../../judges/index.js';
import type { CallTrace } from '../../llm/index.js';
import { tagCallOrder } from '../../llm/judge-call-of.js';
import { type EpisodeResult, runSkillRmEpisode } from './run-skill-rm-episode.js';
import { DEFAULT_SKILL_RM_CAPS } from './skill-rm-caps.js';
import type { SkillRmOptions } from './skill-rm-options.js';

/** A pair for Skill-RM: the common pair plus the sample's metadata for its per-sample resources. */
export type SkillRmPair = PairInput;

/** One order's episode in the judgment's detail. */
export interface SkillRmOrderDetail {
  readonly order: 'forward' | 'backward';
  readonly status: EpisodeResult['status'];
  /** The verdict in shown positions (A was `first` in the forward order). */
  readonly shown?: 'A' | 'B' | 'tie';
  readonly route?: string;
  readonly confidence?: number;
  readonly usedResources?: readonly string[];
  readonly reason?: string;
  readonly trace: EpisodeResult['trace'];
}

const inPairTerms = (shown: 'A' | 'B' | 'tie', order: 'forward' | 'backward'): 'first' | 'second' | 'tie' =>
  shown === 'tie' ? 'tie' : (shown === 'A') === (order === 'forward') ? 'first' : 'second';

/**
 * Skill-RM as a pairwise judge: one episode per order (A/B, then B/A: a position swap), each
 * verdict mapped back to the pair's terms; both orders agreeing gives that verdict, disagreeing
 * orders give `inconsistent`. A verdict needs every order: an order that ends `invalid` after the
 * whole cascade makes the judgment `invalid` (the next order is not run). `decidedBy` names the
 * hard resources whose result favoured the winner in every order.
 */
export async function judgeSkillRmPair(
  pair: SkillRmPair,
  options: SkillRmOptions & { bothOrders?: boolean; signal?: AbortSignal },
): Promise<PairwiseJudgment> {
  const orders: Array<'forward' | 'backward'> =
    options.bothOrders === false ? ['forward'] : ['forward', 'backward'];
  const caps = { ...DEFAULT_SKILL_RM_CAPS, ...options.caps };
  const sample = {
    prompt: pair.prompt,
    ...(pair.reference !== undefined && { reference: pair.reference }),
    ...(pair.metadata !== undefined && { metadata: pair.metadata }),
    ...(pair.constraints !== undefined && { checklist: pair.constraints }),
  };
  const comparisons: OrderedComparison[] = [];
  const calls: CallTrace[] = [];
  const details: SkillRmOrderDetail[] = [];
  const warnings: string[] = [];
  const hardWins: string[][] = [];
  for (const order of orders) {
    const shown = order === 'forward' ? { A: pair.first, B: pair.second } : { A: pair.second, B: pair.first };
    const episode = await runSkillRmEpisode(sample, shown, {
      model: options.model,
      skill: options.skill,
      runtime: options.runtime,
      caps,
      benchmarkVisible: options.benchmarkVisible ?? false,
      reasks: options.reasks ?? 2,
      temperature: options.temperature,
      signal: options.signal,
    });
    calls.push(...tagCallOrder(order, episode.calls));
    warnings.push(...episode.warnings.map((w) => `${order}: ${w}`));
    if (episode.status === 'invalid') {
      comparisons.push({ order, vote: 0, invalid: episode.reason });
      details.push({ order, status: 'invalid', reason: episode.reason, trace: episode.trace });
      break;
    }
    const answer = episode.answer;
    if (answer.mode !== 'pairwise') throw new Error('a pairwise episode answered with a score');
    const winner = inPairTerms(answer.verdict, order);
    comparisons.push({ order, vote: 0, winner });
    hardWins.push(
      episode.trace.evidence
        .filter(
          (e) =>
            e.hard && (e.favours === 'A' || e.favours === 'B') && inPairTerms(e.favours, order) === winner,
        )
        .map((e) => e.resource),
    );
    details.push({
      order,
      status: 'ok',
      shown: answer.verdict,
      route: episode.route,
      ...(answer.confidence !== undefined && { confidence: answer.confidence }),
      usedResources: answer.usedResources,
      ...(answer.reason !== undefined && { reason: answer.reason }),
      trace: episode.trace,
    });
  }
  const detail = { skill: options.skill.name, orders: details };
  const invalid = comparisons.find((c) => c.invalid !== undefined);
  const base = { comparisons, calls, detail, ...(warnings.length > 0 && { warnings }) };
  if (invalid) {
    return { verdict: 'invalid', ...base, reason: `${invalid.order} order: ${invalid.invalid}` };
  }
  const winners = new Set(comparisons.map((c) => c.winner));
  const verdict =
    winners.size === 1 ? (comparisons[0]?.winner as 'first' | 'second' | 'tie') : 'inconsistent';
  const decisive =
    verdict === 'first' || verdict === 'second'
      ? (hardWins[0] ?? []).filter((id) => hardWins.every((ids) => ids.includes(id)))
      : [];
  return { verdict, ...base, ...(decisive.length > 0 && { decidedBy: decisive.join(', ') }) };
}

/** Skill-RM behind the common pairwise-judge interface (benchmarks, specs, BRPO, round robins). */
export function createSkillRmJudge(options: SkillRmOptions & { bothOrders?: boolean }): PairwiseJudge {
  return {
    name: 'skill_rm',
    judge: (pair, call) =>
      judgeSkillRmPair(pair, { ...options, ...(call?.signal && { signal: call.signal }) }),
  };
}
