import { describe, expect, test } from 'vitest';
import {
  instability,
  isStable,
  type SiameseNormRun,
  STALL_FRACTION,
  stabilityCell,
} from './siamesenorm-run.js';

const run = (val: number | null, extra: Partial<SiameseNormRun> = {}): SiameseNormRun => ({
  run: 'post-d4-lr0.03-s0',
  norm: 'post',
  depth: 4,
  lr: 0.03,
  seed: 0,
  initial_loss: 3.33,
  val_loss: val,
  diverged_at: null,
  spikes: [],
  ...extra,
});

describe('stable: neither diverged nor stalled', () => {
  test('the stall line is 0.75 of the first step loss (docs/lab.md)', () => {
    expect(STALL_FRACTION).toBe(0.75);
    // From a first loss of 4 the line is 3: below it the run learned, at it the run stalled.
    expect(instability(run(2.99, { initial_loss: 4 }))).toBeNull();
    expect(instability(run(3, { initial_loss: 4 }))).toBe('stalled');
  });

  test('a run that ends at 0.85 of its initial loss (Post-Norm at 2.82) stalled: not stable', () => {
    expect(instability(run(0.85 * 3.33))).toBe('stalled');
    expect(isStable(run(2.82))).toBe(false);
    expect(isStable(run(1.7))).toBe(true);
  });

  test('diverged is a non-finite loss: a recorded NaN step, or a non-finite or missing validation loss', () => {
    expect(instability(run(null, { diverged_at: 40 }))).toBe('diverged');
    expect(instability(run(Number.NaN))).toBe('diverged');
    expect(instability(run(Number.POSITIVE_INFINITY))).toBe('diverged');
    expect(instability(run(null))).toBe('diverged');
    expect(isStable(run(null, { diverged_at: 40 }))).toBe(false);
  });

  test('spikes alone are not instability', () => {
    expect(isStable(run(1.7, { spikes: [12, 30, 31, 90] }))).toBe(true);
    expect(instability(run(2.9, { spikes: [12] }))).toBe('stalled');
  });
});

describe('stabilityCell', () => {
  test('stable runs over the group, then why the others are not', () => {
    expect(stabilityCell([run(1.6), run(1.7), run(1.8)])).toBe('3/3');
    expect(stabilityCell([run(1.6), run(2.82), run(2.9)])).toBe('1/3 (2 stalled)');
    expect(stabilityCell([run(2.82), run(null, { diverged_at: 7 }), run(2.9)])).toBe(
      '0/3 (1 diverged, 2 stalled)',
    );
  });
});
