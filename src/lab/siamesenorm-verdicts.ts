import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { NormPlacement } from './model-config.js';
import { isStable, NORM_NAMES, type SiameseNormRun, STALL_FRACTION } from './siamesenorm-run.js';

/**
 * The placements SiameseNorm's stability is compared with: Post-Norm, and DeepNorm, the
 * single-stream fix for deep Post-Norm that the notes' sweep also runs.
 */
const STABILITY_BASELINES: readonly NormPlacement[] = ['post', 'deepnorm'];

const STABLE = `stable (neither diverged nor stalled: final validation loss below ${STALL_FRACTION} × the first step's loss) 1/0`;
const UNSTABLE = `unstable (diverged, or stalled: final validation loss not below ${STALL_FRACTION} × the first step's loss) 1/0`;

const unique = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

/**
 * The verdicts (pure), each paired by seed, in this order:
 * - per stability baseline (Post-Norm, DeepNorm) and depth: stability at the highest lr, SiameseNorm
 *   stable (1) or not (0) minus the same for the baseline;
 * - per baseline, with two depths or more: the trend from the shallowest to the deepest, at the
 *   highest lr: how much more the baseline's instability (1 − stable) grows than SiameseNorm's;
 * - per depth: validation loss at the highest lr where Pre-Norm is stable on every seed (the
 *   paper's regime, lr 2e-3 on 1.3B models), SiameseNorm − Pre-Norm at that one lr, with the same
 *   steps and batch: compute-matched. No such lr gives `too_small`, saying so.
 * `belowMinimum` (the run is under SIAMESENORM_MINIMUM) makes every one `too_small`.
 */
export function siameseNormVerdicts(runs: SiameseNormRun[], belowMinimum?: string): ClaimVerdict[] {
  const depths = unique(runs.map((r) => r.depth));
  const lrs = unique(runs.map((r) => r.lr));
  const seeds = unique(runs.map((r) => r.seed));
  const top = lrs.at(-1) as number;
  const has = (norm: NormPlacement) => runs.some((r) => r.norm === norm);
  const find = (norm: NormPlacement, depth: number, lr: number, seed: number) =>
    runs.find((r) => r.norm === norm && r.depth === depth && r.lr === lr && r.seed === seed);
  // NaN for a run that is not there: claimVerdict turns a missing pair into `too_small`.
  const stable = (norm: NormPlacement, depth: number, lr: number, seed: number) => {
    const r = find(norm, depth, lr, seed);
    return r === undefined ? Number.NaN : isStable(r) ? 1 : 0;
  };
  const verdicts: ClaimVerdict[] = [];
  for (const base of has('siamese') ? STABILITY_BASELINES.filter(has) : []) {
    const name = NORM_NAMES[base];
    for (const depth of depths) {
      verdicts.push(
        claimVerdict({
          claim: `stability at lr ${top}, depth ${depth}: SiameseNorm stable where ${name} is not`,
          metric: `${STABLE}, SiameseNorm − ${name}, paired by seed`,
          direction: 'greater',
          effects: seeds.map((s) => stable('siamese', depth, top, s) - stable(base, depth, top, s)),
          belowMinimum,
        }),
      );
    }
    if (depths.length < 2) continue;
    const [shallow, deep] = [depths[0] as number, depths.at(-1) as number];
    // Instability at the deep end minus at the shallow end, per seed.
    const growth = (norm: NormPlacement, s: number) =>
      stable(norm, shallow, top, s) - stable(norm, deep, top, s);
    verdicts.push(
      claimVerdict({
        claim: `stability with depth at lr ${top}: ${name}'s instability grows from depth ${shallow} to ${deep} more than SiameseNorm's`,
        metric: `${UNSTABLE} at depth ${deep} − at depth ${shallow}, ${name} − SiameseNorm, paired by seed`,
        direction: 'greater',
        effects: seeds.map((s) => growth(base, s) - growth('siamese', s)),
        belowMinimum,
      }),
    );
  }
  if (!has('pre') || !has('siamese')) return verdicts;
  for (const depth of depths) {
    const lr = lrs.filter((l) => seeds.every((s) => stable('pre', depth, l, s) === 1)).at(-1);
    const claim = `validation loss at depth ${depth}, at the highest lr where Pre-Norm is stable: SiameseNorm below Pre-Norm`;
    const loss = (norm: NormPlacement, l: number, s: number) =>
      find(norm, depth, l, s)?.val_loss ?? Number.NaN;
    verdicts.push(
      lr === undefined
        ? claimVerdict({
            claim,
            metric: 'none: no lr in --lrs where Pre-Norm is stable on every seed',
            direction: 'less',
            effects: [],
            belowMinimum:
              belowMinimum ?? `Pre-Norm is stable on every seed at no lr of --lrs at depth ${depth}`,
          })
        : claimVerdict({
            claim,
            metric: `validation loss at lr ${lr}, SiameseNorm − Pre-Norm, same steps and batch, paired by seed`,
            direction: 'less',
            effects: seeds.map((s) => loss('siamese', lr, s) - loss('pre', lr, s)),
            belowMinimum,
          }),
    );
  }
  return verdicts;
}
