import { createRng } from '../../core/index.js';
import { bonAtK } from './bon-at-k.js';
import { type CorruptionMode, corruptConstraints, drawCorruption } from './corrupt-constraints.js';
import { EVPV_AGGREGATORS, type EvpvAggregator } from './evpv-aggregators.js';
import { gateCandidate } from './gated-candidate.js';
import { type PolicyStep, visualChecklist } from './policy-steps.js';
import type { PremiseAuditor } from './premise-audit.js';
import type { VisualConstraints } from './visual-constraints.js';

/** A problem ready for the study: its clean constraints and its judged candidates. */
export interface StudyProblem {
  readonly id: string;
  readonly constraints: VisualConstraints;
  /** `steps` and `stepScores` are null for a candidate whose output could not be read: never selected. */
  readonly candidates: ReadonlyArray<{
    readonly steps: readonly PolicyStep[] | null;
    readonly stepScores: readonly number[] | null;
    readonly correct: boolean;
  }>;
}

/** One point of the curve: reliability-gated BoN@k accuracy at one corruption mode and ratio. */
export interface CurvePoint {
  readonly mode: CorruptionMode;
  readonly ratio: number;
  /** BoN@k accuracy per aggregator, averaged over problems and trials. */
  readonly accuracy: Record<EvpvAggregator, number>;
  /** Mean premise reliability p over candidates with a non-empty checklist. */
  readonly mean_p: number | null;
  /** Audits that were unreadable (p = 0), over all trials. */
  readonly invalid_audits: number;
}

export interface CorruptionCurve {
  readonly problems: number;
  readonly k: number | 'N';
  readonly trials: number;
  readonly seed: number;
  /** The same candidates with every step ungated (p = 1): what gating is measured against. */
  readonly ungated: Record<EvpvAggregator, number>;
  readonly points: CurvePoint[];
}

const zeros = () => Object.fromEntries(EVPV_AGGREGATORS.map((a) => [a, 0])) as Record<EvpvAggregator, number>;

function accuracyOf(
  problems: readonly StudyProblem[],
  k: number | 'N',
  pOf: (pi: number, ci: number) => number,
) {
  const hits = zeros();
  problems.forEach((problem, pi) => {
    const scored = problem.candidates.map((c, ci) => ({
      gated: c.steps && c.stepScores ? gateCandidate(c.steps, c.stepScores, pOf(pi, ci)) : undefined,
      c,
    }));
    for (const a of EVPV_AGGREGATORS) {
      const list = scored.map(({ gated, c }) => ({ score: gated?.scores[a], correct: c.correct }));
      if (bonAtK(list, k === 'N' ? list.length : k)) hits[a]++;
    }
  });
  return hits;
}

/**
 * The EVPV corruption study: for each mode (DROP, FLIP) and ratio r, corrupt every problem's
 * constraints (each fact with probability r; the same draws at every r), re-audit each
 * candidate's checklist with `audit`, re-gate its fixed step scores, and measure BoN@k accuracy
 * per aggregator, averaged over `trials` draws. Step judgments are not redone: only the premises move.
 */
export async function corruptionCurve(
  problems: readonly StudyProblem[],
  options: {
    readonly ratios: readonly number[];
    readonly seed: number;
    readonly trials?: number;
    readonly k?: number;
    readonly audit: PremiseAuditor;
    readonly modes?: readonly CorruptionMode[];
  },
): Promise<CorruptionCurve> {
  const trials = options.trials ?? 5;
  const k = options.k ?? 'N';
  const n = Math.max(1, problems.length);
  const points: CurvePoint[] = [];
  const checklists = problems.map((p) =>
    p.candidates.map((c) => (c.steps ? visualChecklist(c.steps) : null)),
  );
  for (const [mi, mode] of (options.modes ?? ['drop', 'flip']).entries()) {
    const draws = Array.from({ length: trials }, (_, t) => {
      const rng = createRng((options.seed + 7919 * t + 104729 * mi) >>> 0);
      return problems.map((p) => drawCorruption(p.constraints, rng));
    });
    for (const ratio of options.ratios) {
      const total = zeros();
      let pSum = 0;
      let pCount = 0;
      let invalid = 0;
      for (let t = 0; t < trials; t++) {
        const ps: number[][] = [];
        for (const [pi, problem] of problems.entries()) {
          const corrupted = corruptConstraints(problem.constraints, mode, ratio, draws[t]?.[pi] ?? []);
          const row: number[] = [];
          for (const checklist of checklists[pi] ?? []) {
            if (checklist === null) {
              row.push(0);
              continue;
            }
            const audit = await options.audit(checklist, corrupted);
            if (audit.status === 'invalid') invalid++;
            if (checklist.length > 0) {
              pSum += audit.p;
              pCount++;
            }
            row.push(audit.p);
          }
          ps.push(row);
        }
        const hits = accuracyOf(problems, k, (pi, ci) => ps[pi]?.[ci] ?? 0);
        for (const a of EVPV_AGGREGATORS) total[a] += hits[a];
      }
      const accuracy = zeros();
      for (const a of EVPV_AGGREGATORS) accuracy[a] = total[a] / (n * trials);
      points.push({
        mode,
        ratio,
        accuracy,
        mean_p: pCount === 0 ? null : pSum / pCount,
        invalid_audits: invalid,
      });
    }
  }
  const ungatedHits = accuracyOf(problems, k, () => 1);
  const ungated = zeros();
  for (const a of EVPV_AGGREGATORS) ungated[a] = ungatedHits[a] / n;
  return { problems: problems.length, k, trials, seed: options.seed, ungated, points };
}
