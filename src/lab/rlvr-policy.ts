import * as tf from '@tensorflow/tfjs';
import { createRng } from '../core/rng.js';
import type { Params } from './layers.js';
import type { ModelConfig } from './model-config.js';
import { tokenLogprobs } from './rlvr-loss.js';
import { decodeChars, EOS, encodePrompt, PAD } from './rlvr-tokenizer.js';
import { finalHidden, forward } from './transformer.js';

/**
 * The lab transformer as a policy over completions: a prompt left-padded to `promptWidth`, the
 * separator, then up to `completionLen` sampled tokens, the last of them the end token.
 */
export interface PolicyShape {
  config: ModelConfig;
  promptWidth: number;
  completionLen: number;
}

/** One sampled completion: its tokens (through the end token, or cut at `completionLen`) and text. */
export interface Rollout {
  tokens: number[];
  text: string;
  /** log π_old of each token, at the sampling temperature. */
  logprobs: number[];
}

/** Full sequences [N, seqLen]: prompt, separator, completion tokens, padding. */
export function sequences(
  shape: PolicyShape,
  prompts: readonly string[],
  completions: readonly number[][],
): number[][] {
  return prompts.map((p, i) => {
    const row = [...encodePrompt(p, shape.promptWidth), ...(completions[i] ?? [])];
    return [...row, ...Array<number>(shape.config.seqLen - row.length).fill(PAD)];
  });
}

/**
 * Samples one completion per prompt, token by token, at `temperature` (0: greedy), from a seeded
 * generator: the same parameters, prompts and seed give the same completions. Each step reruns the
 * model on the full fixed-shape sequence (the causal mask hides what is ahead), which keeps one
 * compiled shape on the WASM backend.
 */
export function sample(
  params: Params,
  shape: PolicyShape,
  prompts: readonly string[],
  temperature: number,
  seed: number,
): Rollout[] {
  const rng = createRng(seed);
  const n = prompts.length;
  const start = shape.promptWidth + 1;
  const completions: number[][] = prompts.map(() => []);
  const logprobs: number[][] = prompts.map(() => []);
  const done = prompts.map(() => false);
  for (let t = 0; t < shape.completionLen && done.some((d) => !d); t++) {
    const rows = sequences(shape, prompts, completions);
    const probs = tf.tidy(() => {
      const logits = forward(params, shape.config, tf.tensor2d(rows, undefined, 'int32'));
      const at = logits.slice([0, start - 1 + t, 0], [n, 1, -1]).reshape([n, -1]);
      return tf.logSoftmax(at.div(temperature > 0 ? temperature : 1)).arraySync() as number[][];
    });
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      const lp = probs[i] as number[];
      const token = temperature > 0 ? draw(lp, rng.next()) : argmax(lp);
      (completions[i] as number[]).push(token);
      (logprobs[i] as number[]).push(lp[token] as number);
      if (token === EOS) done[i] = true;
    }
  }
  return completions.map((tokens, i) => ({
    tokens,
    text: decodeChars(tokens),
    logprobs: logprobs[i] as number[],
  }));
}

/**
 * log π of each rollout's tokens and the entropy at each of its positions under `params`, padded to
 * [N, completionLen] with a mask. Called inside a gradient, the log-probs carry it.
 */
export function rolloutLogprobs(
  params: Params,
  shape: PolicyShape,
  prompts: readonly string[],
  rollouts: readonly Pick<Rollout, 'tokens'>[],
  temperature: number,
): { logprobs: tf.Tensor2D; entropy: tf.Tensor2D; mask: tf.Tensor2D } {
  const n = prompts.length;
  const c = shape.completionLen;
  const rows = sequences(
    shape,
    prompts,
    rollouts.map((r) => r.tokens),
  );
  const start = shape.promptWidth + 1;
  const logits = forward(params, shape.config, tf.tensor2d(rows, undefined, 'int32')).slice(
    [0, start - 1, 0],
    [n, c, -1],
  );
  const targets = tf.tensor2d(
    rows.map((r) => r.slice(start, start + c)),
    [n, c],
    'int32',
  );
  const mask = tf.tensor2d(
    rollouts.map((r) => Array.from({ length: c }, (_, t) => (t < r.tokens.length ? 1 : 0))),
    [n, c],
  );
  return { ...tokenLogprobs(logits, targets, temperature), mask };
}

/**
 * Each rollout's final hidden states mean-pooled over its completion tokens (the end token
 * included): the per-rollout input CLIPO's head embeds. Numbers, not tensors: no gradient flows
 * back into the policy through the shaping.
 */
export function pooledHidden(
  params: Params,
  shape: PolicyShape,
  prompts: readonly string[],
  rollouts: readonly Pick<Rollout, 'tokens'>[],
): number[][] {
  const start = shape.promptWidth + 1;
  const rows = sequences(
    shape,
    prompts,
    rollouts.map((r) => r.tokens),
  );
  return tf.tidy(() => {
    const hidden = finalHidden(params, shape.config, tf.tensor2d(rows, undefined, 'int32')).slice(
      [0, start, 0],
      [prompts.length, shape.completionLen, -1],
    );
    const mask = tf.tensor2d(
      rollouts.map((r) =>
        Array.from({ length: shape.completionLen }, (_, t) => (t < r.tokens.length ? 1 : 0)),
      ),
    );
    return hidden
      .mul(mask.expandDims(2))
      .sum(1)
      .div(tf.maximum(mask.sum(1, true), 1))
      .arraySync() as number[][];
  });
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if ((xs[i] as number) > (xs[best] as number)) best = i;
  return best;
}

function draw(logprobs: readonly number[], u: number): number {
  let acc = 0;
  for (let i = 0; i < logprobs.length; i++) {
    acc += Math.exp(logprobs[i] as number);
    if (u < acc) return i;
  }
  return argmax(logprobs);
}
