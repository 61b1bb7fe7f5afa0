import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { pickBrpoReference } from '../rl/brpo-reference.js';
import { createClipoHeadState } from '../rl/clipo-head-state.js';
import { grpoAdvantages } from '../rl/grpo-advantages.js';
import { modeBalancedLoss } from '../rl/mode-balanced-loss.js';
import { policyLoss } from './policy-loss.js';
import {
  afrlCompletion,
  afrlConsistent,
  afrlLabStep,
  afrlStepRewards,
  modeBalancedLossTensor,
  scoredResponse,
} from './rlvr-afrl.js';
import { brpoLabStep } from './rlvr-brpo.js';
import { clipoLabStep } from './rlvr-clipo.js';
import { policyShape, runRlvrExperiment } from './rlvr-experiment.js';
import { policyLossTensor } from './rlvr-loss.js';
import { RLVR_DEFAULTS, type RlvrMethod } from './rlvr-options.js';
import { pooledHidden } from './rlvr-policy.js';
import { RLVR_TASK_KINDS, type RlvrTask, rlvrTasks } from './rlvr-tasks.js';
import { EOS, encodeChars } from './rlvr-tokenizer.js';
import { type RlvrRunResult, rlvrVerdicts } from './rlvr-verdicts.js';
import { untimedMetrics } from './test-utils/untimed-metric.js';
import { loadTf } from './tf-runtime.js';
import { initParams } from './transformer.js';

beforeAll(async () => {
  await loadTf();
});

const ln = Math.log;
const pad = (rows: readonly (readonly number[])[], width: number) =>
  rows.map((r) => [...r, ...Array<number>(width - r.length).fill(0)]);
const maskOf = (rows: readonly (readonly number[])[], width: number) =>
  tf.tensor2d(rows.map((r) => Array.from({ length: width }, (_, t) => (t < r.length ? 1 : 0))));

describe('per-token advantages in the policy loss', () => {
  const logprobs = [[ln(1.5), ln(0.5)], [ln(0.7)], [ln(1.1), ln(0.9), ln(1.0)]];
  const oldLogprobs = [[0, 0], [0], [0, 0, 0]];
  const refLogprobs = [[-0.1, 0.2], [0.3], [0, -0.2, 0.1]];
  // No ratio sits exactly on a clip bound, where the one-sided derivatives differ.
  const bounds = { epsLow: [0.2, 0.25, 0.15], epsHigh: [0.2, 0.15, 0.3], klCoef: 0.1 };
  const tensorLoss = (advantages: readonly number[] | readonly (readonly number[])[], lp = logprobs) =>
    tf.tidy(
      () =>
        policyLossTensor({
          logprobs: tf.tensor2d(pad(lp, 3)),
          oldLogprobs: tf.tensor2d(pad(oldLogprobs, 3)),
          refLogprobs: tf.tensor2d(pad(refLogprobs, 3)),
          mask: maskOf(lp, 3),
          advantages,
          ...bounds,
        }).dataSync()[0] as number,
    );

  test('a per-token row repeating the sequence advantage is the per-sequence loss, tensor and number', () => {
    const perSequence = [1.2, -0.4, 0.6];
    const perToken = logprobs.map((r, i) => r.map(() => perSequence[i] as number));
    const number = policyLoss({
      logprobs,
      oldLogprobs,
      refLogprobs,
      advantages: perSequence,
      ...bounds,
    }).loss;
    expect(policyLoss({ logprobs, oldLogprobs, refLogprobs, advantages: perToken, ...bounds }).loss).toBe(
      number,
    );
    expect(tensorLoss(perSequence)).toBeCloseTo(number, 6);
    // Padding entries of the tensor's rows are masked: any value there leaves the loss alone.
    expect(
      tensorLoss(pad(perToken, 3).map((r, i) => r.map((a, t) => (t < (logprobs[i]?.length ?? 0) ? a : 99)))),
    ).toBeCloseTo(number, 6);
  });

  test('varying advantages within a sequence: tensor = number, and tf.grad = finite differences', () => {
    const perToken = [[1.5, -0.5], [-0.4], [0.9, -1.2, 0.3]];
    const input = { logprobs, oldLogprobs, refLogprobs, advantages: perToken, ...bounds };
    expect(tensorLoss(pad(perToken, 3))).toBeCloseTo(policyLoss(input).loss, 6);
    expect(tensorLoss(pad(perToken, 3))).not.toBeCloseTo(tensorLoss([0.6, -0.4, 0]), 3);
    const grad = tf
      .grad((lp: tf.Tensor) =>
        policyLossTensor({
          logprobs: lp as tf.Tensor2D,
          oldLogprobs: tf.tensor2d(pad(oldLogprobs, 3)),
          refLogprobs: tf.tensor2d(pad(refLogprobs, 3)),
          mask: maskOf(logprobs, 3),
          advantages: pad(perToken, 3),
          ...bounds,
        }),
      )(tf.tensor2d(pad(logprobs, 3)))
      .arraySync() as number[][];
    const h = 1e-4;
    for (const [i, row] of logprobs.entries())
      for (const t of row.keys()) {
        const shifted = (d: number) =>
          policyLoss({
            ...input,
            logprobs: logprobs.map((r, j) => r.map((x, s) => (j === i && s === t ? x + d : x))),
          }).loss;
        expect(grad[i]?.[t]).toBeCloseTo((shifted(h) - shifted(-h)) / (2 * h), 2);
      }
  });

  test('a per-token row of the wrong length is refused', () => {
    expect(() =>
      policyLoss({ logprobs, oldLogprobs, advantages: [[1], [1], [1]], epsLow: 0.2, epsHigh: 0.2 }),
    ).toThrow(/sequence 0 has 2 tokens, 1 advantages/);
  });
});

describe('CLIPO through the lab path (rl.md vectors, identity head so z = h)', () => {
  const identity = (warmup = 0) => ({
    ...createClipoHeadState({ inputDim: 2, outputDim: 2, seed: 0, warmupSteps: warmup }),
    weights: [1, 0, 0, 1],
  });
  const step = (
    hidden: number[][],
    tau: number,
    head = identity(),
    rewards: (number | undefined)[] = [1, 1, 0, 0],
  ) =>
    clipoLabStep({ head, hidden, rewards, group: 4, runSeed: 0, stepSeed: 3, warmup: 0, lambda: 0.2, tau });

  test('tau 1, z = (1,0),(1,0),(0,1),(0,-1): correct rollouts pay 0.110289, advantages keep their sign', () => {
    const s = step(
      [
        [1, 0],
        [1, 0],
        [0, 1],
        [0, -1],
      ],
      1,
    );
    expect(s.shaped.map((r) => Number(r.toFixed(6)))).toEqual([0.889711, 0.889711, 0, 0]);
    // The lab's GRPO takes population std (±0.999998 here); verl's unbiased std gives rl.md's ±0.8660.
    expect(s.advantages).toEqual(grpoAdvantages(s.shaped, { std: 'population' }));
    for (const [i, a] of grpoAdvantages(s.shaped).entries()) expect(a).toBeCloseTo(i < 2 ? 0.866 : -0.866, 4);
    expect(s.head.step).toBe(1);
    expect(s.head.weights).not.toEqual([1, 0, 0, 1]);
  });

  test('tau 0.05: r_con clamps at -0.5; asymmetric z: totals [0.718479, 0.780278, 0, 0]', () => {
    expect(
      step(
        [
          [1, 0],
          [0, 1],
          [1, 0],
          [0, 1],
        ],
        0.05,
      ).shaped,
    ).toEqual([0.5, 0.5, 0, 0]);
    const s = step(
      [
        [1, 0],
        [0, 1],
        [1, 0],
        [-1, 0],
      ],
      1,
    );
    expect(s.shaped[0]).toBeCloseTo(0.718479, 6);
    expect(s.shaped[1]).toBeCloseTo(0.780278, 6);
    expect(s.shaped.slice(2)).toEqual([0, 0]);
  });

  test('warm-up trains the head without shaping; a failed rollout is left out, never scored 0', () => {
    const warm = step(
      [
        [1, 0],
        [1, 0],
        [0, 1],
        [0, -1],
      ],
      1,
      identity(1),
    );
    expect(warm.shaped).toEqual([1, 1, 0, 0]);
    expect([warm.head.step, warm.head.warmupRemaining]).toEqual([1, 0]);
    const failed = step(
      [
        [1, 0],
        [1, 0],
        [0, 1],
        [0, -1],
      ],
      1,
      identity(),
      [1, 1, undefined, 0],
    );
    expect(failed.index).toEqual([0, 1, 3]);
    expect(failed.shaped[0]).toBeLessThan(1);
  });

  test('the head reads the policy’s pooled final hidden states: one d-vector per rollout, mask-pooled', () => {
    const shape = policyShape({ ...RLVR_DEFAULTS, width: 16, heads: 2, depth: 1 });
    const params = initParams(shape.config, 1);
    const prompt = 'add 12+34';
    const short = { tokens: [...encodeChars('#### 4'), EOS] };
    const [a, b] = pooledHidden(
      params,
      shape,
      [prompt, prompt],
      [short, { tokens: [...short.tokens, 5, 6] }],
    );
    expect(a).toHaveLength(16);
    expect(a).not.toEqual(b);
    // Positions past a rollout's end do not enter its mean: padding the tail changes nothing.
    const [again] = pooledHidden(params, shape, [prompt], [short]);
    for (const [k, x] of (a as number[]).entries()) expect(again?.[k]).toBeCloseTo(x, 6);
  });
});

describe('BRPO through the lab path', () => {
  const seed = Array.from({ length: 100 }, (_, s) => s).find((s) => pickBrpoReference(4, s) === 2) as number;

  test('G=4, reference index 2, outcomes [wins all, ties, -, loses] -> [+1, -1, 0, -1]', async () => {
    const s = await brpoLabStep(['a', 'b', 'c', 'd'], [1, 0.5, 0.5, 0], 4, () => seed);
    expect(s.advantages).toEqual([1, -1, 0, -1]);
    expect([s.index, s.filtered]).toEqual([[0, 1, 2, 3], 0]);
  });

  test('skew filter: three clean sweeps in four (|sum R|/G = 0.75 > 0.6) drop the prompt', async () => {
    const s = await brpoLabStep(['a', 'b', 'c', 'd'], [1, 1, 0, 1], 4, () => seed);
    expect([s.advantages, s.filtered]).toEqual([[0, 0, 0, 0], 1]);
  });

  test('a rollout the reward source failed on is left out of its group, not scored 0', async () => {
    const s = await brpoLabStep(
      ['a', 'b', 'c', 'd', 'e', 'f'],
      [1, undefined, 0, undefined, undefined, 1],
      3,
      () => seed,
    );
    expect(s.index).toEqual([0, 2]);
    expect(s.advantages.filter((a) => a !== 0)).toHaveLength(1);
  });
});

describe('AFRL through the lab path', () => {
  test('every task kind’s gold answer-first completion is consistent and tokenizable', () => {
    for (const kind of RLVR_TASK_KINDS)
      for (const task of rlvrTasks(kind, 20, 5)) {
        const text = afrlCompletion(task);
        expect(encodeChars(text)).toHaveLength(text.length);
        expect(afrlStepRewards(kind, text, 1)).toEqual([1, 1]);
        expect(scoredResponse('afrl', text)).toBe(`#### ${task.reference}`);
      }
    expect(afrlCompletion({ id: 'x', kind: 'addition', prompt: 'add 17+25', reference: '42' })).toBe(
      '#### 42 as 17+25',
    );
    expect(afrlConsistent('sorting', '#### 1 2 3', '3 1 2')).toBe(true);
    expect(afrlConsistent('sorting', '#### 1 2 3', '3 1 1')).toBe(false);
    expect(afrlConsistent('countdown', '#### 25+3*7', '46')).toBe(true);
    expect(afrlConsistent('countdown', '#### 25+3*7', '45')).toBe(false);
    expect(afrlStepRewards('addition', '#### 42', 1)).toEqual([0, 0]);
  });

  test('the answer-first shape holds every task’s gold completion and its end token', () => {
    for (const kind of RLVR_TASK_KINDS)
      for (const digits of [1, 2, 6]) {
        const shape = policyShape({ ...RLVR_DEFAULTS, task: kind, digits }, 'afrl');
        const longest = Math.max(...rlvrTasks(kind, 200, 9, { digits }).map((t) => afrlCompletion(t).length));
        expect(longest + 1).toBeLessThanOrEqual(shape.completionLen);
      }
  });

  test('stepwise advantages per token: step-1 rewards [1,1,0,0], step-2 [1,0,1,1]', () => {
    const task: RlvrTask = { id: 'x', kind: 'addition', prompt: 'add 17+25', reference: '42' };
    const texts = ['#### 42 as 17+25', '#### 42 as 17+24', '#### 41 as 17+24', '#### 43 as 20+23'];
    const rollouts = texts.map((text) => ({ text, tokens: [...encodeChars(text), EOS] }));
    const s = afrlLabStep(Array(4).fill(task), rollouts, [1, 1, 0, 0], 4, 20);
    // Population std (the lab's GRPO): step 1 ±0.999998; step 2 [0.577349, -1.732046, 0.577349, 0.577349].
    const step1 = [0.999998, 0.999998, -0.999998, -0.999998];
    const step2 = [0.577349, -1.732046, 0.577349, 0.577349];
    for (const [i, row] of s.advantages.entries()) {
      for (let t = 0; t < 7; t++) expect(row[t]).toBeCloseTo(step1[i] as number, 5);
      for (let t = 7; t < 17; t++) expect(row[t]).toBeCloseTo(step2[i] as number, 5);
    }
  });

  test('mode-balanced loss: L_GRPO 0.30, gold [-0.1,-0.5,-1.0], lambda 0.1 -> 0.35333; its gradient', () => {
    const gold = [-0.1, -0.5, -1.0];
    const value = tf.tidy(
      () =>
        modeBalancedLossTensor(
          tf.scalar(0.3),
          tf.tensor2d([[...gold, 0]]),
          tf.tensor2d([[1, 1, 1, 0]]),
          0.1,
        ).dataSync()[0],
    );
    expect(value).toBeCloseTo(0.35333, 5);
    expect(value).toBeCloseTo(modeBalancedLoss(0.3, gold, 0.1).total, 6);
    const grad = tf
      .grad((lp: tf.Tensor) =>
        modeBalancedLossTensor(tf.scalar(0.3), lp as tf.Tensor2D, tf.tensor2d([[1, 1, 1, 0]]), 0.1),
      )(tf.tensor2d([[...gold, 0]]))
      .arraySync() as number[][];
    const h = 1e-4;
    gold.forEach((_, t) => {
      const at = (d: number) =>
        modeBalancedLoss(
          0.3,
          gold.map((x, s) => (s === t ? x + d : x)),
          0.1,
        ).total;
      expect(grad[0]?.[t]).toBeCloseTo((at(h) - at(-h)) / (2 * h), 3);
    });
    expect(grad[0]?.[3]).toBeCloseTo(0, 10);
  });
});

describe('verdicts of the new methods', () => {
  const run = (method: RlvrMethod, seed: number, sft: number, final: number): RlvrRunResult => ({
    method,
    seed,
    reward: 'verifier',
    sftAccuracy: sft,
    finalAccuracy: final,
    meanEntropy: 0.5,
    firstHackRate: 0.02,
    lastHackRate: 0.01,
  });

  test('CLIPO non-inferior to GRPO within the margin; AFRL keeps its start; a clear loss is not held', () => {
    const grpo = [0.5, 0.55, 0.6].map((a, s) => run('grpo', s, 0.4, a));
    const close = [0.49, 0.56, 0.59].map((a, s) => run('clipo', s, 0.4, a));
    const afrl = [0.41, 0.39, 0.4].map((a, s) => run('afrl', s, 0.4, a));
    const brpo = [0.5, 0.52, 0.47].map((a, s) => run('brpo', s, 0.4, a));
    const v = rlvrVerdicts([...grpo, ...close, ...afrl, ...brpo]);
    expect(
      v.find((x) => x.claim === 'BRPO raises accuracy on unseen tasks over the SFT start'),
    ).toMatchObject({
      status: 'held',
    });
    const clipo = v.find((x) => x.claim.startsWith("CLIPO's shaping"));
    expect(clipo).toMatchObject({ status: 'held' });
    expect(clipo?.effect).toBeCloseTo(0.05 - 0.0033333, 5);
    expect(v.find((x) => x.claim.startsWith("AFRL's answer-first"))).toMatchObject({ status: 'held' });
    const worse = [0.3, 0.34, 0.4].map((a, s) => run('clipo', s, 0.4, a));
    expect(
      rlvrVerdicts([...grpo, ...worse]).find((x) => x.claim.startsWith("CLIPO's shaping")),
    ).toMatchObject({
      status: 'not_held',
    });
    expect(v.map((x) => x.claim)).toContain(
      'BRPO raises accuracy on unseen tasks over the SFT start'.replace('BRPO', 'AFRL'),
    );
  });
});

describe('smoke: clipo, brpo, afrl train, log a row per step and resume without repeating a step', () => {
  test('three interruptions, one per method, then the same numbers as an uninterrupted run', async () => {
    const o = {
      ...RLVR_DEFAULTS,
      methods: ['clipo' as const, 'brpo' as const, 'afrl' as const],
      seeds: [0],
      width: 16,
      heads: 2,
      depth: 1,
      sftSteps: 40,
      sftBatch: 8,
      rlSteps: 4,
      prompts: 2,
      group: 3,
      evalExamples: 5,
      evalEvery: 2,
      checkpointEvery: 2,
      clipoWarmup: 0,
    };
    const spec = join(mkdtempSync(join(tmpdir(), 'rlvr-spec-')), 'lenient.yaml');
    writeFileSync(spec, 'sources:\n  - {kind: math, params: {relative_tolerance: 0.5}}\n');
    const whole = await runRlvrExperiment(o, mkdtempSync(join(tmpdir(), 'rlvr-m-')), { specFile: spec });
    const rl = whole.report.metrics.filter((m) => m.phase === 'rl');
    for (const method of o.methods) {
      const rows = rl.filter((m) => m.method === method);
      expect(rows.map((m) => m.step)).toEqual([0, 1, 2, 3]);
      for (const m of rows) expect(Number.isFinite(m.loss)).toBe(true);
    }
    expect(
      whole.report.metrics.filter((m) => m.phase === 'sft' && m.format === 'afrl').length,
    ).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-n-'));
    // Progress: 2 × 40 SFT steps, then 4 RL steps per method; each crash is after a method's third step.
    const interrupt = (at: number) =>
      expect(
        runRlvrExperiment(o, dir, {
          specFile: spec,
          onProgress: (done) => {
            if (done === at) throw new Error('interrupted');
          },
        }),
      ).rejects.toThrow('interrupted');
    const extra = (run: string) =>
      JSON.parse(readFileSync(join(dir, 'runs', `${run}.ckpt.json`), 'utf8')).extra as {
        step: number;
        carried?: { version: string; step: number };
      };
    await interrupt(83);
    // CLIPO's head is in the checkpoint; it stepped on the batches that had a counted anchor (≤ 2).
    const clipo = extra('clipo-verifier-s0');
    expect([clipo.step, clipo.carried?.version]).toEqual([2, 'rk-clipo-head/v1']);
    expect(clipo.carried?.step).toBeGreaterThanOrEqual(1);
    expect(clipo.carried?.step).toBeLessThanOrEqual(2);
    await interrupt(87);
    expect(extra('brpo-verifier-s0').step).toBe(2);
    await interrupt(91);
    expect(extra('afrl-verifier-s0').step).toBe(2);
    const resumed = await runRlvrExperiment(o, dir, { specFile: spec });
    expect([resumed.stepsTrained, resumed.stepsReadBack]).toEqual([2, 10]);
    // As metrics.jsonl holds them, wall-clock fields aside.
    expect(untimedMetrics(resumed.report.metrics)).toEqual(untimedMetrics(whole.report.metrics));
  }, 120_000);
});
