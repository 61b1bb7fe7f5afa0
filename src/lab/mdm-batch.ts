import type { Rng } from '../core/index.js';
import { isadProbability, maskProbability } from './mdm-masking.js';
import { DELIMITER_ID, MASK_ID, type MdmExample } from './mdm-tasks.js';
import { type GridDensity, samplePPots } from './p-pots.js';

/**
 * A training method: how t is drawn, how many masks each example gets (one; a MIRROR pair; an
 * independent pair, MIRROR's compute-matched baseline) and whether ISAD is on.
 */
export interface MdmMethod {
  timesteps: 'uniform' | 'strats' | 'ppots';
  masks: 'single' | 'mirror' | 'independent';
  isad: boolean;
}

export const MDM_METHODS = {
  standard: { timesteps: 'uniform', masks: 'single', isad: false },
  ppots: { timesteps: 'ppots', masks: 'single', isad: false },
  mirror: { timesteps: 'uniform', masks: 'mirror', isad: false },
  pair: { timesteps: 'uniform', masks: 'independent', isad: false },
  strats: { timesteps: 'strats', masks: 'single', isad: false },
  isad: { timesteps: 'uniform', masks: 'single', isad: true },
  'ppots+mirror': { timesteps: 'ppots', masks: 'mirror', isad: false },
} as const satisfies Record<string, MdmMethod>;
export type MdmMethodName = keyof typeof MDM_METHODS;
export const MDM_METHOD_NAMES = Object.keys(MDM_METHODS) as MdmMethodName[];

/** The runs `--methods` picks from: the masked methods and `ar`, the autoregressive baseline (same model, causal). */
export const MDM_RUN_NAMES = [...MDM_METHOD_NAMES, 'ar'] as const;
export type MdmRunName = (typeof MDM_RUN_NAMES)[number];

/** Masked rows per example: 2 for a pair of masks (MIRROR or independent), else 1. */
export const rowsPerExample = (method: MdmMethod): number => (method.masks === 'single' ? 1 : 2);

/**
 * One t per sample with its importance weight: uniform (weight 1); StraTS, one draw in each of
 * `n` equal strata, shuffled over the batch (weight 1); P-POTS, inverse CDF of the fitted
 * density, weight min(cap, 1/p(t)).
 */
export function drawTimesteps(
  method: MdmMethod,
  n: number,
  rng: Rng,
  ppots?: { density: GridDensity; cap: number },
): { t: number[]; weight: number[] } {
  if (method.timesteps === 'ppots') {
    if (!ppots) throw new Error('P-POTS needs its fitted density');
    const draws = Array.from({ length: n }, () => samplePPots(ppots.density, rng.next(), ppots.cap));
    return { t: draws.map((d) => d.t), weight: draws.map((d) => d.weight) };
  }
  const t =
    method.timesteps === 'strats'
      ? rng.shuffle(Array.from({ length: n }, (_, i) => i)).map((k) => (k + rng.next()) / n)
      : Array.from({ length: n }, () => rng.next());
  return { t, weight: t.map(() => 1) };
}

/** Masked inputs, clean targets and per-token loss weights, flattened `[rows, T]`. */
export interface MaskedBatch {
  rows: number;
  length: number;
  inputs: Int32Array;
  targets: Int32Array;
  weights: Float32Array;
}

/**
 * The ELBO batch: each response token is masked with p = (1 − eps)t + eps (ISAD: the delimiter
 * with q = min(1, t + 0.2)); the prompt never. A masked token's weight is
 * importance / (|R| · q · B · pairs), so Σ weight · CE is the batch mean of the per-sample ELBO
 * loss (1/|R|) Σ_masked CE_i / q_i, times P-POTS' 1/p(t). MIRROR adds the complementary mask
 * (U > 1 − q, same uniforms) as a second row and halves both; the independent pair adds a second
 * row masked by fresh uniforms at the same t, so the two differ only in how the masks are coupled.
 */
export function maskedBatch(
  examples: readonly MdmExample[],
  timesteps: { t: number[]; weight: number[] },
  method: MdmMethod,
  rng: Rng,
): MaskedBatch {
  const first = examples[0] as MdmExample;
  const promptLen = first.prompt.length;
  const length = promptLen + first.response.length;
  const pairs = rowsPerExample(method);
  const rows = examples.length * pairs;
  const inputs = new Int32Array(rows * length);
  const targets = new Int32Array(rows * length);
  const weights = new Float32Array(rows * length);
  examples.forEach((ex, b) => {
    const t = timesteps.t[b] as number;
    const uniforms = ex.response.map(() => rng.next());
    for (let k = 0; k < pairs; k++) {
      const second = k === 1 && method.masks === 'independent' ? ex.response.map(() => rng.next()) : [];
      const row = (b * pairs + k) * length;
      const tokens = [...ex.prompt, ...ex.response];
      targets.set(tokens, row);
      ex.response.forEach((token, i) => {
        const q = method.isad && token === DELIMITER_ID ? isadProbability(t) : maskProbability(t);
        const masked =
          k === 0
            ? (uniforms[i] as number) < q
            : method.masks === 'mirror'
              ? (uniforms[i] as number) > 1 - q
              : (second[i] as number) < q;
        if (!masked) return;
        tokens[promptLen + i] = MASK_ID;
        weights[row + promptLen + i] =
          (timesteps.weight[b] as number) / (ex.response.length * q * examples.length * pairs);
      });
      inputs.set(tokens, row);
    }
  });
  return { rows, length, inputs, targets, weights };
}
