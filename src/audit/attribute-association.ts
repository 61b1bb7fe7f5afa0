import type { BootstrapOptions } from './bootstrap-interval.js';
import { pearson, spearman } from './correlation.js';
import { type Estimate, MIN_AUDIT_SAMPLES, noEstimate } from './estimate.js';
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
 * The fewest samples that must differ from a variable's most common value. With k such samples
 * among N, a bootstrap resample misses all of them with probability about e^−k; the resamples that
 * miss them are skipped as constant, so the interval is drawn from those that contain them and can
 * exclude 0 on the strength of one sample (seen: one response in 21 with a list, Spearman's
 * interval [0.09, 0.30]). At k = 5 that skip is under 1%.
 */
export const MIN_DIFFERING_SAMPLES = 5;

/** How many values differ from the most common one. */
function differing(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return values.length - Math.max(0, ...counts.values());
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
  const method: MiMethod = kind === 'discrete' ? 'plug-in-miller-madow' : 'club-upper-bound';
  const rare = Math.min(differing(x), differing(y));
  if (x.length >= MIN_AUDIT_SAMPLES && rare > 0 && rare < MIN_DIFFERING_SAMPLES) {
    const reason = `only ${rare} sample(s) differ from the most common value, below the minimum of ${MIN_DIFFERING_SAMPLES}: an interval would rest on them alone`;
    const none = noEstimate(x.length, reason);
    return {
      n: x.length,
      pearson: none,
      spearman: none,
      mi: null,
      mi_ci: null,
      mi_reason: reason,
      mi_method: method,
    };
  }
  const mi =
    kind === 'discrete' ? binnedMutualInformation(x, y, kind, options) : clubUpperBound(x, y, options);
  return {
    n: x.length,
    pearson: pearson(x, y, options),
    spearman: spearman(x, y, options),
    mi: mi.value,
    mi_ci: mi.ci,
    mi_reason: mi.reason,
    mi_method: method,
  };
}
