import * as tf from '@tensorflow/tfjs';
import { layerNorm, linear, mlp, multiHeadAttention, type Params } from './layers.js';
import type { ModelConfig } from './model-config.js';
import { seededNormal } from './seeded-normal.js';
import { type Norm, siameseScale, siameseSublayer } from './siamese-norm.js';

const SUBLAYERS = ['attn', 'mlp'] as const;

/** The LayerNorms each sublayer owns, by placement (SiameseNorm: post, input and pre). */
function sublayerNorms(config: ModelConfig): string[] {
  return config.norm === 'siamese' ? ['lnPost', 'lnIn', 'lnPre'] : ['ln'];
}

/** The norms between the last layer and the head (Post-Norm and DeepNorm end normalized already). */
function headNorms(config: ModelConfig): string[] {
  if (config.norm === 'siamese') return ['lnA', 'lnB', 'lnF'];
  return config.norm === 'pre' ? ['lnF'] : [];
}

/** Every parameter's name and shape, in the model's fixed order. */
export function parameterShapes(config: ModelConfig): [string, number[]][] {
  const { vocab, width: d, seqLen, mlpRatio } = config;
  const shapes: [string, number[]][] = [
    ['tok', [vocab, d]],
    ['pos', [seqLen, d]],
  ];
  const ln = (name: string) => shapes.push([`${name}.g`, [d]], [`${name}.b`, [d]]);
  for (let l = 0; l < config.depth; l++) {
    for (const s of SUBLAYERS) for (const n of sublayerNorms(config)) ln(`l${l}.${s}.${n}`);
    shapes.push([`l${l}.attn.wqkv`, [d, 3 * d]], [`l${l}.attn.wo`, [d, d]]);
    shapes.push([`l${l}.mlp.w1`, [d, mlpRatio * d]], [`l${l}.mlp.w2`, [mlpRatio * d, d]]);
  }
  for (const n of headNorms(config)) ln(n);
  if (!config.tiedHead) shapes.push(['head', [d, vocab]]);
  return shapes;
}

/**
 * Seeded initial parameters: N(0, 0.02²) matrices (GPT-2), output projections scaled by
 * 1/sqrt(2·depth), LayerNorm gains 1 and biases 0. Every placement gets the same init, so a sweep
 * compares placements, not initializations.
 */
export function initParams(config: ModelConfig, seed: number): Params {
  const params: Params = {};
  parameterShapes(config).forEach(([name, shape], i) => {
    const size = shape.reduce((a, b) => a * b, 1);
    if (name.endsWith('.g')) params[name] = tf.ones(shape);
    else if (name.endsWith('.b')) params[name] = tf.zeros(shape);
    else {
      const projection = name.endsWith('.wo') || name.endsWith('.w2');
      const std = projection ? 0.02 / Math.sqrt(2 * config.depth) : 0.02;
      params[name] = tf.tensor(seededNormal(size, std, seed * 100_003 + i), shape);
    }
  });
  return params;
}

const p = (params: Params, name: string): tf.Tensor => {
  const t = params[name];
  if (t === undefined) throw new Error(`transformer: no parameter "${name}"`);
  return t;
};
const norm =
  (params: Params, name: string): Norm =>
  (x) =>
    layerNorm(x, p(params, `${name}.g`), p(params, `${name}.b`));

/**
 * Token + position embeddings, `tokens [B, T]` (int32) → `[B, T, D]`. The lookup is a one-hot
 * matmul: the WASM backend has no kernel for gather's gradient (UnsortedSegmentSum), and at a
 * vocabulary of tens of characters the matmul costs nothing.
 */
export function embed(params: Params, tokens: tf.Tensor): tf.Tensor {
  const tok = p(params, 'tok');
  const t = tokens.shape[1] as number;
  const oneHot = tf.oneHot(tokens as tf.Tensor2D, tok.shape[0] as number);
  return linear(oneHot, tok).add(p(params, 'pos').slice([0, 0], [t, -1]));
}

/**
 * The layers over input vectors `x [B, T, D]`: `raw` is the last residual stream before any final
 * norm (the Y stream for SiameseNorm — what GAP feeds back), `out` what the head reads.
 * DeepNorm is `x ← LN(αx + F(x))` with α = (2N)^(1/4), N the depth.
 */
export function trunk(params: Params, config: ModelConfig, x: tf.Tensor): { raw: tf.Tensor; out: tf.Tensor } {
  const sub = (l: number, s: (typeof SUBLAYERS)[number]) => (u: tf.Tensor) =>
    s === 'attn'
      ? multiHeadAttention(
          u,
          { wqkv: p(params, `l${l}.attn.wqkv`), wo: p(params, `l${l}.attn.wo`) },
          config.heads,
          config.causal,
        )
      : mlp(u, { w1: p(params, `l${l}.mlp.w1`), w2: p(params, `l${l}.mlp.w2`) });
  if (config.norm === 'siamese') {
    let streams = { x, y: x };
    for (let l = 0; l < config.depth; l++)
      for (const s of SUBLAYERS)
        streams = siameseSublayer(streams, sub(l, s), siameseScale(l), {
          post: norm(params, `l${l}.${s}.lnPost`),
          input: norm(params, `l${l}.${s}.lnIn`),
          pre: norm(params, `l${l}.${s}.lnPre`),
        });
    const h = norm(params, 'lnA')(streams.x).add(norm(params, 'lnB')(streams.y));
    return { raw: streams.y, out: norm(params, 'lnF')(h) };
  }
  const alpha = config.norm === 'deepnorm' ? (2 * config.depth) ** 0.25 : 1;
  let h = x;
  for (let l = 0; l < config.depth; l++)
    for (const s of SUBLAYERS) {
      const ln = norm(params, `l${l}.${s}.ln`);
      h = config.norm === 'pre' ? h.add(sub(l, s)(ln(h))) : ln(h.mul(alpha).add(sub(l, s)(h)));
    }
  return { raw: h, out: config.norm === 'pre' ? norm(params, 'lnF')(h) : h };
}

/** Logits `[B, T, V]` from the head's input; a tied head reuses the token embedding. */
export function head(params: Params, config: ModelConfig, out: tf.Tensor): tf.Tensor {
  return config.tiedHead ? linear(out, p(params, 'tok').transpose()) : linear(out, p(params, 'head'));
}

/** The final hidden states `[B, T, D]` of `tokens [B, T]`: what the head reads (CLIPO pools them). */
export function finalHidden(params: Params, config: ModelConfig, tokens: tf.Tensor): tf.Tensor {
  return trunk(params, config, embed(params, tokens)).out;
}

/** Logits for `tokens [B, T]`. */
export function forward(params: Params, config: ModelConfig, tokens: tf.Tensor): tf.Tensor {
  return head(params, config, finalHidden(params, config, tokens));
}
