import type { JudgeCall, JudgeCallMessage } from '../core/index.js';
import type { ChatMessage, ContentPart } from './chat-model.js';
import type { CallTrace } from './structured-call.js';

/** An image part as text: its URL, or a `data:` URL's type and size (the image itself is not kept). */
function partText(part: ContentPart): string {
  if (part.type === 'text') return part.text;
  const { url } = part.image_url;
  if (!url.startsWith('data:')) return `[image: ${url}]`;
  const comma = url.indexOf(',');
  return `[image: ${url.slice(0, comma < 0 ? 40 : comma)}, ${url.length.toLocaleString('en')} characters, not stored]`;
}

function messageOf(message: ChatMessage): JudgeCallMessage {
  const content =
    typeof message.content === 'string' ? message.content : message.content.map(partText).join('\n');
  if (message.role === 'tool') return { role: 'tool', content, tool_call_id: message.toolCallId };
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
      })),
    };
  }
  return { role: message.role, content };
}

/**
 * A call's trace as evidence keeps it (`Evidence.calls`): the stored, snake_case shape, token
 * counts left out where the backend reported none, multimodal parts as text.
 */
export function judgeCallOf(call: CallTrace): JudgeCall {
  return {
    ...(call.role !== undefined && { role: call.role }),
    ...(call.order !== undefined && { order: call.order }),
    ...(call.variant !== undefined && { variant: call.variant }),
    messages: call.messages.map(messageOf),
    raw: call.raw,
    ...(call.parsed !== undefined && { parsed: call.parsed }),
    ...(call.parseError !== undefined && { parse_error: call.parseError }),
    finish_reason: call.finishReason,
    latency_ms: call.latencyMs,
    ...(call.promptTokens !== undefined && { prompt_tokens: call.promptTokens }),
    ...(call.completionTokens !== undefined && { completion_tokens: call.completionTokens }),
    retries: call.retries,
    cached: call.cached,
    // Traces kept before call times were recorded have none.
    ...(Number.isFinite(call.answeredAt) && { answered_at: new Date(call.answeredAt).toISOString() }),
    ...(call.costUsd !== undefined && { cost_usd: call.costUsd }),
    ...(call.warnings?.length && { warnings: call.warnings }),
  };
}

/** Every call of a judgment, mapped by `judgeCallOf`. */
export const judgeCallsOf = (calls: readonly CallTrace[]): JudgeCall[] => calls.map(judgeCallOf);

/** The calls tagged with the pairwise order they judged (a judge running both orders tags each). */
export const tagCallOrder = <C extends CallTrace>(order: 'forward' | 'backward', calls: readonly C[]): C[] =>
  calls.map((call) => ({ ...call, order }));
