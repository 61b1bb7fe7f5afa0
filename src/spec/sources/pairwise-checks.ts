import { z } from 'zod';
import { promptText, RewardKitError, referencesOf, type Sample } from '../../core/index.js';
import type { PairInput, PairwiseJudge, PairwiseJudgment } from '../../judges/index.js';
import { roundRobinPairs, roundRobinWinRates } from '../../judges/round-robin.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { SourceFailedError } from '../source-failed-error.js';
import type {
  GroupSourceCheck,
  GroupSourceFailure,
  SourceCheck,
  SourceOutcome,
  SourceServices,
} from '../source-kind.js';

/** What a pairwise judge source compares the response with. */
export const PairwiseAgainstSchema = z.enum(['reference', 'group']).default('reference');

/** The params every pairwise judge source shares. */
export const pairwiseSourceParams = {
  model: z
    .string()
    .min(1)
    .meta({ placeholder: 'name', short: '-m' })
    .describe('the judge: a model name from the models file'),
  against: PairwiseAgainstSchema.describe(
    'what the response is compared with: "reference" (the sample\'s reference answer) or "group" (every other rollout of its group, by win rate)',
  ),
  inconsistent_score: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('score of a pair whose two orders disagreed (kept apart from ties in the detail)'),
};

type JudgeOf = (services: SourceServices) => PairwiseJudge;
/** What a judge needs from the sample beyond the texts (OpenRS: its constraints; Skill-RM: its metadata too). */
type PairExtras = (sample: Sample) => Pick<PairInput, 'constraints' | 'metadata'>;
const noExtras: PairExtras = () => ({});

/** The judgment as evidence detail keeps it: its calls go to `Evidence.calls`, not in the detail. */
const withoutCalls = ({ calls: _, ...judgment }: PairwiseJudgment) => judgment;

const judgeSafely = async (
  judge: PairwiseJudge,
  pair: Parameters<PairwiseJudge['judge']>[0],
  signal: AbortSignal,
): Promise<PairwiseJudgment> => {
  try {
    return await judge.judge(pair, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    return { verdict: 'invalid', comparisons: [], calls: [], reason: (error as Error).message };
  }
};

/** The response judged against the sample's reference answer: win 1, tie 0.5, loss 0. */
export function againstReference(
  judgeOf: JudgeOf,
  inconsistentScore: number,
  extras: PairExtras = noExtras,
): SourceCheck {
  return async (sample, { services, signal }) => {
    const reference = referencesOf(sample)[0];
    if (reference === undefined) {
      throw new RewardKitError('RK_SOURCE_FAILED', 'the sample has no "reference" answer to compare against');
    }
    const judge = judgeOf(services);
    const judgment = await judgeSafely(
      judge,
      { prompt: promptText(sample), first: sample.response, second: reference, reference, ...extras(sample) },
      signal,
    );
    const usage = usageOf(judgment.calls);
    const calls = judgeCallsOf(judgment.calls);
    const detail = withoutCalls(judgment);
    if (judgment.verdict === 'invalid') {
      throw new SourceFailedError(
        `the judge gave no readable verdict: ${judgment.reason ?? 'unknown reason'}`,
        { detail, usage, calls },
      );
    }
    const score =
      judgment.verdict === 'first'
        ? 1
        : judgment.verdict === 'second'
          ? 0
          : judgment.verdict === 'tie'
            ? 0.5
            : inconsistentScore;
    const relation = {
      first: 'beats',
      second: 'loses to',
      tie: 'ties with',
      inconsistent: 'is judged inconsistently against',
    }[judgment.verdict];
    const warnings = [
      ...(judgment.warnings ?? []),
      ...(judgment.verdict === 'inconsistent'
        ? [`the two orders disagreed: scored ${inconsistentScore} (params.inconsistent_score)`]
        : []),
    ];
    return {
      score,
      verdict: judgment.verdict === 'first' ? 'pass' : 'fail',
      detail,
      usage,
      calls,
      reason: `${judge.name}: the response ${relation} the reference${judgment.decidedBy ? ` (decided by ${judgment.decidedBy})` : ` in ${judgment.comparisons.length} comparison(s)`}`,
      ...(warnings.length > 0 && { warnings }),
    };
  };
}

/**
 * Every rollout of a group judged against every other (a round robin, each pair in both orders as
 * the judge does them): score = win rate, ties and inconsistent pairs counting half (the latter at
 * `inconsistentScore`). A pair's calls are charged to its first rollout, so usage sums stay exact;
 * the full judgment and its calls (each naming the `opponent`) are kept there too, and the
 * opponent's detail points to it.
 */
export function withinGroup(
  judgeOf: JudgeOf,
  inconsistentScore: number,
  extras: PairExtras = noExtras,
): GroupSourceCheck {
  return async (samples, { services, signal }) => {
    if (samples.length < 2) {
      const why =
        samples[0]?.group === undefined
          ? 'the sample has no "group": give the rollouts of one prompt the same "group" id, on consecutive rows'
          : `group "${samples[0].group}" has only one sample: a round robin needs at least two`;
      return samples.map(() => ({ error: why }));
    }
    const judge = judgeOf(services);
    const pairs = roundRobinPairs(samples.length);
    const judgments = await Promise.all(
      pairs.map(([i, j]) => {
        const a = samples[i] as Sample;
        const b = samples[j] as Sample;
        if (promptText(a) !== promptText(b)) {
          return Promise.resolve<PairwiseJudgment>({
            verdict: 'invalid',
            comparisons: [],
            calls: [],
            reason: `samples "${a.id}" and "${b.id}" of one group have different prompts`,
          });
        }
        const reference = referencesOf(a)[0];
        return judgeSafely(
          judge,
          {
            prompt: promptText(a),
            first: a.response,
            second: b.response,
            ...extras(a),
            ...(reference !== undefined && { reference }),
          },
          signal,
        );
      }),
    );
    const matches = pairs.map(([first, second], k) => ({
      first,
      second,
      verdict: (judgments[k] as PairwiseJudgment).verdict,
    }));
    const records = roundRobinWinRates(samples.length, matches);
    return samples.map((sample, s): SourceOutcome | GroupSourceFailure => {
      const mine = pairs.flatMap(([i, j], k) =>
        i === s || j === s ? [{ i, j, judgment: judgments[k] as PairwiseJudgment }] : [],
      );
      const charged = mine.filter((m) => m.i === s);
      const usage = usageOf(charged.flatMap((m) => m.judgment.calls));
      const calls = charged.flatMap((m) =>
        judgeCallsOf(m.judgment.calls).map((call) => ({ ...call, opponent: (samples[m.j] as Sample).id })),
      );
      const record = records[s] as (typeof records)[number];
      const detail = {
        mode: 'round_robin',
        judge: judge.name,
        record: { ...record, winRate: record.winRate ?? null },
        matches: mine.map(({ i, j, judgment }) => {
          const opponent = (samples[i === s ? j : i] as Sample).id;
          const result =
            judgment.verdict === 'first'
              ? i === s
                ? 'win'
                : 'loss'
              : judgment.verdict === 'second'
                ? j === s
                  ? 'win'
                  : 'loss'
                : judgment.verdict;
          return i === s
            ? { opponent, result, judgment: withoutCalls(judgment) }
            : {
                opponent,
                result,
                ...(judgment.reason !== undefined && { reason: judgment.reason }),
                judgment_kept_with: opponent,
              };
        }),
      };
      if (record.winRate === undefined) {
        const reasons = [...new Set(mine.map((m) => m.judgment.reason).filter(Boolean))];
        return {
          error: `no match of this rollout had a readable verdict: ${reasons.join('; ')}`,
          detail,
          usage,
          calls,
        };
      }
      const readable = record.wins + record.losses + record.ties + record.inconsistent;
      const score = (record.wins + 0.5 * record.ties + inconsistentScore * record.inconsistent) / readable;
      return {
        score,
        verdict: score > 0.5 ? 'pass' : 'fail',
        detail,
        usage,
        calls,
        reason: `${judge.name} round robin in group "${sample.group}": ${record.wins} win(s), ${record.losses} loss(es), ${record.ties} tie(s), ${record.inconsistent} inconsistent, ${record.invalid} unreadable`,
        ...(record.invalid > 0 && {
          warnings: [`${record.invalid} match(es) had no readable verdict and were left out of the win rate`],
        }),
      };
    });
  };
}
