import type { LlmUsage } from '../core/index.js';
import type { ChatResponse } from './chat-model.js';

/** One call's cost, as a `CallTrace` or `callUsageOf(response)` records it. */
export interface CallUsage {
  promptTokens: number | undefined;
  completionTokens: number | undefined;
  latencyMs: number;
  retries: number;
  cached: boolean;
  /** When the answer came (epoch ms): a run's calls are drawn over time by it, not by save time. */
  answeredAt: number;
  /** US dollars, where the model has a price and the backend reported tokens; 0 for a cache hit. */
  costUsd?: number | undefined;
}

/** The cost fields of one response. */
export function callUsageOf(response: ChatResponse): CallUsage {
  return {
    promptTokens: response.usage.promptTokens,
    completionTokens: response.usage.completionTokens,
    latencyMs: response.latencyMs,
    retries: response.retries,
    cached: response.cached === true,
    answeredAt: Date.now(),
    costUsd: costOfCall(response),
  };
}

/** A call's cost as usage counts it: what the backend charged, nothing for a cache hit. */
function costOfCall(response: Pick<ChatResponse, 'cached' | 'costUsd'>): number | undefined {
  if (response.costUsd === undefined) return undefined;
  return response.cached === true ? 0 : response.costUsd;
}

/**
 * Totals over calls, for the store, the run summary and every report: the one usage shape. Token
 * sums cover the calls whose backend reported counts; `unreported_calls` says how many did not,
 * so a missing count is never read as zero tokens.
 */
export function usageOf(calls: readonly CallUsage[]): LlmUsage {
  const usage: LlmUsage = {
    calls: calls.length,
    prompt_tokens: 0,
    completion_tokens: 0,
    latency_ms: 0,
    retries: 0,
    cache_hits: 0,
  };
  let unreported = 0;
  let cost: number | undefined;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    first = Math.min(first, call.answeredAt);
    last = Math.max(last, call.answeredAt);
    if (call.promptTokens === undefined || call.completionTokens === undefined) unreported++;
    usage.prompt_tokens += call.promptTokens ?? 0;
    usage.completion_tokens += call.completionTokens ?? 0;
    usage.latency_ms += call.latencyMs;
    usage.retries += call.retries;
    if (call.cached) usage.cache_hits++;
    if (call.costUsd !== undefined) cost = (cost ?? 0) + call.costUsd;
  }
  const timed = {
    ...usage,
    ...(calls.length > 0 && callSpan(first, last)),
    ...(cost !== undefined && { cost_usd: cost }),
  };
  return unreported === 0 ? timed : { ...timed, unreported_calls: unreported };
}

const callSpan = (first: number, last: number) => ({
  first_call_at: new Date(first).toISOString(),
  last_call_at: new Date(last).toISOString(),
});

/** The earlier and the later of two optional ISO times (ISO strings of one zone sort as times). */
const earlier = (a: string | undefined, b: string | undefined) =>
  a === undefined || (b !== undefined && b < a) ? b : a;
const later = (a: string | undefined, b: string | undefined) =>
  a === undefined || (b !== undefined && b > a) ? b : a;

/** Two usages added field by field (one judgment's into a run's). */
export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  const sum: LlmUsage = {
    calls: a.calls + b.calls,
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    latency_ms: a.latency_ms + b.latency_ms,
    retries: a.retries + b.retries,
    cache_hits: a.cache_hits + b.cache_hits,
  };
  const cost =
    a.cost_usd === undefined && b.cost_usd === undefined ? undefined : (a.cost_usd ?? 0) + (b.cost_usd ?? 0);
  if (cost !== undefined) sum.cost_usd = cost;
  const first = earlier(a.first_call_at, b.first_call_at);
  const last = later(a.last_call_at, b.last_call_at);
  const timed =
    first === undefined || last === undefined ? sum : { ...sum, first_call_at: first, last_call_at: last };
  const unreported = (a.unreported_calls ?? 0) + (b.unreported_calls ?? 0);
  return unreported === 0 ? timed : { ...timed, unreported_calls: unreported };
}
