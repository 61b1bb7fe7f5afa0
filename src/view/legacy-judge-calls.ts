import { z } from 'zod';
import type { JudgeCall } from '../core/index.js';
import type { CallTrace } from '../llm/index.js';
import { judgeCallOf } from '../llm/judge-call-of.js';

/** A call as the pairwise, claims and medical kinds kept it in their detail before `Evidence.calls`. */
const LegacyCallSchema = z.object({
  role: z.string().optional(),
  messages: z.array(
    z.object({
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      content: z.union([
        z.string(),
        z.array(
          z.union([
            z.object({ type: z.literal('text'), text: z.string() }),
            z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) }),
          ]),
        ),
      ]),
      toolCallId: z.string().optional(),
      toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown() })).optional(),
    }),
  ),
  raw: z.string(),
  finishReason: z.string(),
  latencyMs: z.number(),
  promptTokens: z.number().optional(),
  completionTokens: z.number().optional(),
  retries: z.number(),
  cached: z.boolean(),
  parseError: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

/**
 * The calls a detail holds in the older, camelCase trace shape (`detail.calls`), as judge calls;
 * undefined when the detail holds none in that shape.
 */
export function legacyJudgeCalls(detail: unknown): JudgeCall[] | undefined {
  if (typeof detail !== 'object' || detail === null || !('calls' in detail)) return undefined;
  const parsed = z.array(LegacyCallSchema).min(1).safeParse(detail.calls);
  if (!parsed.success) return undefined;
  // The same fields as a live trace's, under the same names: mapped as evidence maps them.
  return parsed.data.map((call) => judgeCallOf(call as CallTrace));
}
