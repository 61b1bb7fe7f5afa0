import { bootstrapMeanInterval } from '../core/bootstrap-mean.js';

/** A probed sample: its reward as written and the reward of each rewritten response (null: that scoring failed). */
export interface ProbeTrial {
  readonly id: string;
  readonly before: number;
  readonly after: readonly (number | null)[];
}

/** How far a counterfactual rewrite moves the reward. */
export interface ProbeSummary {
  readonly name: string;
  /** Samples the rewrite applied to. */
  readonly applied: number;
  /** Of the samples measured, the share whose reward changed (either way); null when none was measured. */
  readonly moved_share: number | null;
  /** Mean of after − before; null when no sample was measured. */
  readonly mean_shift: number | null;
  readonly ci: readonly [number, number] | null;
  /** Samples left out because a rewritten response's scoring failed. */
  readonly failed: number;
}

/**
 * A probe's shift over the samples it applied to. A sample's shift is the mean over its rewritten
 * responses: the audit asks how the reward reacts to the rewrite, not which variant a policy would
 * keep (that is redteam's lift). A failed scoring is no evidence, so its sample is counted in
 * `failed` and left out, never read as a shift of 0.
 */
export function summariseProbe(
  name: string,
  trials: readonly ProbeTrial[],
  options: { readonly seed?: number; readonly resamples?: number } = {},
): ProbeSummary {
  const shifts: number[] = [];
  let moved = 0;
  let failed = 0;
  for (const trial of trials) {
    if (trial.after.length === 0 || trial.after.some((r) => r === null)) {
      failed++;
      continue;
    }
    const after = trial.after as readonly number[];
    shifts.push(after.reduce((sum, r) => sum + (r - trial.before), 0) / after.length);
    if (after.some((r) => r !== trial.before)) moved++;
  }
  const n = shifts.length;
  return {
    name,
    applied: trials.length,
    moved_share: n === 0 ? null : moved / n,
    mean_shift: n === 0 ? null : shifts.reduce((a, b) => a + b, 0) / n,
    ci:
      n === 0
        ? null
        : bootstrapMeanInterval(shifts, { seed: options.seed ?? 0, resamples: options.resamples ?? 2000 }),
    failed,
  };
}
