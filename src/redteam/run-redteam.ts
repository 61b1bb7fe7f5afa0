import { createRng, type Sample } from '../core/index.js';
import type { Exploit } from './exploit.js';
import { type ExploitSummary, type ExploitTrial, type LiftOptions, summariseLift } from './lift-stats.js';

export interface RedteamOptions extends LiftOptions {
  readonly exploits: readonly Exploit[];
  /** A sample's reward, or null when its scoring failed. */
  readonly score: (sample: Sample) => Promise<number | null>;
}

/**
 * Scores each sample once as written and once per exploited response, and summarises each
 * exploit's lift. Each exploit draws from its own RNG seeded with `seed`, so adding or removing one
 * leaves the others' responses unchanged.
 */
export async function runRedteam(
  samples: readonly Sample[],
  options: RedteamOptions,
): Promise<ExploitSummary[]> {
  const seed = options.seed ?? 0;
  const before = new Map<Sample, number | null>();
  for (const sample of samples) before.set(sample, await options.score(sample));
  const summaries: ExploitSummary[] = [];
  for (const exploit of options.exploits) {
    const rng = createRng(seed);
    const trials: ExploitTrial[] = [];
    for (const sample of samples) {
      const responses = exploit.apply(sample, rng);
      if (responses.length === 0) continue;
      const after = [];
      for (const response of responses)
        after.push({ response, reward: await options.score({ ...sample, response }) });
      trials.push({ id: sample.id, before: before.get(sample) ?? null, after });
    }
    summaries.push(summariseLift(exploit.name, trials, { ...options, seed }));
  }
  return summaries;
}
