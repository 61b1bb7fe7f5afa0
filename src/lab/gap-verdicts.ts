import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import type { GapMode } from './gap-options.js';

export interface GapModeResult {
  mode: GapMode;
  hidden_norm_ratio: number;
  fed_norm_ratio: number;
  /** Held-out answer accuracy; NaN when the run diverged (JSON: null). */
  accuracy: number;
  supervised_share: number;
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

/**
 * The verdicts (pure), each over seeds: the norm mismatch as a per-seed statistic of the base
 * model, and per aligned mode its accuracy against raw h paired by seed. `belowMinimum` (the run
 * is under GAP_MINIMUM) makes every one `too_small`.
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
  const accuracy = (s: GapSeedResult, mode: GapMode) =>
    s.modes.find((m) => m.mode === mode)?.accuracy ?? Number.NaN;
  const modes = [...new Set(seeds.flatMap((s) => s.modes.map((m) => m.mode)))];
  if (!modes.includes('raw')) return verdicts;
  for (const mode of modes.filter((m) => m !== 'raw'))
    verdicts.push(
      claimVerdict({
        claim: `alignment helps (${mode} vs raw h): higher answer accuracy`,
        metric: `held-out answer accuracy, ${mode} − raw, paired by seed`,
        direction: 'greater',
        effects: seeds.map((s) => accuracy(s, mode) - accuracy(s, 'raw')),
        belowMinimum,
      }),
    );
  return verdicts;
}
