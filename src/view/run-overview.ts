import { analysisOf } from '../store/analysis-summary.js';
import type { RunRecord, RunTotals, SourceStat, Store } from '../store/index.js';

/** LLM usage summed over a run's judge sources. */
export interface RunCost {
  readonly calls: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cache_hits: number;
}

/** One line of the runs page: what ran, how far it got, how it scored and what it cost. */
export interface RunOverview {
  readonly id: string;
  readonly spec_name: string;
  /** `score` for a scoring run; else the analysis command that stored it (`redteam`, …). */
  readonly kind: string;
  /** An analysis run's one-line result; its HTML report is at `api/runs/<id>/report`. */
  readonly headline?: string;
  readonly status: RunRecord['status'];
  readonly input: string | null;
  readonly output: string | null;
  readonly created_at: string;
  readonly finished_at: string | null;
  readonly results: number;
  readonly failed: number;
  readonly mean_reward: number | null;
  /** Undefined when no source of the run called a model. */
  readonly cost?: RunCost;
  /** Until finished (or now, for a running run), in ms. */
  readonly duration_ms: number;
}

interface SummaryShape {
  readonly rows?: number;
  readonly failed?: number;
  readonly mean_reward?: number | null;
  readonly sources?: readonly { readonly llm?: RunCost }[];
}

/**
 * A run's overview. Counts come from the store as they stand, so a running run's line moves as it
 * writes; the cost comes from the summary written when the run finished, else from the evidence
 * (`sources`: the run's per-source statistics where the caller has them already).
 */
export async function runOverview(
  store: Store,
  run: RunRecord,
  options: { readonly now?: number; readonly sources?: readonly SourceStat[] } = {},
): Promise<RunOverview> {
  const totals: RunTotals = await store.runTotals(run.id);
  const summary = (run.summary ?? undefined) as SummaryShape | undefined;
  const usages = summary
    ? (summary.sources ?? []).flatMap((source) => (source.llm ? [source.llm] : []))
    : (options.sources ?? (await store.sourceStats(run.id))).flatMap((source) =>
        source.usage ? [source.usage] : [],
      );
  const cost = usages.length === 0 ? undefined : sumUsage(usages);
  const analysis = analysisOf(run.summary);
  const end = run.finished_at ? Date.parse(run.finished_at) : (options.now ?? Date.now());
  return {
    id: run.id,
    spec_name: run.spec_name,
    kind: analysis?.kind ?? 'score',
    ...(analysis && { headline: analysis.headline }),
    status: run.status,
    input: run.input,
    output: run.output,
    created_at: run.created_at,
    finished_at: run.finished_at,
    results: totals.results,
    failed: totals.failed,
    mean_reward: totals.mean_reward,
    ...(cost && { cost }),
    duration_ms: Math.max(0, end - Date.parse(run.created_at)),
  };
}

function sumUsage(usages: readonly RunCost[]): RunCost {
  return usages.reduce((total, usage) => ({
    calls: total.calls + usage.calls,
    prompt_tokens: total.prompt_tokens + usage.prompt_tokens,
    completion_tokens: total.completion_tokens + usage.completion_tokens,
    cache_hits: total.cache_hits + usage.cache_hits,
  }));
}
