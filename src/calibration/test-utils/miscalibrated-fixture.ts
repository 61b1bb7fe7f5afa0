import { createRng } from '../../core/index.js';
import type { CalibrationPoint } from '../isotonic-fit.js';

/**
 * A seeded set of labelled scores whose score is a known monotone distortion of the true
 * probability q: score = σ(3·logit(q) + 1), overconfident and shifted up; the label is Bernoulli(q).
 */
export function miscalibratedFixture(n: number, seed: number): CalibrationPoint[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => {
    const q = 0.02 + 0.96 * rng.next();
    const logit = Math.log(q / (1 - q));
    return { score: 1 / (1 + Math.exp(-(3 * logit + 1))), label: rng.next() < q ? 1 : 0 };
  });
}
