import { createRng, type Sample } from '../core/index.js';
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
  /** Stops the run between scorings (a dead backend, Ctrl-C): it throws the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface RedteamResult {
  readonly exploits: ExploitSummary[];
  readonly failures: ScoringFailure[];
  /** Scorings done: the original pass and every exploited response. */
  readonly scorings: number;
}

/**
 * Scores each sample once as written and once per exploited response, and summarises each
 * exploit's lift. Each exploit draws from its own RNG seeded with `seed`, so adding or removing one
 * leaves the others' responses unchanged.
 */
export async function runRedteam(
  samples: readonly Sample[],
  options: RedteamOptions,
): Promise<RedteamResult> {
  const seed = options.seed ?? 0;
  const failures: ScoringFailure[] = [];
  let scorings = 0;
  const score = async (sample: Sample, exploit: string): Promise<number | null> => {
    options.signal?.throwIfAborted();
    scorings++;
    const { reward, reasons = [] } = await options.score(sample, exploit);
    if (reward === null) failures.push({ id: sample.id, exploit, reasons });
    return reward;
  };
  const before = new Map<Sample, number | null>();
  for (const sample of samples) before.set(sample, await score(sample, ORIGINAL));
  const summaries: ExploitSummary[] = [];
  for (const exploit of options.exploits) {
    const rng = createRng(seed);
    const trials: ExploitTrial[] = [];
    for (const sample of samples) {
      const responses = exploit.apply(sample, rng);
      if (responses.length === 0) continue;
      const after = [];
      for (const response of responses)
        after.push({ response, reward: await score({ ...sample, response }, exploit.name) });
      trials.push({ id: sample.id, before: before.get(sample) ?? null, after });
    }
    summaries.push(summariseLift(exploit.name, trials, { ...options, seed }));
  }
  return { exploits: summaries, failures, scorings };
}
