import { describe, expect, test } from 'vitest';
import type { SiameseNormRun } from './siamesenorm-run.js';
import { siameseNormVerdicts } from './siamesenorm-verdicts.js';

// The verdicts from fixed per-seed runs: which runs each claim pairs, the effect, the status.

const SMOKE = 'below the documented minimum: --steps 12 < 100 (docs/lab.md)';
const SEEDS = [0, 1, 2];

const run = (
  norm: SiameseNormRun['norm'],
  depth: number,
  lr: number,
  seed: number,
  val: number | null,
  diverged: number | null = null,
): SiameseNormRun => ({
  run: `${norm}-d${depth}-lr${lr}-s${seed}`,
  norm,
  depth,
  lr,
  seed,
  initial_loss: 3.33,
  val_loss: val,
  diverged_at: diverged,
  spikes: [],
});

/**
 * Depths 2 and 6, lrs 0.003 and 0.03. Every placement learns at depth 2. At depth 6 and lr 0.03
 * Post-Norm stalls (seeds 0, 2) or diverges (seed 1), DeepNorm stalls on seed 0 only, Pre-Norm
 * stalls on seed 2 (so its highest stable lr there is 0.003) and SiameseNorm learns. Pre-Norm's
 * best lr at depth 2 is 0.003, where it beats SiameseNorm; at 0.03 SiameseNorm is lower.
 */
const sweep = (): SiameseNormRun[] =>
  SEEDS.flatMap((s) => [
    run('pre', 2, 0.003, s, 1.58),
    run('pre', 2, 0.03, s, [2.04, 2.07, 1.96][s] as number),
    run('siamese', 2, 0.003, s, 1.69),
    run('siamese', 2, 0.03, s, [1.7, 1.76, 1.55][s] as number),
    run('post', 2, 0.003, s, 1.8),
    run('post', 2, 0.03, s, 1.79),
    run('deepnorm', 2, 0.003, s, 1.8),
    run('deepnorm', 2, 0.03, s, 1.81),
    run('pre', 6, 0.003, s, 1.6 + s / 100),
    run('pre', 6, 0.03, s, s === 2 ? 2.8 : 2.1),
    run('siamese', 6, 0.003, s, 1.75 + s / 50),
    run('siamese', 6, 0.03, s, 1.9),
    run('post', 6, 0.003, s, 1.9),
    s === 1 ? run('post', 6, 0.03, s, null, 60) : run('post', 6, 0.03, s, 2.82),
    run('deepnorm', 6, 0.003, s, 1.9),
    run('deepnorm', 6, 0.03, s, s === 0 ? 2.7 : 2.2),
  ]);

describe('siameseNormVerdicts', () => {
  test('stability per depth at the top lr, against Post-Norm and DeepNorm, then its trend with depth', () => {
    const verdicts = siameseNormVerdicts(sweep());
    expect(verdicts.map((v) => [v.claim, v.status, v.effect])).toEqual([
      ['stability at lr 0.03, depth 2: SiameseNorm stable where Post-Norm is not', 'inconclusive', 0],
      ['stability at lr 0.03, depth 6: SiameseNorm stable where Post-Norm is not', 'held', 1],
      [
        "stability with depth at lr 0.03: Post-Norm's instability grows from depth 2 to 6 more than SiameseNorm's",
        'held',
        1,
      ],
      ['stability at lr 0.03, depth 2: SiameseNorm stable where DeepNorm is not', 'inconclusive', 0],
      ['stability at lr 0.03, depth 6: SiameseNorm stable where DeepNorm is not', 'inconclusive', 1 / 3],
      [
        "stability with depth at lr 0.03: DeepNorm's instability grows from depth 2 to 6 more than SiameseNorm's",
        'inconclusive',
        1 / 3,
      ],
      [
        'validation loss at depth 2, at the highest lr where Pre-Norm is stable: SiameseNorm below Pre-Norm',
        'held',
        expect.closeTo((-0.34 - 0.31 - 0.41) / 3, 9),
      ],
      [
        'validation loss at depth 6, at the highest lr where Pre-Norm is stable: SiameseNorm below Pre-Norm',
        'not_held',
        expect.closeTo(0.15 + 0.01, 9),
      ],
    ]);
    expect(verdicts.every((v) => v.seeds === 3)).toBe(true);
  });

  test('the loss comparison pairs both placements at one lr, not each at its best', () => {
    const [depth2, depth6] = siameseNormVerdicts(sweep()).slice(-2);
    // At depth 2 Pre-Norm is stable at 0.03; at depth 6 it stalled on seed 2 there, so 0.003.
    expect(depth2?.metric).toBe(
      'validation loss at lr 0.03, SiameseNorm − Pre-Norm, same steps and batch, paired by seed',
    );
    expect(depth6?.metric).toBe(
      'validation loss at lr 0.003, SiameseNorm − Pre-Norm, same steps and batch, paired by seed',
    );
  });

  test('no lr where Pre-Norm is stable on every seed gives too_small, saying so', () => {
    const runs = SEEDS.flatMap((s) => [
      run('pre', 4, 0.03, s, s === 0 ? 2.9 : 2),
      run('siamese', 4, 0.03, s, 1.7),
    ]);
    expect(siameseNormVerdicts(runs)).toEqual([
      expect.objectContaining({
        status: 'too_small',
        why: 'Pre-Norm is stable on every seed at no lr of --lrs at depth 4',
      }),
    ]);
  });

  test('one depth gives no trend; a diverged SiameseNorm is not_held for stability and leaves no loss pair', () => {
    const runs = SEEDS.flatMap((s) => [
      run('pre', 4, 0.03, s, 1.6),
      run('post', 4, 0.03, s, 1.8),
      run('siamese', 4, 0.03, s, null, 30),
    ]);
    expect(siameseNormVerdicts(runs)).toEqual([
      expect.objectContaining({ status: 'not_held', effect: -1 }),
      expect.objectContaining({ status: 'too_small', why: '3 of 3 seeds gave no finite effect' }),
    ]);
  });

  test('a missing run is a missing pair: too_small, never a status from the other seeds', () => {
    const runs = sweep().filter((r) => r.run !== 'post-d6-lr0.03-s1');
    expect(siameseNormVerdicts(runs)[1]).toMatchObject({
      status: 'too_small',
      why: '1 of 3 seeds gave no finite effect',
    });
  });

  test('below the minimum every verdict is too_small with that reason, the no-stable-lr one too', () => {
    // Pre-Norm stalls at every lr of depth 6 here.
    const runs = sweep().map((r) => (r.norm === 'pre' && r.depth === 6 ? { ...r, val_loss: 2.9 } : r));
    expect(siameseNormVerdicts(runs)[7]?.why).toBe(
      'Pre-Norm is stable on every seed at no lr of --lrs at depth 6',
    );
    const smoke = siameseNormVerdicts(runs, SMOKE);
    expect(smoke).toHaveLength(8);
    expect(smoke.map((v) => [v.status, v.why])).toEqual(Array(8).fill(['too_small', SMOKE]));
  });
});
