import type { Evidence } from '../core/index.js';
import { type CriterionOutcome, criterionOutcomes } from './criterion-outcomes.js';

/** Sample ids kept per criterion of those that missed it: enough to open, bounded for a 1M-row run. */
export const MISSED_SAMPLE_IDS = 20;

/** One criterion over a run: how often it was met, and the first samples that missed it. */
export interface CriterionStat {
  readonly source: string;
  readonly kind: CriterionOutcome['kind'];
  readonly criterion: string;
  /** Grades given (a sample's claims each count). */
  readonly graded: number;
  readonly passed: number;
  readonly pass_rate: number;
  /** Samples graded on it. */
  readonly samples: number;
  /** Samples with at least one grade that missed it. */
  readonly missed_samples: number;
  /** The first `MISSED_SAMPLE_IDS` of those, in the order the results were read. */
  readonly missed_sample_ids: readonly string[];
}

interface Tally {
  source: string;
  kind: CriterionOutcome['kind'];
  criterion: string;
  graded: number;
  passed: number;
  samples: number;
  missedSamples: number;
  missedIds: string[];
}

/**
 * Per-criterion pass rates added up one result at a time, so a run is read a page at a time:
 * memory grows with the criteria and `MISSED_SAMPLE_IDS`, never with the rows.
 */
export function createCriterionTally() {
  const tallies = new Map<string, Tally>();
  return {
    add(sampleId: string, evidence: readonly Pick<Evidence, 'source' | 'kind' | 'detail'>[]): void {
      const seen = new Map<Tally, boolean>();
      for (const o of criterionOutcomes(evidence)) {
        const key = JSON.stringify([o.source, o.criterion]);
        let tally = tallies.get(key);
        if (!tally) {
          tally = { ...o, graded: 0, passed: 0, samples: 0, missedSamples: 0, missedIds: [] };
          tallies.set(key, tally);
        }
        tally.graded++;
        if (o.passed) tally.passed++;
        seen.set(tally, (seen.get(tally) ?? false) || !o.passed);
      }
      for (const [tally, missed] of seen) {
        tally.samples++;
        if (!missed) continue;
        tally.missedSamples++;
        if (tally.missedIds.length < MISSED_SAMPLE_IDS) tally.missedIds.push(sampleId);
      }
    },
    /** In the order each was first met (a rubric keeps its own order). */
    stats(): CriterionStat[] {
      return [...tallies.values()].map((t) => ({
        source: t.source,
        kind: t.kind,
        criterion: t.criterion,
        graded: t.graded,
        passed: t.passed,
        pass_rate: t.passed / t.graded,
        samples: t.samples,
        missed_samples: t.missedSamples,
        missed_sample_ids: t.missedIds,
      }));
    },
  };
}
