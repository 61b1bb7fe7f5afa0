import { RewardKitError } from '../core/index.js';

/**
 * The fewest samples any audit estimator reports a number for. Below it a correlation or an MI is
 * noise dressed as a finding (a 95% interval on Pearson's r at N = 10 already spans about ±0.6), so
 * the estimate is null with a reason, never 0.
 */
export const MIN_AUDIT_SAMPLES = 10;

/** An estimate with its bootstrap interval, or null with the reason there is none. */
export type Estimate =
  | {
      readonly value: number;
      readonly ci: readonly [number, number];
      readonly n: number;
      readonly reason: null;
    }
  | { readonly value: null; readonly ci: null; readonly n: number; readonly reason: string };

/** The null estimate: a reason, never 0. */
export const noEstimate = (n: number, reason: string): Estimate => ({ value: null, ci: null, n, reason });

/** Bad input is a usage error before any work: equal lengths, finite numbers. */
export function assertPaired(name: string, x: readonly unknown[], y: readonly unknown[]): void {
  if (x.length !== y.length)
    throw new RewardKitError(
      'RK_USAGE',
      `${name}: x has ${x.length} values and y has ${y.length}; pass one pair per sample`,
    );
}

export function assertFinite(name: string, values: readonly number[]): void {
  const bad = values.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0)
    throw new RewardKitError(
      'RK_USAGE',
      `${name}: value ${bad} is ${values[bad]}; drop or impute non-finite values first`,
    );
}
