import type { z } from 'zod';
import {
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  type FinishReason,
} from './chat-model.js';
import { type ParseRoute, parseStructured } from './parse-structured.js';
import { callUsageOf } from './usage-of.js';

/** Every call of one judgment, for its trace and its usage accounting. */
export interface CallTrace {
  /** The judge role that made the call (`defineJudgeRole`), where one did. */
  role?: string;
  /** The order of a pairwise comparison the call judged (`forward`: the pair's first response shown first). */
  order?: 'forward' | 'backward';
  /** The request's `variant` (the vote index), where it had one. */
  variant?: number;
  messages: ChatMessage[];
  raw: string;
  finishReason: FinishReason;
  latencyMs: number;
  /** As the backend reported them; undefined where it did not. */
  promptTokens: number | undefined;
  completionTokens: number | undefined;
  retries: number;
  /** Answered from the response cache. */
  cached: boolean;
  /** When the answer came (epoch ms). */
  answeredAt: number;
  /** US dollars (`CallUsage.costUsd`). */
  costUsd?: number | undefined;
  /** What was read from `raw`, where the call's output was parsed. */
  parsed?: unknown;
  parseError?: string;
  /** What the backend could not honour as asked (`ChatResponse.warnings`). */
  warnings?: string[];
}

export type StructuredOutcome<T> =
  | { status: 'ok'; value: T; route: ParseRoute; calls: CallTrace[] }
  /** Recorded, never scored: the reason and the raw output stay with the judgment. */
  | { status: 'invalid'; reason: string; raw: string | null; calls: CallTrace[] };

const trace = (
  request: ChatRequest,
  messages: ChatMessage[],
  r: ChatResponse,
  read: { parsed: unknown } | { parseError: string },
): CallTrace => ({
  ...(request.variant !== undefined && { variant: request.variant }),
  messages,
  raw: r.content,
  finishReason: r.finishReason,
  ...callUsageOf(r),
  ...read,
  ...(r.warnings?.length && { warnings: r.warnings }),
});

/**
 * One structured judgment: ask for JSON matching `schema`, read it (see `parseStructured`), and on
 * failure re-ask up to `reasks` times with the parse error shown to the model. A backend that fails
 * after its retries, or output that never parses, ends as `invalid` with the reason.
 */
export async function callStructured<S extends z.ZodType>(
  model: ChatModel,
  request: ChatRequest & { schemaName: string },
  schema: S,
  options: { reasks?: number } = {},
): Promise<StructuredOutcome<z.infer<S>>> {
  const calls: CallTrace[] = [];
  let messages = request.messages;
  let lastRaw: string | null = null;
  for (let ask = 0; ask <= (options.reasks ?? 2); ask++) {
    let response: ChatResponse;
    try {
      response = await model.complete({
        ...request,
        messages,
        responseSchema: { name: request.schemaName, schema },
      });
    } catch (error) {
      if (!(error instanceof ChatModelError)) throw error;
      return { status: 'invalid', reason: error.message, raw: lastRaw, calls };
    }
    lastRaw = response.content;
    const parsed = parseStructured(response.content, schema);
    if (parsed.ok) {
      calls.push(trace(request, messages, response, { parsed: parsed.value }));
      return { status: 'ok', value: parsed.value, route: parsed.route, calls };
    }
    const why =
      response.finishReason === 'length'
        ? `${parsed.error} (the output was cut at the token limit)`
        : parsed.error;
    calls.push(trace(request, messages, response, { parseError: why }));
    messages = [
      ...messages,
      { role: 'assistant', content: response.content },
      {
        role: 'user',
        content: `Your reply could not be read: ${why}. Reply again with only the JSON object that matches the required schema.`,
      },
    ];
  }
  return {
    status: 'invalid',
    reason: `no valid structured output after ${calls.length} call(s): ${calls.at(-1)?.parseError ?? 'unknown'}`,
    raw: lastRaw,
    calls,
  };
}
