import { z } from 'zod';
import { bootstrapMeanInterval } from '../../core/bootstrap-mean.js';
import { mapConcurrent } from '../../core/index.js';
import type { MetaRubric } from '../openrs/meta-rubric.js';
import { evolutionFitness, FitnessSchema, pairFitness } from './evolution-fitness.js';
import type { LabelledPair } from './labelled-pair.js';
import {
  judgeLabelledPair,
  type PairJudgeOptions,
  type PairOutcome,
  PairOutcomeSchema,
} from './pair-outcome.js';
import { answerSameRequestOnce } from './same-request-once.js';

const IntervalSchema = z.tuple([z.number(), z.number()]);

/** One meta-rubric's fitness on the held-out pairs, with the bootstrap interval of the mean. */
export const HeldOutFitnessSchema = FitnessSchema.extend({
  interval: IntervalSchema.optional(),
  outcomes: z.array(PairOutcomeSchema),
});
export type HeldOutFitness = z.infer<typeof HeldOutFitnessSchema>;

/** The held-out check as reported and stored. */
export const HeldOutReportSchema = z.object({
  pairs: z.number().int(),
  seed: HeldOutFitnessSchema,
  best: HeldOutFitnessSchema,
  /** best − seed over the pairs both read, paired, with its interval. */
  difference: z.object({ pairs: z.number().int(), mean: z.number(), interval: IntervalSchema }).optional(),
});
export type HeldOutReport = z.infer<typeof HeldOutReportSchema>;

const scores = (outcomes: readonly PairOutcome[], tiePenalty: number) =>
  outcomes.map((o) => pairFitness(o.outcome, tiePenalty));

/**
 * The held-out check: the seed and the best meta-rubric judged on pairs evolution never saw. The
 * intervals are percentile bootstraps (seeded) of the per-pair fitness (1 right, −λ tie, 0 wrong;
 * failed pairs left out), whose mean is the fitness.
 */
export async function heldOutCheck(input: {
  seed: MetaRubric;
  best: MetaRubric;
  pairs: readonly LabelledPair[];
  judge: PairJudgeOptions;
  tiePenalty: number;
  concurrency: number;
  bootstrapSeed?: number;
}): Promise<HeldOutReport> {
  const bootstrap = { seed: input.bootstrapSeed ?? 0 };
  // The seed and the best share each pair's intent analysis, as in evolution.
  const judge = { ...input.judge, model: answerSameRequestOnce(input.judge.model) };
  const run = async (metaRubric: MetaRubric): Promise<HeldOutFitness> => {
    const outcomes = await mapConcurrent(input.pairs, input.concurrency, (pair) =>
      judgeLabelledPair(pair, metaRubric, judge),
    );
    const values = scores(outcomes, input.tiePenalty).filter((v): v is number => v !== undefined);
    return {
      ...evolutionFitness(outcomes, input.tiePenalty),
      ...(values.length > 0 && { interval: bootstrapMeanInterval(values, bootstrap) }),
      outcomes,
    };
  };
  const seed = await run(input.seed);
  const best = input.best.text === input.seed.text ? seed : await run(input.best);
  const [a, b] = [scores(best.outcomes, input.tiePenalty), scores(seed.outcomes, input.tiePenalty)];
  const paired = a.flatMap((x, i) => (x !== undefined && b[i] !== undefined ? [x - (b[i] as number)] : []));
  return {
    pairs: input.pairs.length,
    seed,
    best,
    ...(paired.length > 0 && {
      difference: {
        pairs: paired.length,
        mean: paired.reduce((s, x) => s + x, 0) / paired.length,
        interval: bootstrapMeanInterval(paired, bootstrap),
      },
    }),
  };
}
