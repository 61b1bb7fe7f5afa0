import { z } from 'zod';
import { LlmUsageSchema } from '../../core/index.js';

/** The kinds of lesson an analyst extracts: why a run failed, what to remember from a failure or a success. */
export const LESSON_TYPES = ['failure_cause', 'failure_memory', 'success_memory'] as const;

/** One lesson of an analysis. */
export const LessonSchema = z.object({
  type: z.enum(LESSON_TYPES),
  title: z.string().min(1),
  description: z.string(),
  content: z.string(),
});

export type Lesson = z.output<typeof LessonSchema>;

/**
 * Pass-gating of a failed run's lessons: `passed` (the analyst's fix passed the evaluator, the
 * lessons are kept), `failed` (they are counted in `gated_out`, not kept), `ungated` (no
 * evaluator: kept and marked), `none` (a successful run or an invalid analysis).
 */
export const GATES = ['passed', 'failed', 'ungated', 'none'] as const;

/**
 * One MAP analysis, as written to the resumable analyses JSONL: `{instance, items}` of the notes
 * plus what happened. `hash` is the trajectory's content hash: a rerun reuses the record only
 * for the same trajectory.
 */
export const AnalysisRecordSchema = z.object({
  instance: z.string(),
  hash: z.string(),
  pass: z.boolean(),
  status: z.enum(['ok', 'invalid']),
  /** Why the analysis is invalid (the analyst's output never parsed, the backend failed). */
  reason: z.string().optional(),
  gate: z.enum(GATES),
  /** The lessons kept. */
  items: z.array(LessonSchema),
  /** Lessons dropped because the fix failed the evaluator. */
  gated_out: z.number().int().nonnegative(),
  /** Lessons past the cap (3 for a success) that were cut. */
  truncated: z.number().int().nonnegative(),
  /** An acting analyst's tool calls carried out, and those refused at its cap; absent when it only read. */
  tool_calls: z.number().int().nonnegative().optional(),
  tool_calls_refused: z.number().int().nonnegative().optional(),
  usage: LlmUsageSchema,
});

export type AnalysisRecord = z.output<typeof AnalysisRecordSchema>;
