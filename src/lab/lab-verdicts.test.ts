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
      {
        mode: 'raw',
        hidden_norm_ratio: ratio,
        fed_norm_ratio: ratio,
        accuracy: raw,
        supervised_share: 0,
        context_loss: false,
      },
      {
        mode: 'norm-matched',
        hidden_norm_ratio: ratio,
        fed_norm_ratio: 1,
        accuracy: matched,
        supervised_share: 0.5,
        context_loss: true,
      },
    ],
  });
  const withControl = (s: GapSeedResult, none: number): GapSeedResult => ({
    ...s,
    modes: [
      {
        mode: 'none',
        hidden_norm_ratio: s.base_hidden_norm_ratio,
        fed_norm_ratio: 0,
        accuracy: none,
        supervised_share: 0,
        context_loss: false,
      },
      ...s.modes,
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

  test('the no-latent control: raw h against it (lower) and each aligned mode against it (higher), paired by seed', () => {
    const verdicts = gapVerdicts([
      withControl(seed(0, 90, 0.2, 0.5), 0.3),
      withControl(seed(1, 95, 0.21, 0.52), 0.32),
      withControl(seed(2, 99, 0.19, 0.49), 0.31),
    ]);
    expect(verdicts.map((v) => v.claim)).toEqual([
      "norm mismatch: the base model's final hidden state sits above 2× its input-embedding norm",
      'alignment helps (norm-matched vs raw h): higher answer accuracy',
      'raw feedback misleads (raw h vs no latent): lower answer accuracy',
      'aligned feedback helps (norm-matched vs no latent): higher answer accuracy',
    ]);
    const [, , misleads, helps] = verdicts;
    expect(misleads?.effect).toBeCloseTo((-0.1 - 0.11 - 0.12) / 3, 9);
    expect(misleads?.status).toBe('held');
    expect(misleads?.metric).toBe(
      'held-out answer accuracy, raw (context-level loss off) − no latent, paired by seed',
    );
    expect(helps?.effect).toBeCloseTo((0.2 + 0.2 + 0.18) / 3, 9);
    expect(helps?.status).toBe('held');
    expect(helps?.metric).toBe(
      'held-out answer accuracy, norm-matched (context-level loss on) − no latent, paired by seed',
    );
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
  const method = (
    name: MdmMethodResult['method'],
    grads: number[],
    accuracy: number[],
    total = grads.map((g) => 3 * g),
  ): MdmMethodResult => ({
    method: name,
    variance: grads.map(variance),
    total_variance: total,
    accuracy,
    accuracy_mean: Number.NaN, // not read: the verdicts work from the per-seed values
    accuracy_std: Number.NaN,
  });

  test('each method against its compute-matched baseline: MIRROR against the independent pair, P-POTS against standard', () => {
    const results = [
      method('standard', [2, 4, 3], [0.5, 0.9, 0.7]),
      method('ppots', [1, 2, 1.5], [0.8, 0.8, 0.8]),
      method('pair', [2, 4, 3], [0.5, 0.9, 0.7]),
      method('ppots+mirror', [1, 2, 1.5], [0.96, 0.98, 0.97]),
    ];
    const verdicts = mdmVerdicts(results);
    expect(verdicts.map((v) => v.claim)).toEqual([
      'variance reduced (ppots vs standard): lower gradient variance A+B',
      'accuracy up (ppots vs standard): higher exact match',
      'spread down (ppots vs standard): smaller run-to-run spread of exact match',
      'variance reduced (ppots+mirror vs pair): lower gradient variance A+B',
      'accuracy up (ppots+mirror vs pair): higher exact match',
      'spread down (ppots+mirror vs pair): smaller run-to-run spread of exact match',
    ]);
    const [variance_, accuracy, spread] = verdicts.slice(3);
    expect(variance_).toMatchObject({ status: 'held', seeds: 3 });
    expect(variance_?.effect).toBeCloseTo(Math.log(0.5), 9);
    expect(accuracy?.status).toBe('inconclusive');
    expect(accuracy?.effect).toBeCloseTo((0.46 + 0.08 + 0.27) / 3, 9);
    // pair deviates 0.2, 0.2, 0 from its mean 0.7; the combination 0.01, 0.01, 0 from 0.97.
    expect(spread?.effect).toBeCloseTo((-0.19 - 0.19 + 0) / 3, 9);
    expect(spread?.status).toBe('inconclusive');
  });

  test('with ar: the decomposition (C below standard’s A+B+C) and P-POTS+MIRROR toward autoregressive', () => {
    const results = [
      method('standard', [2, 4, 3], [0.5, 0.9, 0.7], [6, 12, 9]),
      method('pair', [2, 4, 3], [0.5, 0.9, 0.7], [4, 8, 6]),
      method('ppots+mirror', [1, 2, 1.5], [0.96, 0.98, 0.97], [2, 4, 3]),
      method('ar', [0, 0, 0], [0.9, 0.92, 0.91], [1, 2, 3]),
    ];
    const [decomposition, totalVariance, spread] = mdmVerdicts(results).slice(3);
    expect(decomposition?.claim).toMatch(/^variance decomposition/);
    expect(decomposition?.effect).toBeCloseTo((Math.log(1 / 6) + Math.log(2 / 12) + Math.log(3 / 9)) / 3, 9);
    expect(decomposition?.status).toBe('held');
    expect(totalVariance?.effect).toBeCloseTo(Math.log(0.5), 9);
    expect(totalVariance?.status).toBe('held');
    // ar deviates 0.01, 0.01, 0; the combination the same, pair 0.2, 0.2, 0:
    // per seed |0.01 − 0.01| − |0.2 − 0.01| = −0.19, −0.19, 0.
    expect(spread?.effect).toBeCloseTo((-0.19 - 0.19) / 3, 9);
    expect(spread?.claim).toMatch(/^toward autoregressive spread/);
  });

  test('a diverged seed, a missing baseline and a smoke run give too_small, never a status', () => {
    const diverged = mdmVerdicts([
      method('standard', [2, 4, 3], [0.5, 0.9, 0.7]),
      method('ppots', [1, 2, 1.5], [0.8, Number.NaN, 0.8]),
    ]);
    expect(diverged.map((v) => v.status)).toEqual(['held', 'too_small', 'too_small']);
    expect(diverged[1]?.why).toBe('1 of 3 seeds gave no finite effect');
    // MIRROR without the independent pair has no compute-matched baseline: standard does not stand in.
    expect(
      mdmVerdicts([method('standard', [2, 4, 3], [0.5, 0.9, 0.7]), method('mirror', [1, 1, 1], [1, 1, 1])]),
    ).toEqual([
      expect.objectContaining({ status: 'too_small', why: 'no baseline: --methods must include pair' }),
    ]);
    expect(mdmVerdicts([method('ppots', [1, 1, 1], [1, 1, 1])])).toEqual([
      expect.objectContaining({ status: 'too_small', why: 'no baseline: --methods must include standard' }),
    ]);
    const smoke = mdmVerdicts(
      [method('pair', [2, 4, 3], [0.5, 0.9, 0.7]), method('ppots+mirror', [1, 2, 1.5], [1, 1, 1])],
      SMOKE,
    );
    expect(smoke.map((v) => [v.status, v.why])).toEqual(Array(3).fill(['too_small', SMOKE]));
  });
});
