import { createRng, mapConcurrent, type Sample } from '../core/index.js';
import type { Exploit } from './exploit.js';
import { type ExploitSummary, type ExploitTrial, type LiftOptions, summariseLift } from './lift-stats.js';

/** One scoring's outcome: the reward, or null with the evaluator's reasons when it failed. */
export interface Scoring {
  readonly reward: number | null;
  readonly reasons?: readonly string[];
}

/** A scoring that failed, kept with its reasons; `exploit` is "original" for the unexploited response. */
export interface ScoringFailure {
  readonly id: string;
  readonly exploit: string;
  readonly reasons: readonly string[];
}

/** The unexploited response's pass, in failure records and the `score` callback. */
export const ORIGINAL = 'original';

export interface RedteamOptions extends LiftOptions {
  readonly exploits: readonly Exploit[];
  /** A sample's scoring; `exploit` names the exploit that wrote the response, or ORIGINAL. */
  readonly score: (sample: Sample, exploit: string) => Promise<Scoring>;
  /** Scorings in flight at once (default 1): a judge spec waits on the network. */
  readonly concurrency?: number;
  /** Stops the run between scorings (a dead backend, Ctrl-C): it throws the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface RedteamResult {
  readonly exploits: ExploitSummary[];
  readonly failures: ScoringFailure[];
  /** Scorings done: the original pass and every distinct exploited response. */
  readonly scorings: number;
}

/** One scoring to do: a sample with a response, and the first exploit that wrote it. */
interface Job {
  readonly sample: Sample;
  readonly exploit: string;
}

/**
 * Scores each sample once as written and once per distinct exploited response, and summarises each
 * exploit's lift. Each exploit draws from its own RNG seeded with `seed`, in sample order before any
 * scoring, so adding or removing one leaves the others' responses unchanged and `concurrency` does
 * not change them. A response an exploit leaves as it was, or that another exploit already wrote
 * for the same sample, is scored once: the spec reads the same text the same way, and a judge spec
 * pays per call.
 */
export async function runRedteam(
  samples: readonly Sample[],
  options: RedteamOptions,
): Promise<RedteamResult> {
  const seed = options.seed ?? 0;
  const jobs = new Map<string, Job>();
  const jobOf = (index: number, response: string, exploit: string): string => {
    const key = `${index}\u0000${response}`;
    const sample = samples[index] as Sample;
    if (!jobs.has(key)) jobs.set(key, { sample: { ...sample, response }, exploit });
    return key;
  };
  const originals = samples.map((sample, i) => jobOf(i, sample.response, ORIGINAL));
  const plans = options.exploits.map((exploit) => {
    const rng = createRng(seed);
    const rows: { index: number; responses: { response: string; key: string }[] }[] = [];
    samples.forEach((sample, index) => {
      const responses = exploit.apply(sample, rng);
      if (responses.length > 0)
        rows.push({
          index,
          responses: responses.map((response) => ({ response, key: jobOf(index, response, exploit.name) })),
        });
    });
    return { exploit, rows };
  });
  const keys = [...jobs.keys()];
  const scored = new Map<string, Scoring>();
  await mapConcurrent(keys, options.concurrency ?? 1, async (key) => {
    options.signal?.throwIfAborted();
    const job = jobs.get(key) as Job;
    scored.set(key, await options.score(job.sample, job.exploit));
  });
  const failures: ScoringFailure[] = [];
  const reward = (key: string, id: string, exploit: string): number | null => {
    const { reward, reasons = [] } = scored.get(key) as Scoring;
    if (reward === null) failures.push({ id, exploit, reasons });
    return reward;
  };
  const before = originals.map((key, i) => reward(key, (samples[i] as Sample).id, ORIGINAL));
  const summaries = plans.map(({ exploit, rows }) => {
    const trials: ExploitTrial[] = rows.map(({ index, responses }) => {
      const { id } = samples[index] as Sample;
      return {
        id,
        before: before[index] ?? null,
        after: responses.map(({ response, key }) => ({ response, reward: reward(key, id, exploit.name) })),
      };
    });
    return summariseLift(exploit.name, trials, { ...options, seed });
  });
  return { exploits: summaries, failures, scorings: keys.length };
}
