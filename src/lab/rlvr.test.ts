import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, test } from 'vitest';
import { etrClipBounds } from '../rl/etr-clip-bounds.js';
import { adamwStep, createTrainState, disposeTrainState } from './adamw.js';
import type { Params } from './layers.js';
import { policyLoss } from './policy-loss.js';
import { policyShape, runRlvrExperiment } from './rlvr-experiment.js';
import { groupBounds } from './rlvr-group-bounds.js';
import { policyLossTensor } from './rlvr-loss.js';
import { RLVR_DEFAULTS } from './rlvr-options.js';
import { type Rollout, rolloutLogprobs, sample } from './rlvr-policy.js';
import {
  type BatchReward,
  inProcessBatch,
  naiveSpecText,
  probeSpec,
  rewardFromSpec,
  verifierSpecText,
} from './rlvr-rewards.js';
import { answerLine, RLVR_TASK_KINDS, rlvrTasks } from './rlvr-tasks.js';
import { decodeChars, EOS, encodeChars, encodePrompt, PAD, SEP } from './rlvr-tokenizer.js';
import { type RlvrRunResult, rlvrVerdicts } from './rlvr-verdicts.js';
import { untimedMetrics } from './test-utils/untimed-metric.js';
import { loadTf } from './tf-runtime.js';
import { initParams } from './transformer.js';

beforeAll(async () => {
  await loadTf();
});

const ln = Math.log;

describe('rlvr tokenizer', () => {
  test('every task string round-trips, specials are not text', () => {
    for (const kind of RLVR_TASK_KINDS)
      for (const task of rlvrTasks(kind, 20, 3)) {
        for (const text of [task.prompt, answerLine(task.reference)])
          expect(decodeChars(encodeChars(text))).toBe(text);
      }
    expect(decodeChars([...encodeChars('#### 12'), EOS, ...encodeChars('99')])).toBe('#### 12');
    expect(encodePrompt('add 1+2', 9)).toEqual([PAD, PAD, ...encodeChars('add 1+2'), SEP]);
    expect(() => encodeChars('add 1/2')).toThrow(/no token for "\/"/);
  });
});

/** The tensor loss on padded number rows, as a number. */
function tensorLoss(input: Parameters<typeof policyLoss>[0], width: number): number {
  const pad = (rows: readonly (readonly number[])[]) =>
    rows.map((r) => [...r, ...Array(width - r.length).fill(0)]);
  const n = input.logprobs.length;
  const perSeq = (e: number | readonly number[]) => (typeof e === 'number' ? Array(n).fill(e) : [...e]);
  return tf.tidy(
    () =>
      policyLossTensor({
        logprobs: tf.tensor2d(pad(input.logprobs)),
        oldLogprobs: tf.tensor2d(pad(input.oldLogprobs)),
        ...(input.refLogprobs && { refLogprobs: tf.tensor2d(pad(input.refLogprobs)) }),
        mask: tf.tensor2d(
          input.logprobs.map((r) => Array.from({ length: width }, (_, t) => (t < r.length ? 1 : 0))),
        ),
        advantages: input.advantages,
        epsLow: perSeq(input.epsLow),
        epsHigh: perSeq(input.epsHigh),
        klCoef: input.klCoef ?? 0,
      }).dataSync()[0] as number,
  );
}

describe('policyLossTensor agrees with policyLoss', () => {
  const batch = {
    logprobs: [[ln(1.5), ln(0.5)], [ln(0.7)], [ln(1.1), ln(0.9), ln(1.0)], [ln(1.25)]],
    oldLogprobs: [[0, 0], [0], [0, 0, 0], [0]],
    refLogprobs: [[-0.1, 0.2], [0.3], [0, -0.2, 0.1], [-0.4]],
  };

  test('at the clip bounds: GRPO clips rho 1.3 at 1.2, ETR with eps 0.3732 does not', () => {
    const one = { logprobs: [[ln(1.3)]], oldLogprobs: [[0]], advantages: [Math.sqrt(3)] };
    expect(tensorLoss({ ...one, epsLow: 0.2, epsHigh: 0.2 }, 1)).toBeCloseTo(-2.0785, 4);
    expect(tensorLoss({ ...one, epsLow: 0.3732, epsHigh: 0.3732 }, 1)).toBeCloseTo(-2.2517, 4);
    const low = { logprobs: [[ln(0.5)]], oldLogprobs: [[0]], advantages: [-1], epsLow: 0.2, epsHigh: 0.2 };
    expect(tensorLoss(low, 1)).toBeCloseTo(policyLoss(low).loss, 6);
  });

  test('ETR bounds per sequence, padded sequences of different lengths, with and without KL', () => {
    const etr = etrClipBounds([1, 0, 0, 1]);
    for (const klCoef of [0, 0.1]) {
      const input = {
        ...batch,
        advantages: etr.advantages,
        epsLow: etr.epsLow,
        epsHigh: etr.epsHigh,
        klCoef,
      };
      expect(tensorLoss(input, 4)).toBeCloseTo(policyLoss(input).loss, 6);
    }
    // KL moves the loss: the term is there, not ignored.
    const noKl = { ...batch, advantages: etr.advantages, epsLow: etr.epsLow, epsHigh: etr.epsHigh };
    expect(tensorLoss({ ...noKl, klCoef: 0.5 }, 3)).not.toBeCloseTo(tensorLoss(noKl, 3), 3);
  });

  test('ETR at zero coefficients is GRPO, in the loop too (groupBounds)', () => {
    const etr = etrClipBounds([1, 0, 0, 0], { alpha: 0, beta: 0 });
    const input = { ...batch, advantages: etr.advantages };
    expect(tensorLoss({ ...input, epsLow: etr.epsLow, epsHigh: etr.epsHigh }, 3)).toBeCloseTo(
      tensorLoss({ ...input, epsLow: 0.2, epsHigh: 0.2 }, 3),
      6,
    );
    const grpo = groupBounds('grpo', [1, 0, 0, 0], 4);
    expect(grpo.advantages).toEqual(etr.advantages);
    expect(grpo.epsLow).toEqual([0.2, 0.2, 0.2, 0.2]);
  });

  test('its gradient in the log-probs matches finite differences of policyLoss', () => {
    const input = {
      ...batch,
      advantages: [1.2, -0.4, 0.6, -1.4],
      epsLow: [0.2, 0.25, 0.1, 0.25],
      epsHigh: [0.2, 0.15, 0.3, 0.35],
      klCoef: 0.1,
    };
    const width = 3;
    const mask = tf.tensor2d(
      input.logprobs.map((r) => Array.from({ length: width }, (_, t) => (t < r.length ? 1 : 0))),
    );
    const pad = (rows: readonly (readonly number[])[]) =>
      rows.map((r) => [...r, ...Array(width - r.length).fill(0)]);
    const grad = tf
      .grad((lp: tf.Tensor) =>
        policyLossTensor({
          ...input,
          logprobs: lp as tf.Tensor2D,
          oldLogprobs: tf.tensor2d(pad(input.oldLogprobs)),
          refLogprobs: tf.tensor2d(pad(input.refLogprobs)),
          mask,
        }),
      )(tf.tensor2d(pad(input.logprobs)))
      .arraySync() as number[][];
    const h = 1e-4;
    for (const [i, row] of input.logprobs.entries())
      for (const t of row.keys()) {
        const shifted = (d: number) =>
          policyLoss({
            ...input,
            logprobs: input.logprobs.map((r, j) => r.map((x, s) => (j === i && s === t ? x + d : x))),
          }).loss;
        expect(grad[i]?.[t]).toBeCloseTo((shifted(h) - shifted(-h)) / (2 * h), 2);
      }
  });
});

describe('rlvr policy', () => {
  const shape = policyShape({ ...RLVR_DEFAULTS, width: 16, heads: 2, depth: 1 });
  const prompts = rlvrTasks('addition', 4, 0, { digits: 2 }).map((t) => t.prompt);

  test('sampling is deterministic per seed, and its log-probs are the policy’s', () => {
    const params = initParams(shape.config, 1);
    const a = sample(params, shape, prompts, 1, 7);
    expect(sample(params, shape, prompts, 1, 7)).toEqual(a);
    expect(sample(params, shape, prompts, 1, 8).map((r) => r.tokens)).not.toEqual(a.map((r) => r.tokens));
    for (const r of a) {
      expect(r.tokens.length).toBeLessThanOrEqual(shape.completionLen);
      expect(r.tokens.slice(0, -1)).not.toContain(EOS);
    }
    const again = tf.tidy(() => rolloutLogprobs(params, shape, prompts, a, 1).logprobs.arraySync());
    for (const [i, r] of a.entries())
      for (const [t, lp] of r.logprobs.entries()) expect(again[i]?.[t]).toBeCloseTo(lp, 4);
  });

  test('at a temperature other than 1, sample and rolloutLogprobs agree, so the first ratios are 1', () => {
    const params = initParams(shape.config, 2);
    const rollouts = sample(params, shape, prompts, 0.7, 3);
    const again = tf.tidy(() => rolloutLogprobs(params, shape, prompts, rollouts, 0.7).logprobs.arraySync());
    for (const [i, r] of rollouts.entries())
      for (const [t, lp] of r.logprobs.entries()) expect(again[i]?.[t]).toBeCloseTo(lp, 4);
  });

  test('one GRPO update raises the rollout with positive advantage and lowers the negative one', () => {
    const state = createTrainState(initParams(shape.config, 3));
    const reference = initParams(shape.config, 3);
    const two = [prompts[0] as string, prompts[0] as string];
    const [a, b] = sample(state.params, shape, two, 1, 11) as [Rollout, Rollout];
    expect(a.tokens).not.toEqual(b.tokens);
    const rollouts = [a, b];
    const seqLogprob = (params: Params) =>
      tf.tidy(() => {
        const { logprobs, mask } = rolloutLogprobs(params, shape, two, rollouts, 1);
        return logprobs.mul(mask).sum(1).arraySync() as number[];
      });
    const before = seqLogprob(state.params);
    const old = rollouts.map((r) => [
      ...r.logprobs,
      ...Array<number>(shape.completionLen - r.logprobs.length).fill(0),
    ]);
    const { advantages, epsLow, epsHigh } = groupBounds('grpo', [1, 0], 2);
    expect(advantages[0]).toBeGreaterThan(0);
    expect(advantages[1]).toBeLessThan(0);
    adamwStep(
      state,
      (params) => {
        const now = rolloutLogprobs(params, shape, two, rollouts, 1);
        const ref = rolloutLogprobs(reference, shape, two, rollouts, 1);
        return policyLossTensor({
          logprobs: now.logprobs,
          oldLogprobs: tf.tensor2d(old),
          refLogprobs: ref.logprobs,
          mask: now.mask,
          advantages,
          epsLow,
          epsHigh,
          klCoef: 0.02,
        });
      },
      { lr: 3e-3, beta1: 0.9, beta2: 0.95, weightDecay: 0, clip: 1 },
    );
    const after = seqLogprob(state.params);
    expect(after[0]).toBeGreaterThan(before[0] as number);
    expect(after[1]).toBeLessThan(before[1] as number);
    disposeTrainState(state);
    tf.dispose(Object.values(reference));
  });
});

describe('rlvr rewards', () => {
  test('every task’s spec scores its reference 1; a spec that cannot is refused before training', async () => {
    for (const kind of RLVR_TASK_KINDS) {
      const reward = rewardFromSpec(verifierSpecText(kind), kind);
      await probeSpec(reward, rlvrTasks(kind, 1, 0)[0] as never, kind);
      await reward.close();
    }
    const wrong = rewardFromSpec(
      'sources:\n  - {kind: countdown, params: {extract: hash_line}}\n',
      'wrong.yaml',
    );
    await expect(
      probeSpec(wrong, rlvrTasks('addition', 1, 0)[0] as never, '--spec wrong.yaml'),
    ).rejects.toThrow(
      /--spec wrong.yaml: scores the reference answer "#### \d+" of "add [^"]+" as failed \(.*countdown needs.*\), not 1/,
    );
  });

  test('the naive reward pays a list of candidates; the verifier does not', async () => {
    const task = rlvrTasks('addition', 1, 0)[0] as never as { reference: string };
    const hack = `#### 1 ${task.reference} 2`;
    const naive = rewardFromSpec(naiveSpecText(), 'naive');
    const verifier = rewardFromSpec(verifierSpecText('addition'), 'math');
    expect(await naive.score(task as never, hack, 'h')).toEqual({ reward: 1 });
    expect(await verifier.score(task as never, hack, 'h')).toEqual({ reward: 0 });
  });
});

describe('rlvr verdicts', () => {
  const run = (method: 'grpo' | 'etr', seed: number, gain: number, entropy: number): RlvrRunResult => ({
    method,
    seed,
    reward: 'verifier',
    sftAccuracy: 0.3,
    finalAccuracy: 0.3 + gain,
    meanEntropy: entropy,
    firstHackRate: 0.02,
    lastHackRate: 0.01,
  });
  const runs = [
    run('grpo', 0, 0.1, 0.5),
    run('grpo', 1, 0.12, 0.4),
    run('grpo', 2, 0.08, 0.45),
    run('etr', 0, 0.02, 0.6),
    run('etr', 1, -0.03, 0.5),
    run('etr', 2, 0.01, 0.58),
  ];

  test('paired by seed: GRPO’s gain held, ETR’s inconclusive, ETR’s entropy higher held', () => {
    const v = rlvrVerdicts(runs);
    expect(v.map((x) => [x.claim, x.status])).toEqual([
      ['GRPO raises accuracy on unseen tasks over the SFT start', 'held'],
      ['ETR raises accuracy on unseen tasks over the SFT start', 'inconclusive'],
      ['ETR keeps entropy higher than GRPO at equal steps', 'held'],
      ['GRPO under the verifier does not learn to hack (hack rate falls)', 'held'],
      ['ETR under the verifier does not learn to hack (hack rate falls)', 'held'],
    ]);
    expect(v[2]?.effect).toBeCloseTo((0.1 + 0.1 + 0.13) / 3, 10);
  });

  test('both rewards: accuracy claims read the verifier runs; the hacking claim is paired by seed', () => {
    const hack = (
      reward: 'naive' | 'verifier',
      seed: number,
      first: number,
      last: number,
    ): RlvrRunResult => ({
      ...run('grpo', seed, reward === 'naive' ? -0.2 : 0.1, 0.5),
      reward,
      firstHackRate: first,
      lastHackRate: last,
    });
    const both = [
      hack('naive', 0, 0.01, 0.05),
      hack('naive', 1, 0.0, 0.06),
      hack('naive', 2, 0.02, 0.07),
      hack('verifier', 0, 0.01, 0.0),
      hack('verifier', 1, 0.0, 0.0),
      hack('verifier', 2, 0.02, 0.01),
    ];
    const v = rlvrVerdicts(both);
    expect(v.map((x) => [x.claim, x.status])).toEqual([
      ['GRPO raises accuracy on unseen tasks over the SFT start', 'held'],
      ['GRPO learns to exploit the naive reward (hack rate rises)', 'held'],
      ['GRPO under the verifier does not learn to hack (hack rate falls)', 'inconclusive'],
      ['GRPO exploits the gameable reward and not the verifier', 'held'],
    ]);
    // (0.04 + 0.06 + 0.05) − (−0.01 + 0 − 0.01), over 3 seeds.
    expect(v[3]?.effect).toBeCloseTo((0.04 + 0.06 + 0.05 + 0.01 + 0 + 0.01) / 3, 10);
    // A naive-only run makes no claim about learning the task.
    expect(rlvrVerdicts(both.filter((r) => r.reward === 'naive')).map((x) => x.claim)).toEqual([
      'GRPO learns to exploit the naive reward (hack rate rises)',
    ]);
  });

  test('below the minimum every verdict is too_small, with the reason', () => {
    for (const v of rlvrVerdicts(runs, 'below the documented minimum: --rl-steps 2 < 20 (docs/lab.md)'))
      expect(v).toMatchObject({ status: 'too_small', why: expect.stringContaining('--rl-steps 2 < 20') });
  });
});

describe('rlvr resume', () => {
  test('a run interrupted mid-RL continues from its checkpoint to the same numbers, no step twice', async () => {
    const o = {
      ...RLVR_DEFAULTS,
      methods: ['grpo' as const],
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
    };
    // A lenient math spec (within 50%) so that a barely trained policy's groups hold both rewards
    // and the policy moves: a resume of a policy that never moves would prove nothing.
    const spec = join(mkdtempSync(join(tmpdir(), 'rlvr-spec-')), 'lenient.yaml');
    writeFileSync(spec, 'sources:\n  - {kind: math, params: {relative_tolerance: 0.5}}\n');
    const heard: { step: number; sftAccuracy: number }[] = [];
    const whole = await runRlvrExperiment(o, mkdtempSync(join(tmpdir(), 'rlvr-a-')), {
      specFile: spec,
      onMetric: (metric, sft) => heard.push({ step: metric.step, sftAccuracy: sft.greedy }),
    });
    const rl = whole.report.metrics.filter((m) => m.phase === 'rl');
    // The listener hears every logged RL step once, in order, with the run's SFT-start accuracy.
    const sftAccuracy = (whole.report.summary.runs as { sftAccuracy: number }[])[0]?.sftAccuracy;
    expect(heard).toEqual(rl.map((m) => ({ step: m.step, sftAccuracy })));
    expect(rl.some((m) => (m.kl as number) > 0)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-b-'));
    // A crash after RL step 2 (SFT's 40 steps, then 3 RL steps): the checkpoint holds steps 0–1.
    await expect(
      runRlvrExperiment(o, dir, {
        specFile: spec,
        onProgress: (done) => {
          if (done === 43) throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    expect(readdirSync(join(dir, 'runs'))).toContain('grpo-verifier-s0.ckpt.json');
    const resumedSteps: number[] = [];
    const resumed = await runRlvrExperiment(o, dir, {
      specFile: spec,
      onMetric: (m) => resumedSteps.push(m.step),
    });
    expect([resumed.stepsTrained, resumed.stepsReadBack]).toEqual([2, 2]);
    expect(resumedSteps).toEqual([2, 3]);
    // As metrics.jsonl holds them, wall-clock fields aside.
    const json = (x: unknown) => JSON.parse(JSON.stringify(x));
    expect(untimedMetrics(resumed.report.metrics)).toEqual(untimedMetrics(whole.report.metrics));
    expect(json(resumed.report.verdicts)).toEqual(json(whole.report.verdicts));
  }, 60_000);
});

describe('rlvr reward source failing mid-run', () => {
  test('its rollouts are recorded with the reason and left out of the update, never scored 0', async () => {
    const o = {
      ...RLVR_DEFAULTS,
      methods: ['grpo' as const],
      seeds: [0],
      width: 16,
      heads: 2,
      depth: 1,
      sftSteps: 10,
      sftBatch: 4,
      rlSteps: 4,
      prompts: 2,
      group: 3,
      evalExamples: 5,
      evalEvery: 4,
      rewardTransport: 'http' as const,
    };
    // A server that answers the first two steps (a request per spec each) and then 503s.
    const flaky = async (text: string, file: string): Promise<BatchReward> => {
      const inner = inProcessBatch(rewardFromSpec(text, file));
      let requests = 0;
      return {
        scoreBatch: async (items) =>
          ++requests > 2 ? items.map(() => ({ failed: 'http: 503 injected' })) : inner.scoreBatch(items),
        close: inner.close,
      };
    };
    const run = await runRlvrExperiment(o, mkdtempSync(join(tmpdir(), 'rlvr-flaky-')), { httpServer: flaky });
    const rl = run.report.metrics.filter((m) => m.phase === 'rl');
    expect(rl.map((m) => [m.scored, m.failed])).toEqual([
      [6, 0],
      [6, 0],
      [0, 6],
      [0, 6],
    ]);
    // Nothing scored, nothing updated: no loss, no mean reward (never a stand-in 0).
    for (const m of rl.slice(2)) {
      expect(m.loss).toBeNaN();
      expect(m.mean_reward).toBeNaN();
    }
    const [record] = (run.report.summary as { runs: { failures: { step: number; why: string }[] }[] }).runs;
    expect(record?.failures).toHaveLength(12);
    expect(new Set(record?.failures.map((f) => `${f.step}: ${f.why}`))).toEqual(
      new Set(['2: http: 503 injected', '3: http: 503 injected']),
    );
  }, 60_000);
});
