import { addUsageTotals, type Evidence, type RewardResult, type UsageTotals } from '../core/index.js';
// The agreement module itself, not the judges' barrel: the root entry loads no judge implementation.
import {
  type PanelAgreement,
  type PanelRatings,
  panelAgreement,
} from '../judges/agreement/panel-agreement.js';
import { panelRatingsOf } from '../spec/index.js';
import type { SourceStat } from '../store/index.js';
import { createSourceStatsTally } from '../store/source-stats-tally.js';

/** Per-source statistics over the rows scored in a run. */
export interface SourceSummary {
  readonly source: string;
  /** Rows where the source produced a score. */
  readonly scored: number;
  readonly mean: number | null;
  /** Rows where the verdict was `pass`, over scored rows. */
  readonly pass_rate: number | null;
  /** Rows where the source could not be carried out. */
  readonly invalid: number;
  /** LLM calls, tokens and cache hits behind this source (judge sources only). */
  readonly llm?: {
    readonly calls: number;
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cache_hits: number;
    /** US dollars, where the models file gives the judge's model a `price`. */
    readonly cost_usd?: number;
  };
}

/** What a scoring run did, for the terminal, the store and `--summary`. */
export interface RunSummary {
  readonly rows: number;
  readonly scored: number;
  readonly failed: number;
  /** Rows skipped because their id was already in the output (resume). */
  readonly skipped: number;
  readonly mean_reward: number | null;
  readonly sources: readonly SourceSummary[];
  /** The first failures, with their reasons; `failed` has the full count. */
  readonly failures: readonly { readonly id: string; readonly reason: string }[];
  /**
   * Rows a spec with routes scored by its `default` branch, per data_source (null: rows with
   * none; `*`: the data_sources past the first 200), most first; absent when there were none.
   * An unrouted dataset shows here.
   */
  readonly routed_default?: readonly DefaultRouteCount[];
  /**
   * Per `panel` source: its members' agreement and its cost per judgment; absent without one.
   * A summary merged from several processes (`serve --processes`) has none: agreement is not a
   * sum of its parts.
   */
  readonly panels?: readonly PanelSummary[];
  readonly elapsed_ms: number;
  readonly rows_per_s: number;
}

/** A panel source's agreement and cost over the run's rows. */
export interface PanelSummary extends PanelAgreement {
  readonly source: string;
}

/** Rows of one data_source that reached a routed spec's default branch. */
export interface DefaultRouteCount {
  readonly data_source: string | null;
  readonly rows: number;
}

const KEPT_FAILURES = 20;
/** Distinct data_sources counted apart in `routed_default`; rows of further ones count under {@link OTHER_SOURCES}. */
const KEPT_DEFAULT_ROUTE_SOURCES = 200;
export const OTHER_SOURCES = '*';

/** What a summary reads of a result: a scoring worker thread sends only this, not the evidence's detail. */
export interface SummarizedResult
  extends Pick<RewardResult, 'id' | 'status' | 'reward' | 'errors' | 'data_source' | 'routed_default'> {
  readonly evidence: readonly (Pick<Evidence, 'source' | 'score' | 'verdict' | 'invalid' | 'usage'> & {
    /** A panel's member verdicts, for its agreement. */
    readonly panel?: PanelRatings;
  })[];
}

export function summarized(result: RewardResult): SummarizedResult {
  return {
    id: result.id,
    status: result.status,
    reward: result.reward,
    errors: result.errors,
    ...(result.routed_default && {
      routed_default: true,
      ...(result.data_source !== undefined && { data_source: result.data_source }),
    }),
    evidence: result.evidence.map((e) => {
      const panel = panelRatingsOf(e);
      return {
        source: e.source,
        verdict: e.verdict,
        invalid: e.invalid,
        ...(e.score !== undefined && { score: e.score }),
        ...(e.usage !== undefined && { usage: e.usage }),
        ...(panel !== undefined && { panel }),
      };
    }),
  };
}

export type SummaryAccumulator = ReturnType<typeof createSummaryAccumulator>;

/**
 * Accumulates a RunSummary in constant memory, one result at a time. `storedStats`: also tally
 * the per-source statistics the store keeps at a run's finish (a server's retried requests save
 * rows again, so `serve` hands its tally over only when the run holds a row per result saved).
 * `onDefaultRoute` hears of each data_source the first time one of its rows reaches a routed
 * spec's default branch (null: a row with none), so a command can say so while the run goes on.
 */
export function createSummaryAccumulator(
  options: {
    readonly storedStats?: boolean;
    readonly onDefaultRoute?: (dataSource: string | null) => void;
  } = {},
) {
  let rows = 0;
  let scored = 0;
  let failed = 0;
  let skipped = 0;
  let rewardSum = 0;
  const failures: { id: string; reason: string }[] = [];
  interface SourceTally {
    scored: number;
    sum: number;
    pass: number;
    invalid: number;
    llm?: UsageTotals;
  }
  const sources = new Map<string, SourceTally>();
  const routedDefault = new Map<string | null, number>();
  // A panel's member verdicts per row: agreement needs them all (a few numbers a row).
  const panels = new Map<string, PanelRatings[]>();
  const stored = options.storedStats ? createSourceStatsTally() : undefined;
  return {
    /** A result, whole (scored in this thread) or as a worker thread summarized it. */
    add(result: SummarizedResult | RewardResult): void {
      rows++;
      if (result.routed_default) {
        const named = result.data_source ?? null;
        // Names are the dataset's: past a bound, new ones are counted together, in constant memory.
        const dataSource =
          routedDefault.has(named) || routedDefault.size < KEPT_DEFAULT_ROUTE_SOURCES ? named : OTHER_SOURCES;
        const seen = routedDefault.get(dataSource);
        routedDefault.set(dataSource, (seen ?? 0) + 1);
        if (seen === undefined) options.onDefaultRoute?.(dataSource);
      }
      stored?.add(result.evidence);
      if (result.status === 'ok' && result.reward !== null) {
        scored++;
        rewardSum += result.reward;
      } else {
        failed++;
        if (failures.length < KEPT_FAILURES) {
          failures.push({ id: result.id, reason: result.errors.join('; ') || 'unknown failure' });
        }
      }
      for (const e of result.evidence) {
        let s = sources.get(e.source);
        if (!s) {
          s = { scored: 0, sum: 0, pass: 0, invalid: 0 };
          sources.set(e.source, s);
        }
        if (e.usage) s.llm = addUsageTotals(s.llm, e.usage);
        const panel = 'kind' in e ? panelRatingsOf(e) : e.panel;
        if (panel) {
          const rows = panels.get(e.source);
          if (rows) rows.push(panel);
          else panels.set(e.source, [panel]);
        }
        if (e.invalid || e.score === undefined) {
          s.invalid++;
        } else {
          s.scored++;
          s.sum += e.score;
          if (e.verdict === 'pass') s.pass++;
        }
      }
    },
    skip(): void {
      skipped++;
    },
    /** The per-source statistics the store keeps for these results (see `Store.finishRun`); undefined without `storedStats`. */
    storedSourceStats(): SourceStat[] | undefined {
      return stored?.stats();
    },
    /** The counts a progress display needs, without building the per-source summary. */
    counts(): { rows: number; failed: number; skipped: number } {
      return { rows, failed, skipped };
    },
    summary(elapsedMs: number): RunSummary {
      return {
        rows,
        scored,
        failed,
        skipped,
        mean_reward: scored > 0 ? rewardSum / scored : null,
        sources: [...sources].map(([source, s]) => ({
          source,
          scored: s.scored,
          mean: s.scored > 0 ? s.sum / s.scored : null,
          pass_rate: s.scored > 0 ? s.pass / s.scored : null,
          invalid: s.invalid,
          ...(s.llm && { llm: { ...s.llm } }),
        })),
        failures: [...failures],
        ...defaultRouteCounts([...routedDefault].map(([data_source, n]) => ({ data_source, rows: n }))),
        ...(panels.size > 0 && {
          panels: [...panels].map(([source, ratings]) => ({ source, ...panelAgreement(ratings) })),
        }),
        elapsed_ms: elapsedMs,
        rows_per_s: elapsedMs > 0 ? (rows / elapsedMs) * 1000 : 0,
      };
    },
  };
}

/**
 * One summary of runs that scored disjoint rows at the same time (the processes of a `serve
 * --processes` run): counts add up, means are weighted by what each part scored.
 */
export function mergeRunSummaries(parts: readonly RunSummary[], elapsedMs: number): RunSummary {
  const sum = (pick: (s: RunSummary) => number) => parts.reduce((total, s) => total + pick(s), 0);
  const rows = sum((s) => s.rows);
  const scored = sum((s) => s.scored);
  const rewardSum = sum((s) => (s.mean_reward ?? 0) * s.scored);
  const bySource = new Map<string, SourceSummary[]>();
  for (const part of parts) {
    for (const source of part.sources)
      bySource.set(source.source, [...(bySource.get(source.source) ?? []), source]);
  }
  return {
    rows,
    scored,
    failed: sum((s) => s.failed),
    skipped: sum((s) => s.skipped),
    mean_reward: scored > 0 ? rewardSum / scored : null,
    sources: [...bySource].map(([source, same]) => mergeSourceSummaries(source, same)),
    failures: parts.flatMap((s) => s.failures).slice(0, KEPT_FAILURES),
    ...defaultRouteCounts(parts.flatMap((s) => s.routed_default ?? [])),
    elapsed_ms: elapsedMs,
    rows_per_s: elapsedMs > 0 ? (rows / elapsedMs) * 1000 : 0,
  };
}

/** The summary's `routed_default` field: counts of the same data_source added, most rows first; none when empty. */
function defaultRouteCounts(counts: readonly DefaultRouteCount[]): Pick<RunSummary, 'routed_default'> {
  if (counts.length === 0) return {};
  const merged = new Map<string | null, number>();
  for (const { data_source, rows } of counts) merged.set(data_source, (merged.get(data_source) ?? 0) + rows);
  return {
    routed_default: [...merged]
      .map(([data_source, rows]) => ({ data_source, rows }))
      .sort((a, b) => b.rows - a.rows),
  };
}

function mergeSourceSummaries(source: string, same: readonly SourceSummary[]): SourceSummary {
  const scored = same.reduce((n, s) => n + s.scored, 0);
  const weighted = (pick: (s: SourceSummary) => number | null) =>
    same.reduce((total, s) => total + (pick(s) ?? 0) * s.scored, 0);
  const llms = same.flatMap((s) => (s.llm ? [s.llm] : []));
  const llmSum = (key: Exclude<keyof NonNullable<SourceSummary['llm']>, 'cost_usd'>) =>
    llms.reduce((n, l) => n + l[key], 0);
  const priced = llms.filter((l) => l.cost_usd !== undefined);
  return {
    source,
    scored,
    mean: scored > 0 ? weighted((s) => s.mean) / scored : null,
    pass_rate: scored > 0 ? weighted((s) => s.pass_rate) / scored : null,
    invalid: same.reduce((n, s) => n + s.invalid, 0),
    ...(llms.length > 0 && {
      llm: {
        calls: llmSum('calls'),
        prompt_tokens: llmSum('prompt_tokens'),
        completion_tokens: llmSum('completion_tokens'),
        cache_hits: llmSum('cache_hits'),
        ...(priced.length > 0 && { cost_usd: priced.reduce((n, l) => n + (l.cost_usd ?? 0), 0) }),
      },
    }),
  };
}
