import type { AnalysisRecord } from '../trace2skill/analysis-record.js';
import { type EvolvedJudge, type EvolveJudgeOptions, evolveJudge } from './evolve-judge.js';
import type { JudgedPair } from './judged-pair.js';

export interface EvolveJudgeSeedsOptions extends EvolveJudgeOptions {
  /** Split seeds seed … seed + n − 1, each a whole loop (default 3: the least a verdict needs). */
  readonly splitSeeds?: number;
  /** Asked after each loop whether to run the next (a loop whose models never answered: stop). */
  readonly next?: (run: EvolvedJudge) => boolean;
}

/** One split seed's held-out accuracy, source and evolved, paired. */
export interface SeedHeldOut {
  readonly seed: number;
  /** Whether a Trace2Skill seed gave a valid skill; if not, the loop keeps the source skill. */
  readonly valid: boolean;
  /** The source skill's held-out accuracy (not judged when no valid skill came out). */
  readonly before?: number;
  readonly after?: number;
  /** after − before, the per-seed effect a verdict is drawn from: 0 when the source was kept. */
  readonly gain: number;
}

/**
 * The loop on several split seeds: each seed draws its own held-in / held-out split and positions
 * and evolves from its own held-in verdicts. Judgments and analyses are shared between the loops
 * (keyed by skill and pair as shown, and by run content), so a pair shown alike under the same
 * skill is judged once. Each seed's held-out accuracy before and after is returned paired: the
 * evidence for a claim that evolution raises held-out accuracy, never one split's number.
 */
export async function evolveJudgeSeeds(
  options: EvolveJudgeSeedsOptions,
): Promise<{ runs: EvolvedJudge[]; heldOut: SeedHeldOut[] }> {
  const n = options.splitSeeds ?? 3;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`splitSeeds must be a whole number ≥ 1, got ${n}`);
  const first = options.seed ?? 0;
  const judged: JudgedPair[] = [...(options.judged ?? [])];
  const analyses: AnalysisRecord[] = [...(options.analyses ?? [])];
  const runs: EvolvedJudge[] = [];
  for (let seed = first; seed < first + n; seed++) {
    const run = await evolveJudge({
      ...options,
      seed,
      judged: [...judged],
      analyses: [...analyses],
      onJudged: async (j) => {
        judged.push(j);
        await options.onJudged?.(j);
      },
      onRecord: async (r) => {
        analyses.push(r);
        await options.onRecord?.(r);
      },
    });
    runs.push(run);
    if (options.next !== undefined && !options.next(run)) break;
  }
  return { runs, heldOut: runs.map(seedHeldOut) };
}

function seedHeldOut({ report }: EvolvedJudge): SeedHeldOut {
  const before = report.accuracy.before.held_out?.accuracy;
  const after = report.accuracy.after?.held_out.accuracy;
  // Without a valid skill the loop's result is the source skill itself: no change, by construction.
  if (before === undefined || after === undefined)
    return { seed: report.seed, valid: report.evolve.valid, gain: 0 };
  return { seed: report.seed, valid: report.evolve.valid, before, after, gain: after - before };
}
