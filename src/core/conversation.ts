import { z } from 'zod';
import { type ChatMessage, ChatMessageSchema, SampleSchema } from './sample.js';

/**
 * A multi-turn session to judge: chat turns whose last one is the assistant's, the turn under
 * judgment; the turns before it are its context. It needs a user turn before the answer.
 */
export const ConversationSchema = z
  .array(ChatMessageSchema)
  .min(2, 'a conversation needs a user turn and the assistant turn to judge')
  .superRefine((turns, ctx) => {
    // Too short is already said by `min`; one reason per problem.
    if (turns.length < 2) return;
    const last = turns.at(-1) as ChatMessage;
    if (last.role !== 'assistant') {
      ctx.addIssue({
        code: 'custom',
        path: [turns.length - 1, 'role'],
        message: `the last turn must be the assistant's answer, the turn judged (got "${last.role}")`,
      });
    } else if (!turns.slice(0, -1).some((t) => t.role === 'user')) {
      ctx.addIssue({ code: 'custom', path: [], message: 'no user turn before the assistant turn to judge' });
    }
  });

const isRecord = (raw: unknown): raw is Record<string, unknown> =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw);

/**
 * A row schema that also reads `{"messages": [...]}`: the conversation becomes `prompt` (every turn
 * but the last) and `response` (the last, assistant turn), so every judge reads it as a sample
 * whose prompt is the conversation so far. A bad conversation fails with its field path
 * (`messages[3].role`); a row that gives both forms is refused rather than read one way silently.
 */
export function withConversationRows<S extends z.ZodType>(schema: S) {
  return z.preprocess((raw, ctx) => {
    if (!isRecord(raw) || raw.messages === undefined) return raw;
    const { messages, ...rest } = raw;
    const both = ['prompt', 'response'].filter((key) => rest[key] !== undefined);
    if (both.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        input: messages,
        message: `give either "messages" (the conversation, its last turn judged) or "prompt"/"response", not both (this row also has ${both.map((k) => `"${k}"`).join(' and ')})`,
      });
      return raw;
    }
    const parsed = ConversationSchema.safeParse(messages);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', ...issue.path],
          input: messages,
          message: issue.message,
        });
      }
      return raw;
    }
    const turns = parsed.data;
    return { ...rest, prompt: turns.slice(0, -1), response: (turns.at(-1) as ChatMessage).content };
  }, schema);
}

/** How a dataset row is read as a Sample: the Sample fields, or a conversation in `messages`. */
export const SampleRowSchema = withConversationRows(SampleSchema);
