import { addUsageTotals, type Evidence, type UsageTotals } from '../core/index.js';
import type { SourceStat } from './store.js';

interface Tally {
  /** The smallest index the source has in any result's evidence array. */
  position: number;
  count: number;
  sum: number;
  invalid: number;
  usage?: UsageTotals;
}

/**
 * A run's per-source statistics tallied as its results are saved, with the meaning the stores'
 * `sourceStats` query gives them (a score counts when the piece is valid; invalid counts the
 * flag; sources ordered by the first place they take in an evidence array, then by name). A
 * `score` run that saved every row of its run in one session hands them to `finishRun`, which
 * then need not read every row again (0.36 s of a 90,000-row run).
 */
export function createSourceStatsTally() {
  const tallies = new Map<string, Tally>();
  return {
    add(evidence: readonly Pick<Evidence, 'source' | 'score' | 'invalid' | 'usage'>[]): void {
      evidence.forEach((piece, position) => {
        let tally = tallies.get(piece.source);
        if (!tally) {
          tally = { position, count: 0, sum: 0, invalid: 0 };
          tallies.set(piece.source, tally);
        }
        tally.position = Math.min(tally.position, position);
        if (piece.invalid) tally.invalid++;
        else if (piece.score !== undefined) {
          tally.count++;
          tally.sum += piece.score;
        }
        if (piece.usage) tally.usage = addUsageTotals(tally.usage, piece.usage);
      });
    },
    stats(): SourceStat[] {
      return [...tallies]
        .sort(([a, ta], [b, tb]) => ta.position - tb.position || (a < b ? -1 : a > b ? 1 : 0))
        .map(([source, t]) => ({
          source,
          count: t.count,
          mean: t.count > 0 ? t.sum / t.count : null,
          invalid: t.invalid,
          ...(t.usage && { usage: { ...t.usage } }),
        }));
    },
  };
}

/**
 * One run's per-source statistics from those of parts that saved disjoint rows at the same time
 * (the processes of `serve --processes`): counts and usage add up, means are weighted by count,
 * and sources keep the order the parts list them in (each part of one spec lists them alike).
 */
export function mergeSourceStats(parts: readonly (readonly SourceStat[])[]): SourceStat[] {
  const merged = new Map<string, { count: number; sum: number; invalid: number; usage?: UsageTotals }>();
  for (const part of parts) {
    for (const stat of part) {
      const into = merged.get(stat.source) ?? { count: 0, sum: 0, invalid: 0 };
      into.count += stat.count;
      into.sum += (stat.mean ?? 0) * stat.count;
      into.invalid += stat.invalid;
      if (stat.usage) into.usage = addUsageTotals(into.usage, stat.usage);
      merged.set(stat.source, into);
    }
  }
  return [...merged].map(([source, m]) => ({
    source,
    count: m.count,
    mean: m.count > 0 ? m.sum / m.count : null,
    invalid: m.invalid,
    ...(m.usage && { usage: m.usage }),
  }));
}
