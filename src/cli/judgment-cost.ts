import type { LlmUsage } from '../core/index.js';
import { type CallTrace, usageOf } from '../llm/index.js';

/** What a judgment's calls cost, as the judge commands print it on every output line. */
export function judgmentCost(calls: readonly CallTrace[]): JudgmentCost {
  return usageCost(usageOf(calls));
}

export interface JudgmentCost {
  calls: number;
  tokens: number;
  usage: LlmUsage;
}

/** The same from a usage total (a judge kind's evidence carries its usage, not its calls). */
export function usageCost(usage: LlmUsage): JudgmentCost {
  return { calls: usage.calls, tokens: usage.prompt_tokens + usage.completion_tokens, usage };
}
