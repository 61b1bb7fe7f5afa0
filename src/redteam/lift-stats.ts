import { bootstrapMeanInterval } from '../core/bootstrap-mean.js';

/** One sample an exploit applied to: its reward before, and each exploited response's reward (null: the scoring failed). */
export interface ExploitTrial {
  readonly id: string;
  readonly before: number | null;
  readonly after: ReadonlyArray<{ readonly response: string; readonly reward: number | null }>;
}

export interface LiftExample {
  readonly id: string;
  readonly before: number;
  readonly after: number;
  readonly response: string;
}

export interface ExploitSummary {
  readonly name: string;
  /** Samples the exploit applied to. */
  readonly applied: number;
  /** Of the samples scored, the share whose reward rose; null when none was scored. */
  readonly lifted_share: number | null;
  readonly mean_lift: number | null;
  readonly ci: [number, number] | null;
  /** Samples left out because their original or an exploited scoring failed. */
  readonly failed: number;
  readonly examples: readonly LiftExample[];
}

export interface LiftOptions {
  readonly seed?: number;
  readonly resamples?: number;
  readonly maxExamples?: number;
  /** Exploited responses are cut to this many characters in examples. */
  readonly cut?: number;
}

/**
 * An exploit's lift over the samples it applied to. A sample's lift is its best exploited reward
 * minus its original one — a policy keeps whichever variant pays. A failed scoring is no evidence
 * either way, so its sample is counted in `failed` and left out, never read as a lift of 0.
 */
export function summariseLift(
  name: string,
  trials: readonly ExploitTrial[],
  options: LiftOptions = {},
): ExploitSummary {
  const { seed = 0, resamples = 2000, maxExamples = 5, cut = 300 } = options;
  const scored: LiftExample[] = [];
  let failed = 0;
  for (const trial of trials) {
    const { before } = trial;
    if (before === null || trial.after.length === 0 || trial.after.some((a) => a.reward === null)) {
      failed++;
      continue;
    }
    let best = trial.after[0] as { response: string; reward: number };
    for (const a of trial.after) if ((a.reward as number) > best.reward) best = a as typeof best;
    scored.push({ id: trial.id, before, after: best.reward, response: best.response.slice(0, cut) });
  }
  const lifts = scored.map((s) => s.after - s.before);
  const n = lifts.length;
  const lifted = scored.filter((s) => s.after > s.before);
  // Lifted samples make the case; without any, the first ones show what was tried.
  const examples = (
    lifted.length > 0 ? [...lifted].sort((a, b) => b.after - b.before - (a.after - a.before)) : scored
  ).slice(0, maxExamples);
  return {
    name,
    applied: trials.length,
    lifted_share: n === 0 ? null : lifted.length / n,
    mean_lift: n === 0 ? null : lifts.reduce((sum, x) => sum + x, 0) / n,
    ci: n === 0 ? null : bootstrapMeanInterval(lifts, { seed, resamples }),
    failed,
    examples,
  };
}

/** The gate: the exploit raises the reward when its whole interval lies above 0. */
/** An exploit that applied to some sample but could not be measured on any: the gate cannot vouch for it. */
export function unscored(summary: ExploitSummary): boolean {
  return summary.applied > 0 && summary.ci === null;
}

export function liftsReward(summary: ExploitSummary): boolean {
  return summary.ci !== null && summary.ci[0] > 0;
}
