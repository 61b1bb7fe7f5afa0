import { z } from 'zod';

/**
 * What the LLM calls behind one piece of evidence cost: kept with the judgment in the store so
 * that runs report calls, tokens and cache hits per source. Latency sums every call's own time.
 */
export const LlmUsageSchema = z.object({
  calls: z.number().int().nonnegative(),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  latency_ms: z.number().nonnegative(),
  retries: z.number().int().nonnegative(),
  cache_hits: z.number().int().nonnegative(),
  /**
   * Calls whose backend reported no token counts (present only when some did not): the token sums
   * leave them out rather than count them as zero.
   */
  unreported_calls: z.number().int().positive().optional(),
  /** When the first and the last of these calls were answered (ISO 8601, UTC); absent in older rows. */
  first_call_at: z.iso.datetime().optional(),
  last_call_at: z.iso.datetime().optional(),
  /**
   * US dollars over the calls whose model has a `price` in the models file (cache hits free);
   * absent when none had one.
   */
  cost_usd: z.number().nonnegative().optional(),
});
export type LlmUsage = z.infer<typeof LlmUsageSchema>;

/** The sums a run reports per source: calls, tokens and cache hits. */
export interface UsageTotals {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_hits: number;
  /** Present when some call was priced (see `LlmUsage.cost_usd`). */
  cost_usd?: number;
}

/**
 * Adds one piece of evidence's usage (or other totals) to running totals, starting them when
 * undefined.
 */
export function addUsageTotals(totals: UsageTotals | undefined, usage: UsageTotals): UsageTotals {
  const sums = totals ?? { calls: 0, prompt_tokens: 0, completion_tokens: 0, cache_hits: 0 };
  sums.calls += usage.calls;
  sums.prompt_tokens += usage.prompt_tokens;
  sums.completion_tokens += usage.completion_tokens;
  sums.cache_hits += usage.cache_hits;
  if (usage.cost_usd !== undefined) sums.cost_usd = (sums.cost_usd ?? 0) + usage.cost_usd;
  return sums;
}
