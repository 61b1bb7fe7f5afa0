import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { MdmMethodName, MdmRunName } from './mdm-batch.js';
import type { VarianceMeasure } from './mdm-variance.js';

export interface MdmMethodResult {
  method: MdmRunName;
  /**
   * Per seed (in the order of `--seeds`): loss and gradient variance on that seed's fixed batch at
   * the reference model. `ar` has no mask or t to draw, so its A and B are 0 by construction.
   */
  variance: VarianceMeasure[];
  /** Per seed: the gradient's total variance over fresh batches (A + B + C; `ar`: C) at the reference model. */
  total_variance: number[];
  /** Per seed: held-out exact match; NaN when the run diverged (JSON: null). */
  accuracy: number[];
  accuracy_mean: number;
  accuracy_std: number;
}

/**
 * Each masked method's compute-matched baseline: plain training with the same masked rows per
 * step (docs/lab.md's table) and the same steps. A MIRROR pair doubles the rows, so its baseline
 * is the independent pair, not standard.
 */
export const MDM_BASELINES: Partial<Record<MdmMethodName, MdmMethodName>> = {
  ppots: 'standard',
  strats: 'standard',
  isad: 'standard',
  mirror: 'pair',
  'ppots+mirror': 'pair',
};

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const gradAB = (v: VarianceMeasure) => v.grad.a + v.grad.b;
const deviations = (xs: number[]) => xs.map((x) => Math.abs(x - mean(xs)));

/**
 * The verdicts (pure), each paired by seed: every method run against its compute-matched
 * baseline (variance: the log ratio of gradient variance A + B; accuracy: the difference; spread:
 * each seed's absolute deviation from its method's mean, so a smaller spread is a negative
 * effect), then, with `ar` run, the variance decomposition (autoregressive C below standard's
 * A + B + C at equal rows) and P-POTS + MIRROR moving variance and spread toward autoregressive.
 * `belowMinimum` (the run is under MDM_MINIMUM) makes every one `too_small`.
 */
export function mdmVerdicts(results: MdmMethodResult[], belowMinimum?: string): ClaimVerdict[] {
  const find = (name: MdmRunName) => results.find((r) => r.method === name);
  const paired = (a: MdmMethodResult, f: (i: number) => number) => a.accuracy.map((_, i) => f(i));
  const noBaseline = (claim: string, needs: string) =>
    claimVerdict({
      claim,
      metric: 'none: the comparison needs its compute-matched baseline',
      direction: 'less',
      effects: [],
      belowMinimum: `no baseline: --methods must include ${needs}`,
    });
  const verdicts = results.flatMap((r) => {
    const baseName = MDM_BASELINES[r.method as MdmMethodName];
    if (!baseName) return [];
    const base = find(baseName);
    const vs = `${r.method} vs ${baseName}`;
    if (!base) return [noBaseline(`${vs} at equal rows per step`, baseName)];
    const [dm, ds] = [deviations(r.accuracy), deviations(base.accuracy)];
    return [
      claimVerdict({
        claim: `variance reduced (${vs}): lower gradient variance A+B`,
        metric: `ln(gradient variance A+B, ${r.method} / ${baseName}) per seed's fixed batch, at one reference model`,
        direction: 'less',
        effects: paired(base, (i) =>
          Math.log(gradAB(r.variance[i] as VarianceMeasure) / gradAB(base.variance[i] as VarianceMeasure)),
        ),
        belowMinimum,
      }),
      claimVerdict({
        claim: `accuracy up (${vs}): higher exact match`,
        metric: `held-out exact match, ${r.method} − ${baseName}, paired by seed`,
        direction: 'greater',
        effects: paired(base, (i) => (r.accuracy[i] as number) - (base.accuracy[i] as number)),
        belowMinimum,
      }),
      claimVerdict({
        claim: `spread down (${vs}): smaller run-to-run spread of exact match`,
        metric: `|exact match − its method's mean over seeds|, ${r.method} − ${baseName}, paired by seed`,
        direction: 'less',
        effects: paired(base, (i) => (dm[i] as number) - (ds[i] as number)),
        belowMinimum,
      }),
    ];
  });
  const ar = find('ar');
  if (!ar) return verdicts;
  const standard = find('standard');
  verdicts.push(
    standard
      ? claimVerdict({
          claim:
            'variance decomposition: autoregressive gradient variance (C) below masked diffusion’s A+B+C',
          metric:
            'ln(total gradient variance over fresh batches, ar / standard) per seed, equal rows per step, at one reference model each',
          direction: 'less',
          effects: paired(ar, (i) =>
            Math.log((ar.total_variance[i] as number) / (standard.total_variance[i] as number)),
          ),
          belowMinimum,
        })
      : noBaseline('variance decomposition: ar vs standard', 'standard'),
  );
  const [combo, pair] = [find('ppots+mirror'), find('pair')];
  if (!combo) return verdicts;
  if (!pair) return [...verdicts, noBaseline('P-POTS+MIRROR toward autoregressive', 'pair')];
  const [dc, dp, da] = [deviations(combo.accuracy), deviations(pair.accuracy), deviations(ar.accuracy)];
  verdicts.push(
    claimVerdict({
      claim: 'toward autoregressive variance (ppots+mirror vs pair): lower total gradient variance A+B+C',
      metric:
        'ln(total gradient variance over fresh batches, ppots+mirror / pair) per seed, at one reference model',
      direction: 'less',
      effects: paired(combo, (i) =>
        Math.log((combo.total_variance[i] as number) / (pair.total_variance[i] as number)),
      ),
      belowMinimum,
    }),
    claimVerdict({
      claim: 'toward autoregressive spread (ppots+mirror vs pair): run-to-run spread closer to ar’s',
      metric:
        "||exact match − mean| − ar's|, ppots+mirror − pair, paired by seed (ar trains one row per example)",
      direction: 'less',
      effects: paired(
        combo,
        (i) =>
          Math.abs((dc[i] as number) - (da[i] as number)) - Math.abs((dp[i] as number) - (da[i] as number)),
      ),
      belowMinimum,
    }),
  );
  return verdicts;
}
