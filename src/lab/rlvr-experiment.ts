import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { RewardKitError } from '../core/index.js';
import { etrClipBounds } from '../rl/etr-clip-bounds.js';
import { grpoAdvantages } from '../rl/grpo-advantages.js';
import { adamwStep, createTrainState, disposeTrainState, type TrainState } from './adamw.js';
import { loadCheckpoint, loadParams, saveCheckpoint, saveParams } from './checkpoint.js';
import { belowMinimum } from './lab-minimum.js';
import type { Params } from './layers.js';
import type { LabReport } from './report.js';
import { policyLossTensor } from './rlvr-loss.js';
import { RLVR_MINIMUM, type RlvrMethod, type RlvrOptions } from './rlvr-options.js';
import { type PolicyShape, type Rollout, rolloutLogprobs, sample } from './rlvr-policy.js';
import { naiveSpecText, probeSpec, type RewardFn, rewardFromSpec, verifierSpecText } from './rlvr-rewards.js';
import { answerLine, type RlvrTask, rlvrTasks } from './rlvr-tasks.js';
import { EOS, encodeChars, RLVR_VOCAB } from './rlvr-tokenizer.js';
import { type RlvrRunResult, rlvrVerdicts } from './rlvr-verdicts.js';
import { trainRun } from './training-run.js';
import { initParams } from './transformer.js';

export const RLVR_CLAIM =
  'RL with verifiable rewards (GRPO, ETR) raises a small policy’s held-out accuracy over its SFT start; ETR’s elastic trust region keeps entropy higher than GRPO’s fixed clip; a gameable reward is exploited where the verifier is not.';

/** Optimizer steps on each batch of rollouts (PPO epochs): from the second on, ratios leave 1 and clipping acts. */
const INNER_STEPS = 2;
/** GRPO's fixed clip width, both sides. */
const GRPO_EPS = 0.2;

/** A policy's held-out accuracy, greedy and sampled at the training temperature. */
export interface HeldOutAccuracy {
  greedy: number;
  sampled: number;
}

/**
 * Called with each RL step's metric as it is logged, and the run's SFT-start accuracy; a run read
 * back from an earlier call (a resume) reports only the steps it trains.
 */
export type RlvrMetricListener = (metric: RlvrMetric, sft: HeldOutAccuracy) => void;

/** One logged RL step, one line of `metrics.jsonl`. */
export interface RlvrMetric {
  run: string;
  method: RlvrMethod;
  seed: number;
  step: number;
  mean_reward: number;
  entropy: number;
  kl: number;
  loss: number;
  hack_rate: number;
  scored: number;
  failed: number;
  heldout_accuracy?: number;
  /**
   * At the same steps: held-out accuracy of answers sampled at `--temperature`, what the RL
   * objective raises directly (greedy can stay where it is while sampling sharpens). Every
   * evaluation draws the same random numbers, so a change is the policy's, not the draw's.
   */
  heldout_sampled_accuracy?: number;
}

export interface RlvrRunRecord extends RlvrRunResult {
  run: string;
  metrics: RlvrMetric[];
  /** Held-out accuracy of sampled answers at the SFT start and after the last RL step. */
  sftSampledAccuracy: number;
  finalSampledAccuracy: number;
  /** Rollouts a reward source failed on: recorded here with the reason, left out of the update. */
  failures: { step: number; response: string; why: string }[];
}

export interface RlvrExperiment {
  report: LabReport;
  /** RL steps trained by this call and read back from an earlier one (a resume trains none twice). */
  stepsTrained: number;
  stepsReadBack: number;
}

// A stream per purpose, seed and step, so a resumed run draws the same tasks and samples.
const stream = (seed: number, purpose: number, step: number) =>
  (seed * 1_000_003 + purpose * 7_919 + step * 104_729) >>> 0;

/** The widest prompt and answer line a task kind can produce. */
function widths(o: RlvrOptions): { prompt: number; answer: number } {
  if (o.task === 'addition') return { prompt: 2 * o.digits + 5, answer: o.digits + 1 };
  if (o.task === 'sorting') return { prompt: 14, answer: 9 };
  return { prompt: 26, answer: 12 };
}

export function policyShape(o: RlvrOptions): PolicyShape {
  const w = widths(o);
  // Room past the longest answer line and its end token: enough to list extra candidates (a hack).
  const completionLen = answerLine('').length + w.answer + 1 + 4;
  return {
    promptWidth: w.prompt,
    completionLen,
    config: {
      vocab: RLVR_VOCAB,
      width: o.width,
      heads: o.heads,
      depth: o.depth,
      seqLen: w.prompt + 1 + completionLen,
      mlpRatio: 4,
      norm: 'pre',
      causal: true,
      tiedHead: true,
    },
  };
}

/**
 * The whole experiment in `dir`: per seed an SFT warm start (teacher forcing on prompt → answer
 * line), then per method an RL run from it; every run resumable (runs/). Rewards go through the
 * spec evaluator; the spec is probed on a reference answer before any training.
 */
export async function runRlvrExperiment(
  o: RlvrOptions,
  dir: string,
  specFile: string | undefined,
  onProgress?: (done: number, total: number) => void,
  onMetric?: RlvrMetricListener,
): Promise<RlvrExperiment> {
  const verifier = rewardFromSpec(verifierSpecText(o.task, specFile), specFile ?? `lab-rlvr-${o.task}`);
  const naive = rewardFromSpec(naiveSpecText(), 'lab-rlvr-naive');
  try {
    const probe = rlvrTasks(o.task, 1, 0, { digits: o.digits })[0] as RlvrTask;
    await probeSpec(verifier, probe, specFile === undefined ? `the ${o.task} spec` : `--spec ${specFile}`);
    await probeSpec(naive, probe, 'the naive reward spec');
    const runsDir = join(dir, 'runs');
    mkdirSync(runsDir, { recursive: true });
    const shape = policyShape(o);
    const total = o.seeds.length * (o.sftSteps + o.methods.length * o.rlSteps);
    let done = 0;
    const progress = (n: number) => {
      done += n;
      onProgress?.(done, total);
    };
    const counts = { trained: 0, readBack: 0 };
    const runs: RlvrRunRecord[] = [];
    const sftMetrics: Record<string, unknown>[] = [];
    for (const seed of o.seeds) {
      const heldOut = rlvrTasks(o.task, o.evalExamples, 900_000 + seed, { digits: o.digits });
      const batchOf = trainingBatches(o, seed, new Set(heldOut.map((t) => t.prompt)));
      const sftPath = join(runsDir, `sft-s${seed}.params.json`);
      const sft = trainRun(
        {
          id: `sft-s${seed}`,
          train: {
            lr: o.sftLr,
            steps: o.sftSteps,
            warmup: Math.min(10, o.sftSteps - 1),
            batch: o.sftBatch,
            beta1: 0.9,
            beta2: 0.95,
            weightDecay: 0.1,
            clip: 1,
            seed,
          },
          init: () => initParams(shape.config, seed),
          loss: (params, step) => sftLoss(params, shape, batchOf(1, step, o.sftBatch)),
          evaluate: (params) => saveParams(sftPath, params),
          logEvery: 10,
          checkpointEvery: 50,
          spikeFactor: 1e9,
          onProgress: progress,
        },
        runsDir,
      );
      sftMetrics.push(...sft.metrics.map((m) => ({ ...m, phase: 'sft', seed })));
      for (const method of o.methods) {
        runs.push(
          await rlRun(
            o,
            {
              method,
              seed,
              shape,
              sftPath,
              heldOut,
              batchOf,
              verifier,
              naive,
              runsDir,
              counts,
              onMetric,
              temperature: o.temperature,
            },
            progress,
          ),
        );
      }
    }
    const why = belowMinimum(o, RLVR_MINIMUM);
    const verdicts = rlvrVerdicts(runs, why);
    const metrics = [...sftMetrics, ...runs.flatMap((r) => r.metrics.map((m) => ({ ...m, phase: 'rl' })))];
    const rlRows = runs.flatMap((r) => r.metrics);
    const chart = (y: keyof RlvrMetric, title: string) => ({
      title,
      rows: rlRows.filter((m) => m[y] !== undefined) as unknown as Record<string, unknown>[],
      x: 'step',
      y,
      series: 'run',
    });
    return {
      stepsTrained: counts.trained,
      stepsReadBack: counts.readBack,
      report: {
        title: `rewardkit lab rlvr — ${o.task}, ${o.methods.join(', ')}, ${o.reward} reward`,
        claim: RLVR_CLAIM,
        verdicts,
        charts: [
          chart('heldout_accuracy', 'greedy held-out accuracy over RL steps'),
          chart('heldout_sampled_accuracy', `held-out accuracy of answers sampled at T = ${o.temperature}`),
          chart('mean_reward', 'mean reward of the sampled rollouts'),
          chart('entropy', 'policy entropy per generated token'),
          chart('kl', 'KL to the SFT reference (k3, per token)'),
          chart('hack_rate', 'hack rate: naive reward 1, verifier 0'),
        ],
        tables: [
          {
            title: 'RL runs',
            columns: [
              'run',
              'SFT accuracy',
              'final accuracy',
              'sampled accuracy (SFT → final)',
              'mean entropy',
              'hack rate (first → last)',
              'failed rollouts',
            ],
            rows: runs.map((r) => [
              r.run,
              r.sftAccuracy,
              r.finalAccuracy,
              `${r.sftSampledAccuracy.toFixed(3)} → ${r.finalSampledAccuracy.toFixed(3)}`,
              r.meanEntropy,
              `${r.firstHackRate.toFixed(3)} → ${r.lastHackRate.toFixed(3)}`,
              r.failures.length,
            ]),
          },
        ],
        metrics,
        summary: {
          options: o,
          policy: { ...shape.config, promptWidth: shape.promptWidth, completionLen: shape.completionLen },
          innerSteps: INNER_STEPS,
          runs: runs.map(({ metrics: _m, ...rest }) => rest),
        },
      },
    };
  } finally {
    await verifier.close();
    await naive.close();
  }
}

/** Training tasks per (purpose, step), never a held-out prompt. */
function trainingBatches(o: RlvrOptions, seed: number, heldOut: ReadonlySet<string>) {
  return (purpose: number, step: number, n: number): RlvrTask[] => {
    const out: RlvrTask[] = [];
    for (let draw = 0; out.length < n; draw++) {
      if (draw === 50)
        throw new RewardKitError(
          'RK_USAGE',
          `--task ${o.task}: too few distinct tasks outside the ${heldOut.size} held-out ones; raise --digits or lower --eval-examples`,
        );
      const fresh = rlvrTasks(o.task, n, stream(seed, purpose, step) + draw, { digits: o.digits });
      out.push(...fresh.filter((t) => !heldOut.has(t.prompt)).slice(0, n - out.length));
    }
    return out;
  };
}

/** Teacher forcing: the mean cross-entropy of the answer line and its end token. */
function sftLoss(params: Params, shape: PolicyShape, tasks: readonly RlvrTask[]): tf.Scalar {
  const targets = tasks.map((t) => ({ tokens: [...encodeChars(answerLine(t.reference)), EOS] }));
  const { logprobs, mask } = rolloutLogprobs(
    params,
    shape,
    tasks.map((t) => t.prompt),
    targets,
    1,
  );
  return logprobs.mul(mask).sum().div(mask.sum()).neg() as tf.Scalar;
}

interface RunContext {
  method: RlvrMethod;
  seed: number;
  shape: PolicyShape;
  sftPath: string;
  heldOut: readonly RlvrTask[];
  batchOf: (purpose: number, step: number, n: number) => RlvrTask[];
  verifier: RewardFn;
  naive: RewardFn;
  runsDir: string;
  counts: { trained: number; readBack: number };
  onMetric: RlvrMetricListener | undefined;
  temperature: number;
}

/** Held-out accuracy under the verifier, greedy and sampled; a rollout it fails on counts as not correct. */
async function heldOutAccuracy(params: Params, c: RunContext): Promise<HeldOutAccuracy> {
  const prompts = c.heldOut.map((t) => t.prompt);
  const correct = async (rollouts: Rollout[]) => {
    let n = 0;
    for (const [i, task] of c.heldOut.entries()) {
      const s = await c.verifier.score(task, (rollouts[i] as Rollout).text, `eval-${task.id}`);
      if ('reward' in s && s.reward === 1) n++;
    }
    return n / c.heldOut.length;
  };
  return {
    greedy: await correct(sample(params, c.shape, prompts, 0, 0)),
    sampled: await correct(sample(params, c.shape, prompts, c.temperature, stream(c.seed, 4, 0))),
  };
}

interface RlSaved {
  sft: HeldOutAccuracy;
  metrics: RlvrMetric[];
  failures: RlvrRunRecord['failures'];
}

async function rlRun(o: RlvrOptions, c: RunContext, progress: (n: number) => void): Promise<RlvrRunRecord> {
  const run = `${c.method}-${o.reward}-s${c.seed}`;
  const resultPath = join(c.runsDir, `${run}.result.json`);
  const checkpointPath = join(c.runsDir, `${run}.ckpt.json`);
  if (existsSync(resultPath)) {
    c.counts.readBack += o.rlSteps;
    progress(o.rlSteps);
    return JSON.parse(readFileSync(resultPath, 'utf8')) as RlvrRunRecord;
  }
  const reference = loadParams(c.sftPath);
  let state: TrainState;
  let saved: RlSaved;
  let step = 0;
  if (existsSync(checkpointPath)) {
    const loaded = loadCheckpoint(checkpointPath);
    state = loaded.state;
    ({ step, ...saved } = loaded.extra as RlSaved & { step: number });
    c.counts.readBack += step;
    progress(step);
  } else {
    state = createTrainState(loadParams(c.sftPath));
    saved = { sft: await heldOutAccuracy(reference, c), metrics: [], failures: [] };
  }
  try {
    for (; step < o.rlSteps; step++) {
      const tasks = c.batchOf(2, step, o.prompts).flatMap((t) => Array<RlvrTask>(o.group).fill(t));
      const prompts = tasks.map((t) => t.prompt);
      const rollouts = sample(state.params, c.shape, prompts, o.temperature, stream(c.seed, 3, step));
      const rewards: (number | undefined)[] = [];
      let hacks = 0;
      for (const [i, task] of tasks.entries()) {
        const text = (rollouts[i] as Rollout).text;
        const id = `${run}-${step}-${i}`;
        // Both rewards score every rollout: one trains, the pair measures the hack rate.
        const [n, v] = [await c.naive.score(task, text, id), await c.verifier.score(task, text, id)];
        const s = o.reward === 'naive' ? n : v;
        if ('failed' in s) saved.failures.push({ step, response: text, why: s.failed });
        rewards.push('reward' in s ? s.reward : undefined);
        if ('reward' in n && 'reward' in v && n.reward === 1 && v.reward !== 1) hacks++;
      }
      const update = groupBounds(c.method, rewards, o.group);
      const kept = update.index;
      const pick = <T>(xs: readonly T[]) => kept.map((i) => xs[i] as T);
      const keptRollouts = pick(rollouts);
      const old = padded(
        keptRollouts.map((r) => r.logprobs),
        c.shape.completionLen,
      );
      const stats = tf.tidy(() => {
        const now = rolloutLogprobs(state.params, c.shape, prompts, rollouts, o.temperature);
        const ref = rolloutLogprobs(reference, c.shape, prompts, rollouts, o.temperature);
        const r = ref.logprobs.sub(now.logprobs);
        const tokens = now.mask.sum();
        return [
          now.entropy.mul(now.mask).sum().div(tokens).dataSync()[0] as number,
          r.exp().sub(r).sub(1).mul(now.mask).sum().div(tokens).dataSync()[0] as number,
        ];
      });
      let loss = Number.NaN;
      if (kept.length > 0) {
        for (let k = 0; k < INNER_STEPS; k++) {
          state.step = step * INNER_STEPS + k;
          loss = adamwStep(
            state,
            (params) => {
              const now = rolloutLogprobs(params, c.shape, pick(prompts), keptRollouts, o.temperature);
              const ref = rolloutLogprobs(reference, c.shape, pick(prompts), keptRollouts, o.temperature);
              return policyLossTensor({
                logprobs: now.logprobs,
                oldLogprobs: tf.tensor2d(old, [kept.length, c.shape.completionLen]),
                refLogprobs: ref.logprobs,
                mask: now.mask,
                advantages: update.advantages,
                epsLow: update.epsLow,
                epsHigh: update.epsHigh,
                klCoef: o.klCoef,
              });
            },
            { lr: o.lr, beta1: 0.9, beta2: 0.95, weightDecay: 0, clip: 1 },
          ).loss;
        }
      }
      const scoredRewards = rewards.filter((r): r is number => r !== undefined);
      const metric: RlvrMetric = {
        run,
        method: c.method,
        seed: c.seed,
        step,
        mean_reward: mean(scoredRewards),
        entropy: stats[0] as number,
        kl: stats[1] as number,
        loss,
        hack_rate: hacks / tasks.length,
        scored: scoredRewards.length,
        failed: rewards.length - scoredRewards.length,
      };
      if ((step + 1) % o.evalEvery === 0 || step === o.rlSteps - 1) {
        const accuracy = await heldOutAccuracy(state.params, c);
        metric.heldout_accuracy = accuracy.greedy;
        metric.heldout_sampled_accuracy = accuracy.sampled;
      }
      saved.metrics.push(metric);
      c.onMetric?.(metric, saved.sft);
      c.counts.trained++;
      progress(1);
      if ((step + 1) % o.checkpointEvery === 0 && step + 1 < o.rlSteps)
        saveCheckpoint(checkpointPath, state, { ...saved, step: step + 1 });
    }
    const m = saved.metrics;
    const quarter = m.slice(Math.floor((m.length * 3) / 4));
    const record: RlvrRunRecord = {
      run,
      method: c.method,
      seed: c.seed,
      reward: o.reward,
      sftAccuracy: saved.sft.greedy,
      finalAccuracy: m[m.length - 1]?.heldout_accuracy ?? Number.NaN,
      sftSampledAccuracy: saved.sft.sampled,
      finalSampledAccuracy: m[m.length - 1]?.heldout_sampled_accuracy ?? Number.NaN,
      meanEntropy: mean(m.map((x) => x.entropy)),
      firstHackRate: m[0]?.hack_rate ?? Number.NaN,
      lastHackRate: mean(quarter.map((x) => x.hack_rate)),
      metrics: m,
      failures: saved.failures,
    };
    writeFileSync(resultPath, JSON.stringify(record));
    rmSync(checkpointPath, { force: true });
    return record;
  } finally {
    disposeTrainState(state);
    tf.dispose(Object.values(reference));
  }
}

/**
 * Advantages and clip bounds of the scored rollouts, group by group (`group` consecutive rollouts
 * share a prompt). A failed rollout is left out of its group; a group with fewer than two scored
 * rollouts has no advantage and is left out whole. Both methods take population-std advantages, so
 * ETR at zero coefficients is exactly GRPO.
 */
export function groupBounds(
  method: RlvrMethod,
  rewards: readonly (number | undefined)[],
  group: number,
): { index: number[]; advantages: number[]; epsLow: number[]; epsHigh: number[] } {
  const out = {
    index: [] as number[],
    advantages: [] as number[],
    epsLow: [] as number[],
    epsHigh: [] as number[],
  };
  for (let g = 0; g < rewards.length; g += group) {
    const members = Array.from({ length: group }, (_, k) => g + k).filter((i) => rewards[i] !== undefined);
    if (members.length < 2) continue;
    const r = members.map((i) => rewards[i] as number);
    if (method === 'etr') {
      const b = etrClipBounds(r);
      out.advantages.push(...b.advantages);
      out.epsLow.push(...b.epsLow);
      out.epsHigh.push(...b.epsHigh);
    } else {
      out.advantages.push(...grpoAdvantages(r, { std: 'population' }));
      out.epsLow.push(...r.map(() => GRPO_EPS));
      out.epsHigh.push(...r.map(() => GRPO_EPS));
    }
    out.index.push(...members);
  }
  return out;
}

function padded(rows: readonly number[][], width: number): number[][] {
  return rows.map((r) => [...r, ...Array<number>(width - r.length).fill(0)]);
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}
