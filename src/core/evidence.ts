import { z } from 'zod';
import { JudgeCallSchema } from './judge-call.js';
import { LlmUsageSchema } from './llm-usage.js';

/**
 * The normalized outcome of one check. `error` is not a failed answer: it means the check
 * itself could not be carried out, and it is never turned into a score of 0.
 */
export const VerdictSchema = z.enum(['pass', 'fail', 'error', 'abstain']);
export type Verdict = z.infer<typeof VerdictSchema>;

/** What one source found about one sample. */
export const EvidenceSchema = z.object({
  /** The source's name in the spec. */
  source: z.string(),
  /** The source kind (`math`, `code`, `ifeval`, ...). */
  kind: z.string(),
  /** Score in the source's own range; undefined when the check could not score. */
  score: z.number().optional(),
  /** The source's own score when a calibration map turned it into `score`; absent otherwise. */
  raw_score: z.number().optional(),
  verdict: VerdictSchema,
  /** Source-specific detail: what was extracted, which tests failed, and why. */
  detail: z.unknown().optional(),
  /** True when this source is a veto and it failed. */
  veto: z.boolean().default(false),
  /** True when the check could not be carried out (`verdict: 'error'`). */
  invalid: z.boolean().default(false),
  /** Why the check failed or could not run. */
  reason: z.string().optional(),
  /** Calls, tokens and cache hits of the LLM calls behind this evidence (judge sources). */
  usage: LlmUsageSchema.optional(),
  /**
   * Every LLM call behind this evidence, in the order made (judge sources; absent for sources that
   * call no model, in results stored before traces were kept, and with `--no-traces`).
   */
  calls: z.array(JudgeCallSchema).optional(),
  elapsed_ms: z.number().nonnegative(),
});
export type Evidence = z.output<typeof EvidenceSchema>;
