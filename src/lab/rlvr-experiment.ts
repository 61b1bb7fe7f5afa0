import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { RewardKitError } from '../core/index.js';
import { adamwStep, createTrainState, disposeTrainState, type TrainState } from './adamw.js';
import { loadCheckpoint, loadParams, saveCheckpoint, saveParams } from './checkpoint.js';
import { belowMinimum } from './lab-minimum.js';
import type { Params } from './layers.js';
import type { LabReport } from './report.js';
import { AFRL_SEPARATOR, afrlCompletion, scoredResponse, withSftAuxiliary } from './rlvr-afrl.js';
import { policyLossTensor } from './rlvr-loss.js';
import { methodStep } from './rlvr-method-step.js';
import { RLVR_MINIMUM, type RlvrMethod, type RlvrOptions } from './rlvr-options.js';
import { type PolicyShape, type Rollout, rolloutLogprobs, sample } from './rlvr-policy.js';
import {
  type BatchReward,
  inProcessBatch,
  naiveSpecText,
  probeSpec,
  type RewardFn,
  type RewardKind,
  rewardFromSpec,
  verifierSpecText,
} from './rlvr-rewards.js';
import { type Disagreement, rewardShares, type StepRewardSources, scoreStep } from './rlvr-step-rewards.js';
import { answerLine, goldAnswer, type RlvrTask, rlvrTasks } from './rlvr-tasks.js';
import { EOS, encodeChars, rlvrVocab } from './rlvr-tokenizer.js';
import { transportSummary, transportTable } from './rlvr-transport-report.js';
import { type RlvrRunResult, rlvrVerdicts } from './rlvr-verdicts.js';
import { trainRun } from './training-run.js';
import { initParams } from './transformer.js';

export const RLVR_CLAIM =
  'RL with verifiable rewards (GRPO, ETR, CLIPO, BRPO, AFRL) raises a small policy’s held-out accuracy over its SFT start; ETR’s elastic trust region keeps entropy higher than GRPO’s fixed clip; CLIPO’s shaping does not cost accuracy vs GRPO; AFRL’s answer-first policy keeps its accuracy; a gameable reward is exploited where the verifier is not.';

/** Optimizer steps on each batch of rollouts (PPO epochs): from the second on, ratios leave 1 and clipping acts. */
const INNER_STEPS = 2;

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
export interface RlvrMetric extends RewardTimings {
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

/** Per step: wall time, each transport's reward time and its share of the step (`--reward-transport`). */
interface RewardTimings {
  /** Completion tokens the policy update trained on (kept rollouts × optimizer steps per batch). */
  update_tokens?: number;
  step_ms?: number;
  sample_ms?: number;
  update_ms?: number;
  reward_ms_in_process?: number;
  reward_ms_http?: number;
  reward_share_in_process?: number;
  reward_share_http?: number;
  /** With both transports: rollouts whose in-process and HTTP rewards differ (must be 0). */
  disagreements?: number;
}

export interface RlvrRunRecord extends RlvrRunResult {
  run: string;
  metrics: RlvrMetric[];
  /** Held-out accuracy of sampled answers at the SFT start and after the last RL step. */
  sftSampledAccuracy: number;
  finalSampledAccuracy: number;
  /** Rollouts a reward source failed on: recorded here with the reason, left out of the update. */
  failures: { step: number; response: string; why: string }[];
  /** With both transports: every reward the two disagree on, with its step and response. */
  disagreements: (Disagreement & { step: number; response: string })[];
}

/** Starts `rewardkit serve`'s app for a spec on a loopback port (supplied by the CLI, which owns the server). */
export type HttpRewardServer = (specText: string, file: string) => Promise<BatchReward>;

export interface RlvrExperiment {
  report: LabReport;
  /** RL steps trained by this call and read back from an earlier one (a resume trains none twice). */
  stepsTrained: number;
  stepsReadBack: number;
  /** Rewards the in-process and HTTP transports disagreed on (`--reward-transport both`); a failed check when > 0. */
  disagreements: number;
}

// A stream per purpose, seed and step, so a resumed run draws the same tasks and samples.
const stream = (seed: number, purpose: number, step: number) =>
  (seed * 1_000_003 + purpose * 7_919 + step * 104_729) >>> 0;

/** The widest prompt, answer line and AFRL explanation a task kind can produce. */
function widths(o: RlvrOptions): { prompt: number; answer: number; explanation: number } {
  if (o.task === 'addition')
    return { prompt: 2 * o.digits + 5, answer: o.digits + 1, explanation: 2 * o.digits + 1 };
  if (o.task === 'sorting') return { prompt: 14, answer: 9, explanation: 9 };
  return { prompt: 26, answer: 12, explanation: 5 };
}

/** How completions are laid out: the answer line alone, or AFRL's answer line then its explanation. */
export type RlvrFormat = 'plain' | 'afrl';
const formatOf = (method: RlvrMethod): RlvrFormat => (method === 'afrl' ? 'afrl' : 'plain');

export function policyShape(o: RlvrOptions, format: RlvrFormat = 'plain'): PolicyShape {
  const w = widths(o);
  // Room past the longest answer line and its end token, to list extra candidates (a hack).
  const completionLen =
    answerLine('', o.answerFormat).length +
    w.answer +
    1 +
    o.completionRoom +
    (format === 'afrl' ? AFRL_SEPARATOR.length + w.explanation : 0);
  return {
    promptWidth: w.prompt,
    completionLen,
    config: {
      vocab: rlvrVocab(o.answerFormat),
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

/** What a caller adds to a run: its own verifier spec, and listeners. */
export interface RlvrHooks {
  /** A spec file to score the task with instead of the built-in one (`--spec`). */
  specFile?: string;
  onProgress?: (done: number, total: number) => void;
  /** Starts rewardkit serve's app for a spec; needed by `--reward-transport http|both`. */
  httpServer?: HttpRewardServer;
  /** Hears each RL step's metric as it is logged, with its run's SFT-start accuracy. */
  onMetric?: RlvrMetricListener;
}

/**
 * The whole experiment in `dir`: per seed an SFT warm start (teacher forcing on prompt → answer
 * line), then per method an RL run from it; every run resumable (runs/). Rewards go through the
 * spec evaluator; the spec is probed on a reference answer before any training.
 */
export async function runRlvrExperiment(
  o: RlvrOptions,
  dir: string,
  hooks: RlvrHooks = {},
): Promise<RlvrExperiment> {
  const { specFile, onProgress, httpServer, onMetric } = hooks;
  if (o.rewardTransport !== 'in-process' && httpServer === undefined)
    throw new RewardKitError(
      'RK_USAGE',
      `--reward-transport ${o.rewardTransport}: no HTTP reward server here`,
    );
  if (specFile !== undefined && o.formatWeight > 0)
    throw new RewardKitError(
      'RK_USAGE',
      `--format-weight ${o.formatWeight} weighs the built-in spec's format source; with --spec ${specFile}, put the format source in that spec`,
    );
  const verifierText = verifierSpecText(o.task, specFile, o);
  const verifierName = specFile ?? `lab-rlvr-${o.task}`;
  const verifier = rewardFromSpec(verifierText, verifierName);
  const naive = rewardFromSpec(naiveSpecText(), 'lab-rlvr-naive');
  const sources: StepRewardSources = {};
  if (o.rewardTransport !== 'http')
    sources.inProcess = { naive: inProcessBatch(naive), verifier: inProcessBatch(verifier) };
  try {
    if (httpServer && o.rewardTransport !== 'in-process')
      sources.http = {
        naive: await httpServer(naiveSpecText(), 'lab-rlvr-naive'),
        verifier: await httpServer(verifierText, verifierName),
      };
    const probe = rlvrTasks(o.task, 1, 0, taskOptions(o))[0] as RlvrTask;
    await probeSpec(verifier, probe, specFile === undefined ? `the ${o.task} spec` : `--spec ${specFile}`);
    await probeSpec(naive, probe, 'the naive reward spec');
    const runsDir = join(dir, 'runs');
    mkdirSync(runsDir, { recursive: true });
    const formats = [...new Set(o.methods.map(formatOf))];
    const total =
      o.seeds.length * (formats.length * o.sftSteps + o.methods.length * o.reward.length * o.rlSteps);
    let done = 0;
    const progress = (n: number) => {
      done += n;
      onProgress?.(done, total);
    };
    const counts = { trained: 0, readBack: 0 };
    const runs: RlvrRunRecord[] = [];
    const sftMetrics: Record<string, unknown>[] = [];
    for (const seed of o.seeds) {
      const heldOut = rlvrTasks(o.task, o.evalExamples, 900_000 + seed, taskOptions(o));
      const batchOf = trainingBatches(o, seed, new Set(heldOut.map((t) => t.prompt)));
      // One SFT start per completion format: AFRL's warm-starts on the answer-first layout.
      const starts = new Map<RlvrFormat, { shape: PolicyShape; sftPath: string }>();
      for (const format of formats) {
        const id = format === 'plain' ? `sft-s${seed}` : `sft-${format}-s${seed}`;
        const shape = policyShape(o, format);
        const sftPath = join(runsDir, `${id}.params.json`);
        starts.set(format, { shape, sftPath });
        const sft = trainRun(
          {
            id,
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
            loss: (params, step) => sftLoss(params, shape, batchOf(1, step, o.sftBatch), format),
            evaluate: (params) => saveParams(sftPath, params),
            logEvery: 10,
            checkpointEvery: 50,
            spikeFactor: 1e9,
            onProgress: progress,
          },
          runsDir,
        );
        sftMetrics.push(...sft.metrics.map((m) => ({ ...m, phase: 'sft', format, seed })));
      }
      for (const [method, reward] of o.methods.flatMap((m) => o.reward.map((r) => [m, r] as const))) {
        const start = starts.get(formatOf(method)) as { shape: PolicyShape; sftPath: string };
        runs.push(
          await rlRun(
            o,
            {
              method,
              reward,
              seed,
              ...start,
              heldOut,
              batchOf,
              verifier,
              sources,
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
    const plain = policyShape(o);
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
      disagreements: runs.reduce((n, r) => n + (r.disagreements?.length ?? 0), 0),
      report: {
        title: `rewardkit lab rlvr — ${o.task}, ${o.methods.join(', ')}, ${o.reward.join(' and ')} reward`,
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
          transportTable(runs),
        ],
        metrics,
        summary: {
          options: o,
          policy: { ...plain.config, promptWidth: plain.promptWidth, completionLen: plain.completionLen },
          ...(formats.includes('afrl') && { afrlCompletionLen: policyShape(o, 'afrl').completionLen }),
          innerSteps: INNER_STEPS,
          runs: runs.map(({ metrics: _m, ...rest }) => rest),
          transport: transportSummary(o, runs),
        },
      },
    };
  } finally {
    await verifier.close();
    await naive.close();
    await sources.http?.naive.close();
    await sources.http?.verifier.close();
  }
}

const taskOptions = (o: RlvrOptions) => ({ digits: o.digits, answerFormat: o.answerFormat });

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
      const fresh = rlvrTasks(o.task, n, stream(seed, purpose, step) + draw, taskOptions(o));
      out.push(...fresh.filter((t) => !heldOut.has(t.prompt)).slice(0, n - out.length));
    }
    return out;
  };
}

/** Teacher forcing: the mean cross-entropy of the completion (in `format`) and its end token. */
function sftLoss(
  params: Params,
  shape: PolicyShape,
  tasks: readonly RlvrTask[],
  format: RlvrFormat,
): tf.Scalar {
  const gold = (t: RlvrTask) => (format === 'afrl' ? afrlCompletion(t) : goldAnswer(t));
  const targets = tasks.map((t) => ({ tokens: [...encodeChars(gold(t)), EOS] }));
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
  /** The training reward of this run. */
  reward: RewardKind;
  seed: number;
  shape: PolicyShape;
  sftPath: string;
  heldOut: readonly RlvrTask[];
  batchOf: (purpose: number, step: number, n: number) => RlvrTask[];
  verifier: RewardFn;
  sources: StepRewardSources;
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
      const response = scoredResponse(c.method, (rollouts[i] as Rollout).text);
      const s = await c.verifier.score(task, response, `eval-${task.id}`);
      if ('reward' in s && s.reward === 1) n++;
    }
    return n / c.heldOut.length;
  };
  return {
    greedy: await correct(sample(params, c.shape, prompts, 0, 0)),
    // One fixed stream at every evaluation, apart from the steps' own (purposes 3 and 4).
    sampled: await correct(sample(params, c.shape, prompts, c.temperature, stream(c.seed, 5, 0))),
  };
}

interface RlSaved {
  sft: HeldOutAccuracy;
  metrics: RlvrMetric[];
  failures: RlvrRunRecord['failures'];
  disagreements: RlvrRunRecord['disagreements'];
  /** What the method carries between steps (CLIPO's head), so a resume continues identically. */
  carried?: unknown;
}

async function rlRun(o: RlvrOptions, c: RunContext, progress: (n: number) => void): Promise<RlvrRunRecord> {
  const run = `${c.method}-${c.reward}-s${c.seed}`;
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
    saved = {
      sft: await heldOutAccuracy(reference, c),
      metrics: [],
      failures: [],
      disagreements: [],
    };
  }
  try {
    for (; step < o.rlSteps; step++) {
      const tasks = c.batchOf(2, step, o.prompts).flatMap((t) => Array<RlvrTask>(o.group).fill(t));
      const prompts = tasks.map((t) => t.prompt);
      const started = performance.now();
      const rollouts = sample(state.params, c.shape, prompts, o.temperature, stream(c.seed, 3, step));
      const sampleMs = performance.now() - started;
      const textOf = (i: number) => (rollouts[i] as Rollout).text;
      const scored = await scoreStep(
        tasks.map((task, i) => ({
          task,
          response: scoredResponse(c.method, textOf(i)),
          id: `${run}-${step}-${i}`,
        })),
        c.sources,
        c.reward,
      );
      const { rewards, hacks } = scored;
      for (const f of scored.failures) saved.failures.push({ step, response: textOf(f.index), why: f.why });
      for (const d of scored.disagreements)
        saved.disagreements.push({ ...d, step, response: textOf(d.index) });
      const update = await methodStep({
        method: c.method,
        o,
        tasks,
        rollouts,
        rewards,
        params: state.params,
        shape: c.shape,
        runSeed: c.seed,
        stepSeed: stream(c.seed, 4, step),
        carried: saved.carried,
      });
      if (update.carried !== undefined) saved.carried = update.carried;
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
      const updateStarted = performance.now();
      if (kept.length > 0) {
        for (let k = 0; k < INNER_STEPS; k++) {
          state.step = step * INNER_STEPS + k;
          loss = adamwStep(
            state,
            (params) => {
              const now = rolloutLogprobs(params, c.shape, pick(prompts), keptRollouts, o.temperature);
              const ref = rolloutLogprobs(reference, c.shape, pick(prompts), keptRollouts, o.temperature);
              const policy = policyLossTensor({
                logprobs: now.logprobs,
                oldLogprobs: tf.tensor2d(old, [kept.length, c.shape.completionLen]),
                refLogprobs: ref.logprobs,
                mask: now.mask,
                advantages: update.advantages,
                epsLow: update.epsLow,
                epsHigh: update.epsHigh,
                klCoef: o.klCoef,
              });
              return update.sftLambda === undefined
                ? policy
                : withSftAuxiliary(policy, params, c.shape, tasks, update.sftLambda);
            },
            { lr: o.lr, beta1: 0.9, beta2: 0.95, weightDecay: 0, clip: 1 },
          ).loss;
        }
      }
      const stepMs = performance.now() - started;
      const updateMs = performance.now() - updateStarted;
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
        update_tokens: INNER_STEPS * keptRollouts.reduce((n, r) => n + r.tokens.length, 0),
        step_ms: stepMs,
        sample_ms: sampleMs,
        update_ms: updateMs,
        ...(scored.ms.in_process !== undefined && { reward_ms_in_process: scored.ms.in_process }),
        ...(scored.ms.http !== undefined && { reward_ms_http: scored.ms.http }),
        ...rewardShares(stepMs, scored.ms),
        ...(o.rewardTransport === 'both' && { disagreements: scored.disagreements.length }),
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
      reward: c.reward,
      sftAccuracy: saved.sft.greedy,
      finalAccuracy: m[m.length - 1]?.heldout_accuracy ?? Number.NaN,
      sftSampledAccuracy: saved.sft.sampled,
      finalSampledAccuracy: m[m.length - 1]?.heldout_sampled_accuracy ?? Number.NaN,
      meanEntropy: mean(m.map((x) => x.entropy)),
      firstHackRate: m[0]?.hack_rate ?? Number.NaN,
      lastHackRate: mean(quarter.map((x) => x.hack_rate)),
      metrics: m,
      failures: saved.failures,
      disagreements: saved.disagreements,
    };
    writeFileSync(resultPath, JSON.stringify(record));
    rmSync(checkpointPath, { force: true });
    return record;
  } finally {
    disposeTrainState(state);
    tf.dispose(Object.values(reference));
  }
}

function padded(rows: readonly number[][], width: number): number[][] {
  return rows.map((r) => [...r, ...Array<number>(width - r.length).fill(0)]);
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}
