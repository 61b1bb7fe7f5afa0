import { describe, expect, test } from 'vitest';
import { type GapSeedResult, gapVerdicts } from './gap-verdicts.js';
import { belowMinimum } from './lab-minimum.js';
import { type MdmMethodResult, mdmVerdicts } from './mdm-verdicts.js';

// Each experiment's verdicts from fixed per-seed results: the effect it extracts per seed, the
// status the interval gives, and every claim too_small below the documented minimum.

const SMOKE = 'below the documented minimum: --steps 12 < 100 (docs/lab.md)';

describe('belowMinimum', () => {
  test('names each option under its minimum as a flag, and is undefined when none is', () => {
    const o = { steps: 12, evalExamples: 500, baseSteps: 20 };
    expect(belowMinimum(o, { steps: 100, evalExamples: 200, baseSteps: 300 })).toBe(
      'below the documented minimum: --steps 12 < 100, --base-steps 20 < 300 (docs/lab.md)',
    );
    expect(belowMinimum(o, { steps: 12, evalExamples: 200 })).toBeUndefined();
  });
});

describe('gapVerdicts', () => {
  const seed = (s: number, ratio: number, raw: number, matched: number): GapSeedResult => ({
    seed: s,
    base_hidden_norm_ratio: ratio,
    modes: [
      { mode: 'raw', hidden_norm_ratio: ratio, fed_norm_ratio: ratio, accuracy: raw, supervised_share: 0.5 },
      {
        mode: 'norm-matched',
        hidden_norm_ratio: ratio,
        fed_norm_ratio: 1,
        accuracy: matched,
        supervised_share: 0.5,
      },
    ],
  });

  test('norm mismatch is the per-seed ratio − 2; alignment the accuracy paired by seed', () => {
    // The reversal: seed 1 has norm-matched below raw, so the interval spans 0.
    const [mismatch, helps] = gapVerdicts([
      seed(0, 90, 0.2, 0.206),
      seed(1, 95, 0.214, 0.2),
      seed(2, 100, 0.208, 1),
    ]);
    expect(mismatch).toMatchObject({ status: 'held', seeds: 3 });
    expect(mismatch?.effect).toBeCloseTo(93, 9);
    expect(helps).toMatchObject({
      claim: 'alignment helps (norm-matched vs raw h): higher answer accuracy',
      status: 'inconclusive',
    });
    expect(helps?.effect).toBeCloseTo((0.006 - 0.014 + 0.792) / 3, 9);
    const steady = gapVerdicts([seed(0, 3, 0.2, 0.3), seed(1, 3, 0.21, 0.32), seed(2, 3, 0.19, 0.3)]);
    expect(steady.map((v) => v.status)).toEqual(['held', 'held']);
    const worse = gapVerdicts([seed(0, 1.5, 0.3, 0.2), seed(1, 1.4, 0.32, 0.21), seed(2, 1.6, 0.3, 0.19)]);
    expect(worse.map((v) => v.status)).toEqual(['not_held', 'not_held']);
  });

  test('a diverged run (NaN) makes its claims too_small with the reason; below the minimum every claim is', () => {
    const diverged = gapVerdicts([
      seed(0, 90, 0.2, 0.3),
      seed(1, 95, 0.2, Number.NaN),
      seed(2, 99, 0.2, 0.3),
    ]);
    expect(diverged[0]?.status).toBe('held');
    expect(diverged[1]).toMatchObject({
      status: 'too_small',
      why: '1 of 3 seeds gave no finite effect',
      seeds: 2,
    });
    const smoke = gapVerdicts([seed(0, 90, 0.2, 0.3), seed(1, 95, 0.2, 0.3), seed(2, 99, 0.2, 0.3)], SMOKE);
    expect(smoke.map((v) => [v.status, v.why])).toEqual([
      ['too_small', SMOKE],
      ['too_small', SMOKE],
    ]);
  });
});

describe('mdmVerdicts', () => {
  const variance = (grad: number) => ({ loss: { a: grad / 10, b: 0 }, grad: { a: grad, b: grad } });
  const method = (name: MdmMethodResult['method'], grads: number[], accuracy: number[]): MdmMethodResult => ({
    method: name,
    variance: grads.map(variance),
    accuracy,
    accuracy_mean: Number.NaN, // not read: the verdicts work from the per-seed values
    accuracy_std: Number.NaN,
  });

  test('variance as a per-seed log ratio, accuracy paired, spread as paired absolute deviations', () => {
    const results = [
      method('standard', [2, 4, 3], [0.5, 0.9, 0.7]),
      method('mirror', [1, 2, 1.5], [0.8, 0.8, 0.8]),
      method('ppots+mirror', [1, 2, 1.5], [0.96, 0.98, 0.97]),
    ];
    const [variance_, accuracy, spread] = mdmVerdicts(results);
    // The combination is the claim when it is run; each other method only without it.
    expect(mdmVerdicts(results)).toHaveLength(3);
    expect(variance_).toMatchObject({ status: 'held', seeds: 3 });
    expect(variance_?.effect).toBeCloseTo(Math.log(0.5), 9);
    expect(accuracy?.status).toBe('inconclusive');
    expect(accuracy?.effect).toBeCloseTo((0.46 + 0.08 + 0.27) / 3, 9);
    // standard deviates 0.2, 0.2, 0 from its mean 0.7; the combination 0.01, 0.01, 0 from 0.97.
    expect(spread?.effect).toBeCloseTo((-0.19 - 0.19 + 0) / 3, 9);
    expect(spread?.status).toBe('inconclusive');
    expect(
      mdmVerdicts([results[0] as MdmMethodResult, results[1] as MdmMethodResult]).map((v) => v.claim),
    ).toEqual([
      'variance reduced (mirror vs standard): lower gradient variance A+B',
      'accuracy up (mirror vs standard): higher exact match',
      'spread down (mirror vs standard): smaller run-to-run spread of exact match',
    ]);
  });

  test('a diverged seed, a missing baseline and a smoke run give too_small, never a status', () => {
    const diverged = mdmVerdicts([
      method('standard', [2, 4, 3], [0.5, 0.9, 0.7]),
      method('ppots', [1, 2, 1.5], [0.8, Number.NaN, 0.8]),
    ]);
    expect(diverged.map((v) => v.status)).toEqual(['held', 'too_small', 'too_small']);
    expect(diverged[1]?.why).toBe('1 of 3 seeds gave no finite effect');
    expect(mdmVerdicts([method('mirror', [1, 1, 1], [1, 1, 1])])).toEqual([
      expect.objectContaining({ status: 'too_small', why: 'no baseline: --methods must include standard' }),
    ]);
    const smoke = mdmVerdicts(
      [method('standard', [2, 4, 3], [0.5, 0.9, 0.7]), method('ppots+mirror', [1, 2, 1.5], [1, 1, 1])],
      SMOKE,
    );
    expect(smoke.map((v) => [v.status, v.why])).toEqual(Array(3).fill(['too_small', SMOKE]));
  });
});
