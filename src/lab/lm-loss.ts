import type * as tf from '@tensorflow/tfjs';
import { type Params, tokenCrossEntropy } from './layers.js';
import type { ModelConfig } from './model-config.js';
import { forward } from './transformer.js';

/** Next-token loss: mean cross-entropy of `targets [B, T]` under the model's logits for `inputs [B, T]`. */
export function lmLoss(
  params: Params,
  config: ModelConfig,
  inputs: tf.Tensor,
  targets: tf.Tensor,
): tf.Scalar {
  return tokenCrossEntropy(forward(params, config, inputs), targets).mean() as tf.Scalar;
}
