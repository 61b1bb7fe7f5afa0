import { z } from 'zod';
import { ChatMessageSchema } from './sample.js';

/**
 * One message a judge sent (or a turn of its tool loop), as stored: text only. A multimodal part
 * is kept as its text; an image is named by its URL, and a `data:` URL by its size, not kept.
 */
export const JudgeCallMessageSchema = ChatMessageSchema.extend({
  /** The tools an assistant turn called, with their parsed arguments. */
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown() })).optional(),
  /** The call a `tool` message answers. */
  tool_call_id: z.string().optional(),
});
export type JudgeCallMessage = z.infer<typeof JudgeCallMessageSchema>;

/**
 * One LLM call behind a piece of evidence, kept with the judgment so that every prompt, raw output
 * and parse can be inspected: its messages, what the model returned, what the judge read from it
 * (or why it could not), and what the call cost. Re-asks after unreadable output are calls too.
 */
export const JudgeCallSchema = z.object({
  /** The judge role that made the call (`genrm_scores`, `checker`, …), where one did. */
  role: z.string().optional(),
  /**
   * Which order of a pairwise comparison the call judged: `forward` shows the evidence's own
   * response first, `backward` second.
   */
  order: z.enum(['forward', 'backward']).optional(),
  /** Which sample of the same request the call was (the vote index), where it was one of several. */
  variant: z.number().int().nonnegative().optional(),
  /** The sample the response was compared with, in a round robin within a group. */
  opponent: z.string().optional(),
  messages: z.array(JudgeCallMessageSchema),
  /** The model's output as returned (tool calls appended as JSON where it made any). */
  raw: z.string(),
  /** What the judge read from `raw`, where it read it (structured calls). */
  parsed: z.unknown().optional(),
  /** Why `raw` could not be read; the judge then asked again or gave up. */
  parse_error: z.string().optional(),
  /** `stop`, `length` (cut by the token limit), `tool_calls`, `content_filter` or `other`. */
  finish_reason: z.string(),
  latency_ms: z.number().nonnegative(),
  /** As the backend reported them; absent where it did not (never a made-up 0). */
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
  /** Failed attempts of the backend before this answer. */
  retries: z.number().int().nonnegative(),
  /** Answered from the response cache. */
  cached: z.boolean(),
  /** When the answer came (ISO 8601, UTC); absent in rows stored before it was recorded. */
  answered_at: z.iso.datetime().optional(),
  /** US dollars, where the model has a price (0 for a cache hit). */
  cost_usd: z.number().nonnegative().optional(),
  /** What the backend could not honour as asked. */
  warnings: z.array(z.string()).optional(),
});
export type JudgeCall = z.infer<typeof JudgeCallSchema>;
