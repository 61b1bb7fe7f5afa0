import { createRng, mapConcurrent } from '../core/index.js';
import { type AttributeAudit, type AuditRow, auditAssociations } from './audit-associations.js';
import type { Probe } from './exploit-probe.js';
import { type ProbeSummary, type ProbeTrial, summariseProbe } from './probe-shift.js';

/** One scoring: a reward, or why there is none (the spec or judge failed on the row). */
export type Scoring = { readonly reward: number } | { readonly reasons: readonly string[] };

/** A row whose scoring failed: left out of every statistic, and said. */
export interface FailedScoring {
  readonly id: string;
  readonly reasons: readonly string[];
}

export interface AuditOptions<T> {
  readonly idOf: (item: T) => string;
  readonly sourceOf?: (item: T) => string | undefined;
  readonly attributesOf: (item: T) => Readonly<Record<string, number | null>>;
  /** Throws only when the run must stop (a dead backend); a row the scorer fails on is `{reasons}`. */
  readonly score: (item: T) => Promise<Scoring>;
  readonly probes?: readonly Probe<T>[];
  readonly seed?: number;
  readonly resamples?: number;
  /** Scorings in flight at once (judge specs wait on the network); 1 by default. */
  readonly concurrency?: number;
}

export interface AuditResult {
  readonly samples: number;
  readonly scored: number;
  readonly failed: readonly FailedScoring[];
  /** The scored rows, for the report's plots. */
  readonly rows: readonly AuditRow[];
  readonly attributes: readonly AttributeAudit[];
  readonly probes: readonly ProbeSummary[];
}

/**
 * Scores every item once, measures each attribute's association with the reward, then rescoring
 * each scored item under each probe, how far the rewrite moves it. Failed scorings are counted and
 * left out; they never stand in as a reward of 0.
 */
export async function runAudit<T>(items: readonly T[], options: AuditOptions<T>): Promise<AuditResult> {
  const { seed = 0, resamples = 1000, concurrency = 1 } = options;
  const scorings = await mapConcurrent(items, concurrency, (item) => options.score(item));
  const rows: AuditRow[] = [];
  const scoredItems: { item: T; reward: number }[] = [];
  const failed: FailedScoring[] = [];
  items.forEach((item, i) => {
    const scoring = scorings[i] as Scoring;
    const id = options.idOf(item);
    if ('reasons' in scoring) {
      failed.push({ id, reasons: [...scoring.reasons] });
      return;
    }
    const source = options.sourceOf?.(item);
    rows.push({
      id,
      ...(source !== undefined && { data_source: source }),
      reward: scoring.reward,
      attributes: options.attributesOf(item),
    });
    scoredItems.push({ item, reward: scoring.reward });
  });
  const probes: ProbeSummary[] = [];
  for (const probe of options.probes ?? []) {
    const rng = createRng(seed);
    const rewrites = scoredItems.map(({ item, reward }) => ({
      item,
      reward,
      variants: probe.apply(item, rng),
    }));
    const trials = await mapConcurrent(
      rewrites.filter((r) => r.variants.length > 0),
      concurrency,
      async ({ item, reward, variants }): Promise<ProbeTrial> => {
        const after: (number | null)[] = [];
        for (const variant of variants) {
          const scoring = await options.score(variant);
          after.push('reward' in scoring ? scoring.reward : null);
        }
        return { id: options.idOf(item), before: reward, after };
      },
    );
    probes.push(summariseProbe(probe.name, trials, { seed, resamples }));
  }
  return {
    samples: items.length,
    scored: rows.length,
    failed,
    rows,
    attributes: auditAssociations(rows, { seed, resamples }),
    probes,
  };
}
