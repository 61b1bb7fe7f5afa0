import { z } from 'zod';
import { EvidenceSchema } from './evidence.js';

/** The reward of one sample: the number a trainer consumes, and everything behind it. */
export const RewardResultSchema = z.object({
  spec: z.literal('rk/v1'),
  id: z.string(),
  /** `ok`: a reward was computed; `failed`: the row could not be scored (see `errors`). */
  status: z.enum(['ok', 'failed']),
  /** The final reward; null when the row failed — never a stand-in 0. */
  reward: z.number().nullable(),
  /** Per-source scores, null for a source that errored. */
  components: z.record(z.string(), z.number().nullable()),
  evidence: z.array(EvidenceSchema),
  /** Why the row failed, if it did (file, line and field for input errors). */
  errors: z.array(z.string()),
  /** Things the user should know: clamps applied, invalid sources, fallbacks. */
  warnings: z.array(z.string()),
  data_source: z.string().optional(),
  group: z.string().optional(),
  /**
   * Set when a spec with routes scored the sample by its `default` branch: its data_source
   * (or its lack of one) matched no route. Summaries count these per data_source.
   */
  routed_default: z.literal(true).optional(),
  timings: z.object({ total_ms: z.number().nonnegative() }),
});
export type RewardResult = z.output<typeof RewardResultSchema>;

/** The result of a row that could not be scored: recorded with its reasons, never given a stand-in reward. */
export function failedResult(
  id: string,
  errors: readonly string[],
  extra: Partial<Pick<RewardResult, 'data_source' | 'group' | 'evidence' | 'components' | 'warnings'>> = {},
  totalMs = 0,
): RewardResult {
  return {
    spec: 'rk/v1',
    id,
    status: 'failed',
    reward: null,
    components: extra.components ?? {},
    evidence: extra.evidence ?? [],
    errors: [...errors],
    warnings: extra.warnings ?? [],
    ...(extra.data_source !== undefined && { data_source: extra.data_source }),
    ...(extra.group !== undefined && { group: extra.group }),
    timings: { total_ms: totalMs },
  };
}
