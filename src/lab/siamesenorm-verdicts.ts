import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { NormPlacement } from './model-config.js';

export interface SiameseNormRun {
  run: string;
  norm: NormPlacement;
  depth: number;
  lr: number;
  seed: number;
  /** The training loss of the first step, before any update: what "stalled" is measured against. */
  initial_loss: number;
  val_loss: number | null;
  diverged_at: number | null;
  spikes: number[];
}

/**
 * A run stalled when its final validation loss is not below this share of its first step's
 * loss. The untrained model's loss is about ln(vocabulary) (ln 28 = 3.33 on the grammar corpus);
 * Post-Norm at lr 3e-2 in the one-seed default sweep ended at 2.82 (0.85 of it), about what the
 * character frequencies alone give, while Pre-Norm and SiameseNorm reached 1.58–1.70 (about half).
 */
export const STALL_FRACTION = 0.75;

/** Stable: neither diverged (a non-finite loss) nor stalled (STALL_FRACTION). Spikes alone do not count. */
export function isStable(r: SiameseNormRun): boolean {
  return r.diverged_at === null && r.val_loss !== null && r.val_loss < STALL_FRACTION * r.initial_loss;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The verdicts (pure), per depth, each paired by seed. Stability at the highest lr: per seed,
 * SiameseNorm stable (1) or not (0) minus the same for Post-Norm. Validation loss: per seed,
 * SiameseNorm − Pre-Norm, each at its best lr (the lowest mean over seeds; an lr where a run
 * diverged is not a candidate, and a depth where every lr diverged gives no finite effect).
 * `belowMinimum` (the run is under SIAMESENORM_MINIMUM) makes every one `too_small`.
 */
export function siameseNormVerdicts(runs: SiameseNormRun[], belowMinimum?: string): ClaimVerdict[] {
  const verdicts: ClaimVerdict[] = [];
  const top = Math.max(...runs.map((r) => r.lr));
  const lrs = [...new Set(runs.map((r) => r.lr))];
  const seeds = [...new Set(runs.map((r) => r.seed))];
  const has = (norm: NormPlacement) => runs.some((r) => r.norm === norm);
  for (const depth of [...new Set(runs.map((r) => r.depth))]) {
    const find = (norm: NormPlacement, lr: number, seed: number) =>
      runs.find((r) => r.norm === norm && r.depth === depth && r.lr === lr && r.seed === seed);
    if (has('post') && has('siamese')) {
      const stable = (norm: NormPlacement, seed: number) => {
        const r = find(norm, top, seed);
        return r === undefined ? Number.NaN : isStable(r) ? 1 : 0;
      };
      verdicts.push(
        claimVerdict({
          claim: `stability at lr ${top}, depth ${depth}: SiameseNorm stable where Post-Norm is not`,
          metric: `stable (neither diverged nor stalled above ${STALL_FRACTION} × the initial loss) 1/0, SiameseNorm − Post-Norm, paired by seed`,
          direction: 'greater',
          effects: seeds.map((seed) => stable('siamese', seed) - stable('post', seed)),
          belowMinimum,
        }),
      );
    }
    if (has('pre') && has('siamese')) {
      const loss = (norm: NormPlacement, lr: number, seed: number) =>
        find(norm, lr, seed)?.val_loss ?? Number.NaN;
      const bestLr = (norm: NormPlacement) => {
        const byLr = lrs.map((lr) => mean(seeds.map((seed) => loss(norm, lr, seed))));
        const finite = byLr.filter(Number.isFinite);
        return finite.length === 0 ? lrs[0] : lrs[byLr.indexOf(Math.min(...finite))];
      };
      const [s, p] = [bestLr('siamese') as number, bestLr('pre') as number];
      verdicts.push(
        claimVerdict({
          claim: `validation loss at depth ${depth}: SiameseNorm lower than Pre-Norm`,
          metric: `validation loss, SiameseNorm (lr ${s}) − Pre-Norm (lr ${p}), each at its best lr, paired by seed`,
          direction: 'less',
          effects: seeds.map((seed) => loss('siamese', s, seed) - loss('pre', p, seed)),
          belowMinimum,
        }),
      );
    }
  }
  return verdicts;
}
