import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { GapMode } from './gap-options.js';

export interface GapModeResult {
  mode: GapMode;
  hidden_norm_ratio: number;
  fed_norm_ratio: number;
  /** Held-out answer accuracy; NaN when the run diverged (JSON: null). */
  accuracy: number;
  /** The share of held-out examples the capacity rule would supervise; 0 without the context-level loss. */
  supervised_share: number;
  /** Whether this run trained with the context-level loss (`--context-level`). */
  context_loss: boolean;
}

/** One seed of the GAP toy: its base model and the latent-feedback runs started from it. */
export interface GapSeedResult {
  seed: number;
  /** The base model's final hidden/input-embedding norm ratio; NaN when the base model diverged. */
  base_hidden_norm_ratio: number;
  modes: GapModeResult[];
}

/** The norm-mismatch claim's threshold: hidden states above this × the input-embedding norm. */
const GAP_NORM_MISMATCH = 2;

const ALIGNED: readonly GapMode[] = ['norm-matched', 'pca'];
const NAMES: Record<GapMode, string> = {
  none: 'no latent',
  raw: 'raw h',
  'norm-matched': 'norm-matched',
  pca: 'pca',
};

/**
 * The verdicts (pure), each over seeds: the norm mismatch as a per-seed statistic of the base
 * model; per aligned mode its accuracy against raw h and against the no-latent control; and raw h
 * against the control (the claim: raw feedback misleads). Accuracies are paired by seed, each
 * run's metric naming whether it had the context-level loss. `belowMinimum` (the run is under
 * GAP_MINIMUM) makes every one `too_small`.
 */
export function gapVerdicts(seeds: GapSeedResult[], belowMinimum?: string): ClaimVerdict[] {
  const verdicts = [
    claimVerdict({
      claim: `norm mismatch: the base model's final hidden state sits above ${GAP_NORM_MISMATCH}× its input-embedding norm`,
      metric: `hidden/input norm ratio − ${GAP_NORM_MISMATCH}, per seed (one base model per seed)`,
      direction: 'greater',
      effects: seeds.map((s) => s.base_hidden_norm_ratio - GAP_NORM_MISMATCH),
      belowMinimum,
    }),
  ];
  const run = (s: GapSeedResult, mode: GapMode) => s.modes.find((m) => m.mode === mode);
  const accuracy = (s: GapSeedResult, mode: GapMode) => run(s, mode)?.accuracy ?? Number.NaN;
  const modes = [...new Set(seeds.flatMap((s) => s.modes.map((m) => m.mode)))];
  // How a mode trained, from its runs: the context-level loss is one setting for the whole experiment.
  const described = (mode: GapMode) => {
    const context = seeds.some((s) => run(s, mode)?.context_loss);
    return mode === 'none' ? NAMES.none : `${mode} (context-level loss ${context ? 'on' : 'off'})`;
  };
  const compare = (mode: GapMode, base: GapMode, claim: string, direction: 'greater' | 'less') =>
    claimVerdict({
      claim: `${claim} (${NAMES[mode]} vs ${NAMES[base]}): ${direction === 'greater' ? 'higher' : 'lower'} answer accuracy`,
      metric: `held-out answer accuracy, ${described(mode)} − ${described(base)}, paired by seed`,
      direction,
      effects: seeds.map((s) => accuracy(s, mode) - accuracy(s, base)),
      belowMinimum,
    });
  const aligned = modes.filter((m) => ALIGNED.includes(m));
  if (modes.includes('raw'))
    for (const mode of aligned) verdicts.push(compare(mode, 'raw', 'alignment helps', 'greater'));
  if (!modes.includes('none')) return verdicts;
  if (modes.includes('raw')) verdicts.push(compare('raw', 'none', 'raw feedback misleads', 'less'));
  for (const mode of aligned) verdicts.push(compare(mode, 'none', 'aligned feedback helps', 'greater'));
  return verdicts;
}
