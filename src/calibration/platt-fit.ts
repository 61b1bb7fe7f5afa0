import { RewardKitError } from '../core/index.js';

/** Platt scaling's parameters: calibrated = 1 / (1 + exp(-(a·score + b))). */
export interface PlattParams {
  readonly a: number;
  readonly b: number;
}

export interface PlattFit extends PlattParams {
  /** Newton steps taken. */
  readonly iterations: number;
}

const MAX_ITERATIONS = 100;
const GRADIENT_TOLERANCE = 1e-10;
// A ridge on the Hessian keeps the Newton step defined when every score is equal.
const HESSIAN_RIDGE = 1e-12;
const MIN_STEP = 1e-10;
const CONVERGED_DECREMENT = 1e-14;

/**
 * Fits Platt scaling by Newton's method with a backtracking line search (Lin, Lin and Weng, "A note
 * on Platt's probabilistic outputs", 2007). The targets are Platt's smoothed ones, (N₊+1)/(N₊+2) for
 * a positive and 1/(N₋+2) for a negative, so the optimum is finite even when the scores separate the
 * classes perfectly. The loss is evaluated as softplus(z) − t·z, which does not overflow.
 */
export function fitPlatt(scores: readonly number[], labels: readonly number[]): PlattFit {
  if (scores.length !== labels.length)
    throw new RewardKitError('RK_USAGE', `${scores.length} scores but ${labels.length} labels`);
  if (scores.length === 0) throw new RewardKitError('RK_USAGE', 'Platt scaling needs at least one point');
  let positives = 0;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (label !== 0 && label !== 1)
      throw new RewardKitError(
        'RK_USAGE',
        `Platt scaling needs binary labels (0 or 1); label ${label} at index ${i}`,
      );
    if (!Number.isFinite(scores[i]))
      throw new RewardKitError('RK_USAGE', `score ${scores[i]} at index ${i} is not finite`);
    positives += label;
  }
  const negatives = labels.length - positives;
  const hiTarget = (positives + 1) / (positives + 2);
  const loTarget = 1 / (negatives + 2);
  const targets = labels.map((label) => (label === 1 ? hiTarget : loTarget));

  const loss = (a: number, b: number): number => {
    let total = 0;
    for (let i = 0; i < scores.length; i++) {
      const z = a * (scores[i] as number) + b;
      total += softplus(z) - (targets[i] as number) * z;
    }
    return total;
  };

  let a = 0;
  let b = Math.log((positives + 1) / (negatives + 1));
  let current = loss(a, b);
  let iterations = 0;
  for (; iterations < MAX_ITERATIONS; iterations++) {
    let ga = 0;
    let gb = 0;
    let haa = HESSIAN_RIDGE;
    let hab = 0;
    let hbb = HESSIAN_RIDGE;
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i] as number;
      const p = sigmoid(a * s + b);
      const residual = p - (targets[i] as number);
      const curvature = p * (1 - p);
      ga += residual * s;
      gb += residual;
      haa += curvature * s * s;
      hab += curvature * s;
      hbb += curvature;
    }
    if (Math.abs(ga) < GRADIENT_TOLERANCE && Math.abs(gb) < GRADIENT_TOLERANCE) break;
    const det = haa * hbb - hab * hab;
    const da = -(hbb * ga - hab * gb) / det;
    const db = -(haa * gb - hab * ga) / det;
    const slope = ga * da + gb * db;
    // The Newton decrement (−slope) estimates how far the loss is above its minimum. Once that is
    // below the loss's own rounding, a line search cannot tell steps apart (every one "decreases"
    // the loss by 0), so take the last full step, which is exact to rounding here, and stop.
    if (-slope <= CONVERGED_DECREMENT * Math.max(1, current)) {
      a += da;
      b += db;
      iterations++;
      break;
    }
    let step = 1;
    let accepted = false;
    while (step >= MIN_STEP) {
      const na = a + step * da;
      const nb = b + step * db;
      const next = loss(na, nb);
      // Armijo condition: a sufficient decrease along the Newton direction.
      if (next <= current + 1e-4 * step * slope) {
        a = na;
        b = nb;
        current = next;
        accepted = true;
        break;
      }
      step /= 2;
    }
    // No step decreases the loss any further: at the optimum to machine precision.
    if (!accepted) break;
  }
  return { a, b, iterations };
}

/** The calibrated value of `score` under Platt parameters. */
export function applyPlatt(params: PlattParams, score: number): number {
  return sigmoid(params.a * score + params.b);
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}
