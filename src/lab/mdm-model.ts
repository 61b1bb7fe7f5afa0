import * as tf from '@tensorflow/tfjs';
import { type Params, tokenCrossEntropy } from './layers.js';
import type { MaskedBatch } from './mdm-batch.js';
import { MASK_ID, type MdmExample } from './mdm-tasks.js';
import type { ModelConfig } from './model-config.js';
import { forward } from './transformer.js';

/** Σ weight · CE over a masked batch: the batch's ELBO loss (weights from `maskedBatch`). */
export function mdmLoss(params: Params, config: ModelConfig, batch: MaskedBatch): tf.Scalar {
  const shape = [batch.rows, batch.length];
  const ce = tokenCrossEntropy(
    forward(params, config, tf.tensor(batch.inputs, shape, 'int32')),
    tf.tensor(batch.targets, shape, 'int32'),
  );
  return ce.mul(tf.tensor(batch.weights, shape)).sum() as tf.Scalar;
}

/**
 * The denoising sampler: the response starts fully masked; each of |R| steps predicts every
 * masked position and commits the one the model is surest of (confidence-ordered unmasking).
 */
export function denoise(params: Params, config: ModelConfig, examples: readonly MdmExample[]): number[][] {
  const first = examples[0] as MdmExample;
  const promptLen = first.prompt.length;
  const length = promptLen + first.response.length;
  const tokens = examples.map((ex) => [...ex.prompt, ...ex.response.map(() => MASK_ID)]);
  for (let step = 0; step < first.response.length; step++) {
    const [probs, best] = tf.tidy(() => {
      const logits = forward(params, config, tf.tensor2d(tokens.flat(), [tokens.length, length], 'int32'));
      const p = tf.softmax(logits);
      return [p.max(-1).arraySync() as number[][], p.argMax(-1).arraySync() as number[][]];
    });
    tokens.forEach((row, b) => {
      let pick = -1;
      for (let i = promptLen; i < length; i++)
        if (row[i] === MASK_ID && (pick < 0 || (probs[b]?.[i] as number) > (probs[b]?.[pick] as number)))
          pick = i;
      // MASK is never a target, so a trained model does not predict it.
      if (pick >= 0) row[pick] = best[b]?.[pick] as number;
    });
  }
  return tokens.map((row) => row.slice(promptLen));
}

/** Exact-match accuracy of the sampler's responses. */
export function exactMatch(params: Params, config: ModelConfig, examples: readonly MdmExample[]): number {
  const out = denoise(params, config, examples);
  return examples.filter((ex, i) => ex.response.every((t, j) => out[i]?.[j] === t)).length / examples.length;
}
