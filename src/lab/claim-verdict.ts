import { bootstrapMeanInterval } from '../core/bootstrap-mean.js';
import { studentTQuantile } from './student-t.js';

/**
 * A lab claim's verdict (`../shared/methods/lab.md`, "Evidence standard"): `held` when the
 * interval of the effect lies on the claimed side of 0, `not_held` when it lies on the other,
 * `inconclusive` when it spans 0, `too_small` when the run is below the documented minimum (too
 * few seeds, a smoke run's steps): never a verdict from one measurement or a bare `a > b`.
 */
export type ClaimStatus = 'held' | 'not_held' | 'inconclusive' | 'too_small';

/** One verdict as `summary.json` stores it. */
export interface ClaimVerdict {
  /** The claimed direction, in words ("P-POTS lowers gradient variance vs standard"). */
  claim: string;
  status: ClaimStatus;
  /** What `effect` measures, and over what ("accuracy, method − standard, paired by seed"). */
  metric: string;
  /** The mean per-seed effect (NaN when there is none). */
  effect: number;
  /** Its interval at `level` (95% unless said), [NaN, NaN] when it cannot be computed. */
  ci: [number, number];
  /** How many seeds the effect is over. */
  seeds: number;
  /** Why the status is `too_small`; absent otherwise. */
  why?: string;
}

/** Fewer seeds than this give no verdict: two points make no interval worth the name. */
export const MIN_SEEDS = 3;

export interface ClaimEvidence {
  claim: string;
  metric: string;
  /** The side of 0 the claim puts the effect on: `greater` (A raises it) or `less` (A lowers it). */
  direction: 'greater' | 'less';
  /** The effect per seed: a paired difference (A − B on the same seed) or a per-seed statistic. */
  effects: readonly number[];
  /** Set when the run is below the experiment's documented minimum, saying which minimum. */
  belowMinimum?: string;
}

export interface IntervalOptions {
  /** `paired-t` (default; the effects are paired differences) or a percentile `bootstrap` over seeds. */
  method?: 'paired-t' | 'bootstrap';
  /** Coverage of the interval (default 0.95). */
  level?: number;
  /** Bootstrap resamples (default 10,000) and seed (default 0): the same input gives the same interval. */
  resamples?: number;
  seed?: number;
}

/** The verdict of one claim from its per-seed effects. */
export function claimVerdict(evidence: ClaimEvidence, options: IntervalOptions = {}): ClaimVerdict {
  const { claim, metric, effects } = evidence;
  const finite = effects.filter(Number.isFinite);
  const base = { claim, metric, seeds: finite.length };
  const tooSmall = (why: string): ClaimVerdict => ({
    ...base,
    status: 'too_small',
    effect: finite.length > 0 ? mean(finite) : Number.NaN,
    ci: [Number.NaN, Number.NaN],
    why,
  });
  if (evidence.belowMinimum !== undefined) return tooSmall(evidence.belowMinimum);
  if (finite.length < effects.length) {
    return tooSmall(`${effects.length - finite.length} of ${effects.length} seeds gave no finite effect`);
  }
  if (finite.length < MIN_SEEDS)
    return tooSmall(`${finite.length} seed(s); a verdict needs at least ${MIN_SEEDS}`);
  const ci =
    options.method === 'bootstrap'
      ? bootstrapMeanInterval(finite, options)
      : pairedTInterval(finite, options.level);
  const [lo, hi] = ci;
  const claimedSide = evidence.direction === 'greater' ? lo > 0 : hi < 0;
  const otherSide = evidence.direction === 'greater' ? hi < 0 : lo > 0;
  return {
    ...base,
    status: claimedSide ? 'held' : otherSide ? 'not_held' : 'inconclusive',
    effect: mean(finite),
    ci,
  };
}

/** The paired-t interval of the mean of `differences` at `level`. */
export function pairedTInterval(differences: readonly number[], level = 0.95): [number, number] {
  const n = differences.length;
  if (n < 2) return [Number.NaN, Number.NaN];
  const m = mean(differences);
  const s = Math.sqrt(differences.reduce((sum, d) => sum + (d - m) ** 2, 0) / (n - 1));
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * (s / Math.sqrt(n));
  return [m - half, m + half];
}

/** One line for a report: "claim: held — effect +0.0133 [−0.0384, +0.0650] over 3 seeds (metric)". */
export function verdictLine(v: ClaimVerdict): string {
  const signed = (x: number) => (x >= 0 ? `+${x.toFixed(4)}` : x.toFixed(4));
  const status = v.status.replace('_', ' ');
  if (v.status === 'too_small') return `${v.claim}: too small — ${v.why}`;
  return `${v.claim}: ${status} — effect ${signed(v.effect)} [${signed(v.ci[0])}, ${signed(v.ci[1])}] over ${v.seeds} seeds (${v.metric})`;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, x) => sum + x, 0) / values.length;
}
