import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { MdmMethodName } from './mdm-batch.js';
import type { VarianceMeasure } from './mdm-variance.js';

export interface MdmMethodResult {
  method: MdmMethodName;
  /** Per seed (in the order of `--seeds`): loss and gradient variance on that seed's fixed batch at the reference model. */
  variance: VarianceMeasure[];
  /** Per seed: held-out exact match; NaN when the run diverged (JSON: null). */
  accuracy: number[];
  accuracy_mean: number;
  accuracy_std: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const gradTotal = (v: VarianceMeasure) => v.grad.a + v.grad.b;

/**
 * The verdicts (pure): the paper's combination P-POTS + MIRROR against standard, or each method
 * when the combination is not run, paired by seed. Variance: the log ratio of gradient variance
 * A + B per seed; accuracy: the paired difference; spread: each seed's absolute deviation from its
 * method's mean, paired, so a smaller run-to-run spread is a negative mean effect.
 * `belowMinimum` (the run is under MDM_MINIMUM) makes every one `too_small`.
 */
export function mdmVerdicts(results: MdmMethodResult[], belowMinimum?: string): ClaimVerdict[] {
  const base = results.find((r) => r.method === 'standard');
  if (!base)
    return [
      claimVerdict({
        claim: 'P-POTS and MIRROR vs standard',
        metric: 'none: the comparison needs the standard method',
        direction: 'greater',
        effects: [],
        belowMinimum: 'no baseline: --methods must include standard',
      }),
    ];
  const combo = results.find((r) => r.method === 'ppots+mirror');
  const others = combo ? [combo] : results.filter((r) => r.method !== 'standard');
  const deviations = (xs: number[]) => xs.map((x) => Math.abs(x - mean(xs)));
  return others.flatMap((r) => {
    const pair = (f: (i: number) => number) => base.accuracy.map((_, i) => f(i));
    const [dm, ds] = [deviations(r.accuracy), deviations(base.accuracy)];
    return [
      claimVerdict({
        claim: `variance reduced (${r.method} vs standard): lower gradient variance A+B`,
        metric: `ln(gradient variance A+B, ${r.method} / standard) per seed's fixed batch, at one reference model`,
        direction: 'less',
        effects: pair((i) =>
          Math.log(
            gradTotal(r.variance[i] as VarianceMeasure) / gradTotal(base.variance[i] as VarianceMeasure),
          ),
        ),
        belowMinimum,
      }),
      claimVerdict({
        claim: `accuracy up (${r.method} vs standard): higher exact match`,
        metric: `held-out exact match, ${r.method} − standard, paired by seed`,
        direction: 'greater',
        effects: pair((i) => (r.accuracy[i] as number) - (base.accuracy[i] as number)),
        belowMinimum,
      }),
      claimVerdict({
        claim: `spread down (${r.method} vs standard): smaller run-to-run spread of exact match`,
        metric: `|exact match − its method's mean over seeds|, ${r.method} − standard, paired by seed`,
        direction: 'less',
        effects: pair((i) => (dm[i] as number) - (ds[i] as number)),
        belowMinimum,
      }),
    ];
  });
}
