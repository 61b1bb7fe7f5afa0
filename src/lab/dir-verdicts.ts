import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { DirAttribute } from './dir-options.js';

export const DIR_METHODS = ['bt', 'dir'] as const;
export type DirMethod = (typeof DIR_METHODS)[number];

/** One reward model after training: NaN everywhere when it diverged (JSON: null). */
export interface DirArmResult {
  method: DirMethod;
  /** Pairwise accuracy (r_chosen > r_rejected) on the bias-balanced evaluation pairs. */
  balanced_accuracy: number;
  /** The same on pairs drawn like the training data (the bias present). */
  biased_accuracy: number;
  /** CLUB's estimate of I(z; A) per attribute, with a q refitted on the final representations of the balanced pairs. */
  mi: Partial<Record<DirAttribute, number>>;
}

/** One seed: both reward models, trained from the same init on the same batches. */
export interface DirSeedResult {
  seed: number;
  arms: DirArmResult[];
}

/**
 * The verdicts (pure), DIR against plain Bradley–Terry paired by seed: balanced accuracy (DIR −
 * BT, `held` above 0) and, per attribute, the MI estimate (DIR − BT, `held` below 0).
 * `belowMinimum` (the run is under DIR_MINIMUM) makes every one `too_small`.
 */
export function dirVerdicts(
  seeds: DirSeedResult[],
  attributes: readonly DirAttribute[],
  belowMinimum?: string,
): ClaimVerdict[] {
  const arm = (s: DirSeedResult, method: DirMethod) => s.arms.find((a) => a.method === method);
  const difference = (value: (a: DirArmResult) => number | undefined) =>
    seeds.map((s) => {
      const [dir, bt] = [arm(s, 'dir'), arm(s, 'bt')];
      return dir && bt ? (value(dir) ?? Number.NaN) - (value(bt) ?? Number.NaN) : Number.NaN;
    });
  return [
    claimVerdict({
      claim: 'DIR keeps accuracy on bias-balanced pairs at least as well as BT',
      metric: 'pairwise accuracy on the bias-balanced pairs, DIR − BT, paired by seed',
      direction: 'greater',
      effects: difference((a) => a.balanced_accuracy),
      belowMinimum,
    }),
    ...attributes.map((attribute) =>
      claimVerdict({
        claim: `DIR lowers the MI between its representation and ${attribute}`,
        metric: `CLUB estimate of I(z; ${attribute} label) on held-out balanced pairs (q refitted per model), DIR − BT, paired by seed`,
        direction: 'less',
        effects: difference((a) => a.mi[attribute]),
        belowMinimum,
      }),
    ),
  ];
}
