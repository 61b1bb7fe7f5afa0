import type { BootstrapOptions } from './bootstrap-interval.js';
import { pearson, spearman } from './correlation.js';
import type { Estimate } from './estimate.js';
import { binnedMutualInformation, clubUpperBound } from './mutual-information.js';
import { rewardKindOf } from './reward-kind.js';

/** How `mi` was measured: the Miller–Madow plug-in on a discrete reward, DIR's CLUB bound on a continuous one. */
export type MiMethod = 'plug-in-miller-madow' | 'club-upper-bound';

/** The association of one attribute with the reward over one set of samples. */
export interface Association {
  /** Samples with a value of the attribute (self-stated confidence is often missing). */
  readonly n: number;
  readonly pearson: Estimate;
  readonly spearman: Estimate;
  /** In nats; null with `mi_reason` when it could not be measured, never 0. */
  readonly mi: number | null;
  readonly mi_ci: readonly [number, number] | null;
  readonly mi_reason: string | null;
  readonly mi_method: MiMethod;
}

/**
 * Pearson, Spearman and the MI of an attribute with the reward, each with its seeded bootstrap
 * interval. A sample whose attribute is null (not stated) is left out of this attribute only.
 */
export function attributeAssociation(
  values: readonly (number | null)[],
  rewards: readonly number[],
  options: BootstrapOptions,
): Association {
  const x: number[] = [];
  const y: number[] = [];
  values.forEach((v, i) => {
    if (v !== null) {
      x.push(v);
      y.push(rewards[i] as number);
    }
  });
  const kind = rewardKindOf(y);
  const mi =
    kind === 'discrete' ? binnedMutualInformation(x, y, kind, options) : clubUpperBound(x, y, options);
  return {
    n: x.length,
    pearson: pearson(x, y, options),
    spearman: spearman(x, y, options),
    mi: mi.value,
    mi_ci: mi.ci,
    mi_reason: mi.reason,
    mi_method: kind === 'discrete' ? 'plug-in-miller-madow' : 'club-upper-bound',
  };
}
