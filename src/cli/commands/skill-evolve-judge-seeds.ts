import { bootstrapMeanInterval } from '../../core/bootstrap-mean.js';
import { type ClaimVerdict, claimVerdict } from '../../lab/claim-verdict.js';
import type { SeedHeldOut } from '../../skills/evolve-judge/index.js';

/** A mean over split seeds with its percentile bootstrap interval (NaN when there are none). */
export interface SeedMean {
  readonly mean: number;
  readonly ci: [number, number];
  readonly seeds: number;
}

export interface HeldOutAcrossSeeds {
  readonly per_seed: readonly SeedHeldOut[];
  /** The source and the evolved skill's held-out accuracy over the seeds that judged it. */
  readonly before: SeedMean;
  readonly after: SeedMean;
  /** Evolved − source held-out accuracy, paired by split seed, by the lab's evidence standard. */
  readonly verdict: ClaimVerdict;
}

/**
 * The evidence of `skill evolve-judge` over its split seeds: the paired held-out gain's verdict
 * (`claimVerdict`, paired-t) and each side's mean with an interval. Fewer loops than asked for
 * (a stopped run) make the verdict `too_small` and say why.
 */
export function heldOutAcrossSeeds(perSeed: readonly SeedHeldOut[], asked: number): HeldOutAcrossSeeds {
  const side = (values: readonly number[]): SeedMean => ({
    mean: values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length,
    ci: bootstrapMeanInterval(values),
    seeds: values.length,
  });
  const judged = perSeed.filter((s) => s.before !== undefined && s.after !== undefined);
  return {
    per_seed: perSeed,
    before: side(judged.map((s) => s.before as number)),
    after: side(judged.map((s) => s.after as number)),
    verdict: claimVerdict({
      claim: 'the evolved skill raises held-out accuracy',
      metric: 'held-out accuracy, evolved − source skill, paired by split seed',
      direction: 'greater',
      effects: perSeed.map((s) => s.gain),
      ...(perSeed.length < asked && {
        belowMinimum: `${perSeed.length} of ${asked} split seeds ran (the loop stopped: its models never answered)`,
      }),
    }),
  };
}
