import * as tf from '@tensorflow/tfjs';
import type { Params } from './layers.js';
import type { MaskedBatch } from './mdm-batch.js';
import { MASK_ID, type MdmExample } from './mdm-tasks.js';
import type { ModelConfig } from './model-config.js';
import { forward } from './transformer.js';

/**
 * The autoregressive baseline's batch, in the masked batch's form so `mdmLoss` scores it: one row
 * per example (the rows per step of standard MDM training), the clean sequence as input and the
 * next token as target, weighted 1/(|R| B) on the positions that predict a response token. There
 * is no mask and no t, so its only gradient noise is the data (component C).
 */
export function autoregressiveBatch(examples: readonly MdmExample[]): MaskedBatch {
  const first = examples[0] as MdmExample;
  const promptLen = first.prompt.length;
  const length = promptLen + first.response.length;
  const inputs = new Int32Array(examples.length * length);
  const targets = new Int32Array(examples.length * length);
  const weights = new Float32Array(examples.length * length);
  examples.forEach((ex, b) => {
    const tokens = [...ex.prompt, ...ex.response];
    inputs.set(tokens, b * length);
    // Position i predicts token i + 1; the last position predicts nothing (weight 0).
    targets.set([...tokens.slice(1), MASK_ID], b * length);
    for (let i = promptLen - 1; i < length - 1; i++)
      weights[b * length + i] = 1 / (ex.response.length * examples.length);
  });
  return { rows: examples.length, length, inputs, targets, weights };
}

/** Greedy left-to-right decoding of the response by a causal model, scored by exact match. */
export function greedyExactMatch(
  params: Params,
  config: ModelConfig,
  examples: readonly MdmExample[],
): number {
  const first = examples[0] as MdmExample;
  const promptLen = first.prompt.length;
  const length = promptLen + first.response.length;
  // Positions ahead of the one decoded are hidden by the causal mask, so MASK only fills the shape.
  const tokens = examples.map((ex) => [...ex.prompt, ...ex.response.map(() => MASK_ID)]);
  for (let j = 0; j < first.response.length; j++) {
    const best = tf.tidy(
      () =>
        forward(params, config, tf.tensor2d(tokens.flat(), [tokens.length, length], 'int32'))
          .slice([0, promptLen - 1 + j, 0], [-1, 1, -1])
          .argMax(-1)
          .arraySync() as number[][],
    );
    tokens.forEach((row, b) => {
      row[promptLen + j] = best[b]?.[0] as number;
    });
  }
  return (
    examples.filter((ex, b) => ex.response.every((t, j) => tokens[b]?.[promptLen + j] === t)).length /
    examples.length
  );
}
