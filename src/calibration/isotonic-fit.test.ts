import { describe, expect, test } from 'vitest';
import { applyIsotonic, fitIsotonic } from './isotonic-fit.js';

const points = (scores: number[], labels: number[], weights?: number[]) =>
  scores.map((score, i) => ({ score, label: labels[i] as number, ...(weights && { weight: weights[i] }) }));

describe('fitIsotonic', () => {
  test.each([
    {
      name: 'two adjacent violators are each pooled',
      scores: [1, 2, 3, 4, 5, 6],
      labels: [0.1, 0.3, 0.2, 0.4, 0.35, 0.5],
      x: [1, 2, 3, 4, 5, 6],
      y: [0.1, 0.25, 0.25, 0.375, 0.375, 0.5],
    },
    {
      name: 'a decreasing sequence pools into its mean',
      scores: [1, 2, 3],
      labels: [1, 0.5, 0],
      x: [1, 3],
      y: [0.5, 0.5],
    },
    {
      name: 'an increasing sequence is kept',
      scores: [3, 1, 2],
      labels: [1, 0, 0.5],
      x: [1, 2, 3],
      y: [0, 0.5, 1],
    },
    { name: 'ties are pooled before PAV', scores: [1, 1, 2], labels: [0, 1, 1], x: [1, 2], y: [0.5, 1] },
    {
      name: 'a tied block that violates pools with its successor',
      scores: [1, 1, 2],
      labels: [1, 0, 0],
      x: [1, 2],
      y: [1 / 3, 1 / 3],
    },
    { name: 'one point is a constant map', scores: [0.4], labels: [1], x: [0.4], y: [1] },
  ])('$name', ({ scores, labels, x, y }) => {
    const knots = fitIsotonic(points(scores, labels));
    expect(knots.x).toEqual(x);
    for (const [i, v] of knots.y.entries()) expect(v).toBeCloseTo(y[i] as number, 12);
  });

  test('weights move the pooled mean', () => {
    const knots = fitIsotonic(points([1, 2], [1, 0], [3, 1]));
    expect(knots).toEqual({ x: [1, 2], y: [0.75, 0.75] });
  });

  test('the fit is non-decreasing and minimizes squared error against any monotone alternative', () => {
    const scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const labels = [0, 1, 0, 0, 1, 1, 0, 1];
    const knots = fitIsotonic(points(scores, labels));
    const fitted = scores.map((s) => applyIsotonic(knots, s));
    for (let i = 1; i < fitted.length; i++) expect(fitted[i]).toBeGreaterThanOrEqual(fitted[i - 1] as number);
    const sse = (values: number[]) => values.reduce((sum, v, i) => sum + (v - (labels[i] as number)) ** 2, 0);
    // Closed form by hand: [0, 1/3, 1/3, 1/3, 2/3, 2/3, 2/3, 1]; error 2/3 + 2/3 = 4/3.
    expect(sse(fitted)).toBeCloseTo(4 / 3, 12);
    expect(sse(fitted)).toBeLessThanOrEqual(sse([0, 0.25, 0.25, 0.25, 0.5, 0.75, 0.75, 1]));
  });

  test.each([
    { score: Number.NaN, label: 0, message: /not a finite number/ },
    { score: 0, label: 1.5, message: /not in \[0, 1\]/ },
    { score: 0, label: 1, weight: 0, message: /positive/ },
  ])('rejects $score/$label/$weight', (point) => {
    expect(() => fitIsotonic([point])).toThrow(point.message);
  });
});

describe('applyIsotonic', () => {
  const knots = { x: [1, 2, 4], y: [0.1, 0.3, 0.7] };
  test.each([
    [0, 0.1],
    [1, 0.1],
    [1.5, 0.2],
    [2, 0.3],
    [3, 0.5],
    [4, 0.7],
    [9, 0.7],
  ])('maps %d to %d (linear between knots, clamped outside)', (score, value) => {
    expect(applyIsotonic(knots, score)).toBeCloseTo(value, 12);
  });
});
