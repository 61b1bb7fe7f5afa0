import { gaussianClubEstimate } from '../core/index.js';
import { type BootstrapOptions, bootstrapInterval } from './bootstrap-interval.js';
import { averageRanks } from './correlation.js';
import { assertFinite, assertPaired, type Estimate, MIN_AUDIT_SAMPLES, noEstimate } from './estimate.js';

/** A value of a discrete variable: a class label, a boolean, a bin index. */
export type Discrete = string | number | boolean;

/** The plug-in MI of paired discrete samples and its Miller–Madow correction, in nats. */
export interface MutualInformationValue {
  readonly plugin: number;
  readonly millerMadow: number;
}

const entropy = (counts: Iterable<number>, n: number): number => {
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log(c / n);
  return h;
};

const countBy = (keys: readonly string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
};

// JSON keys keep 1 and "1" apart, so a label's type is part of its identity.
const key = (v: Discrete): string => JSON.stringify(v);

/**
 * Î = Ĥ(X) + Ĥ(Y) − Ĥ(X,Y) from empirical frequencies (natural log, so nats). The plug-in entropy is
 * biased low by about (m − 1)/(2N) for m occupied cells; Miller–Madow adds that back to each term:
 * Î_MM = Î + [(m_X − 1) + (m_Y − 1) − (m_XY − 1)]/(2N). For independent variables the correction is
 * about −(m_X − 1)(m_Y − 1)/(2N), the plug-in's known upward bias, so Î_MM can fall slightly below 0.
 */
export function mutualInformationValue(
  x: readonly Discrete[],
  y: readonly Discrete[],
): MutualInformationValue {
  const n = x.length;
  const kx = x.map(key);
  const ky = y.map(key);
  const cx = countBy(kx);
  const cy = countBy(ky);
  const cxy = countBy(kx.map((k, i) => `${k}\u0000${ky[i]}`));
  const plugin = entropy(cx.values(), n) + entropy(cy.values(), n) - entropy(cxy.values(), n);
  const correction = (cx.size - 1 + (cy.size - 1) - (cxy.size - 1)) / (2 * n);
  return { plugin, millerMadow: plugin + correction };
}

/** Bins for N samples: k = ⌊N^(1/3)⌋ clamped to [2, 10], so the cells of a k×k table stay populated (≥ N^(1/3) each on average). */
export const defaultBinCount = (n: number): number => Math.min(10, Math.max(2, Math.floor(Math.cbrt(n))));

/**
 * Discretizes a numeric variable by quantiles. A variable with at most k distinct values is kept as
 * it is (booleans, small counts). Otherwise a value's bin is ⌊k·(r̄ − 1)/N⌋ with r̄ its average rank:
 * each bin holds about N/k samples, and tied values always share a bin.
 */
export function quantileBins(values: readonly number[], bins = defaultBinCount(values.length)): number[] {
  if (new Set(values).size <= bins) return [...values];
  const n = values.length;
  return averageRanks(values).map((r) => Math.min(bins - 1, Math.floor((bins * (r - 1)) / n)));
}

const pick = <T>(v: readonly T[], idx: readonly number[]): T[] => idx.map((i) => v[i] as T);

/**
 * Miller–Madow-corrected MI of two discrete variables, in nats, with a seeded bootstrap interval
 * (percentile, shifted by the bootstrap's bias: `BiasShift`); null with a reason below the minimum or when either variable is constant (an MI of 0
 * there would read as "no bias" where nothing could be measured).
 */
export function mutualInformation(
  x: readonly Discrete[],
  y: readonly Discrete[],
  options: BootstrapOptions = {},
): Estimate {
  assertPaired('mutualInformation', x, y);
  // JSON would write NaN and ±∞ as null, merging them into one silent class.
  for (const [name, v] of [
    ['x', x],
    ['y', y],
  ] as const)
    assertFinite(
      `mutualInformation ${name}`,
      v.map((d) => (typeof d === 'number' ? d : 0)),
    );
  const n = x.length;
  if (n < MIN_AUDIT_SAMPLES) return noEstimate(n, `${n} samples, below the minimum of ${MIN_AUDIT_SAMPLES}`);
  if (new Set(x.map(key)).size < 2 || new Set(y.map(key)).size < 2)
    return noEstimate(n, 'zero variance: one side is constant, so there is no association to measure');
  const value = mutualInformationValue(x, y).millerMadow;
  const ci = bootstrapInterval(
    n,
    (idx) => mutualInformationValue(pick(x, idx), pick(y, idx)).millerMadow,
    options,
    { estimate: value },
  );
  if (ci === null) return noEstimate(n, 'no bootstrap interval could be formed');
  return { value, ci, n, reason: null };
}

/** How the audit treats the reward: discrete rewards (pass/fail, a few levels) are used as labels; continuous ones are binned. */
export type RewardKind = 'discrete' | 'continuous';

/** MI of a numeric attribute with the reward, binning by quantiles (`quantileBins`) whatever is continuous. */
export function binnedMutualInformation(
  attribute: readonly number[],
  reward: readonly number[],
  rewardKind: RewardKind,
  options: BootstrapOptions & { readonly bins?: number } = {},
): Estimate {
  assertPaired('binnedMutualInformation', attribute, reward);
  assertFinite('binnedMutualInformation attribute', attribute);
  assertFinite('binnedMutualInformation reward', reward);
  const bins = options.bins ?? defaultBinCount(attribute.length);
  const y = rewardKind === 'discrete' ? reward : quantileBins(reward, bins);
  return mutualInformation(quantileBins(attribute, bins), y, options);
}

/**
 * DIR's CLUB upper bound on I(attribute; reward) for a continuous reward, in nats: q(attribute | reward)
 * is a linear-Gaussian model learned by least squares (`gaussianClubEstimate`), with a seeded
 * bias-shifted bootstrap interval. An upper bound, not an estimate of MI itself: on Gaussian pairs its
 * population value is ρ²/(1−ρ²) against the true −½ ln(1−ρ²).
 */
export function clubUpperBound(
  attribute: readonly number[],
  reward: readonly number[],
  options: BootstrapOptions = {},
): Estimate {
  assertPaired('clubUpperBound', attribute, reward);
  assertFinite('clubUpperBound attribute', attribute);
  assertFinite('clubUpperBound reward', reward);
  const n = attribute.length;
  if (n < MIN_AUDIT_SAMPLES) return noEstimate(n, `${n} samples, below the minimum of ${MIN_AUDIT_SAMPLES}`);
  if (new Set(attribute).size < 2 || new Set(reward).size < 2)
    return noEstimate(n, 'zero variance: one side is constant, so there is no association to measure');
  const value = gaussianClubEstimate(reward, attribute);
  if (!Number.isFinite(value))
    return noEstimate(n, 'the attribute is an exact linear function of the reward: the bound is unbounded');
  const ci = bootstrapInterval(
    n,
    (idx) => {
      const v = gaussianClubEstimate(pick(reward, idx), pick(attribute, idx));
      return Number.isFinite(v) ? v : null;
    },
    options,
    { estimate: value },
  );
  if (ci === null) return noEstimate(n, 'most bootstrap resamples were degenerate');
  return { value, ci, n, reason: null };
}
