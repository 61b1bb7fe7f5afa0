import type { NormPlacement } from './model-config.js';

export const NORM_NAMES: Record<NormPlacement, string> = {
  pre: 'Pre-Norm',
  post: 'Post-Norm',
  deepnorm: 'DeepNorm',
  siamese: 'SiameseNorm',
};

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
 * loss. The untrained model's loss is about ln(vocabulary) (ln 28 = 3.33 on the grammar corpus).
 * Post-Norm and DeepNorm runs that stall sit at 2.82 (0.84 of it), what the character
 * frequencies alone give, and end there or a little below when they leave that plateau in the
 * last steps (2.63–2.72, 0.78–0.81, in the default sweep); runs that learn reach 1.5–2.2
 * (0.44–0.65). 0.75 sits between the two.
 */
export const STALL_FRACTION = 0.75;

/** Why a run is not stable, or null when it is. */
export function instability(r: SiameseNormRun): 'diverged' | 'stalled' | null {
  if (r.diverged_at !== null || r.val_loss === null || !Number.isFinite(r.val_loss)) return 'diverged';
  return r.val_loss < STALL_FRACTION * r.initial_loss ? null : 'stalled';
}

/** Stable: neither diverged (a non-finite loss) nor stalled (STALL_FRACTION). Spikes alone do not count. */
export const isStable = (r: SiameseNormRun): boolean => instability(r) === null;

/**
 * One cell of the report's stability table, over a group of runs (one placement, depth and lr
 * across seeds): "3/3", or "1/3 (2 stalled)", "0/3 (1 diverged, 2 stalled)".
 */
export function stabilityCell(runs: readonly SiameseNormRun[]): string {
  const why = runs.map(instability);
  const count = (kind: 'diverged' | 'stalled') => why.filter((w) => w === kind).length;
  const unstable = [
    ...(count('diverged') > 0 ? [`${count('diverged')} diverged`] : []),
    ...(count('stalled') > 0 ? [`${count('stalled')} stalled`] : []),
  ];
  const stable = `${why.filter((w) => w === null).length}/${runs.length}`;
  return unstable.length === 0 ? stable : `${stable} (${unstable.join(', ')})`;
}
