import type { z } from 'zod';
import { RewardKitError } from '../core/index.js';

/** A part of a multimodal message. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A tool the model may call; `parameters` is sent as its JSON Schema. */
export interface ChatTool {
  name: string;
  description?: string;
  parameters: z.ZodType;
}

/** `auto`: the model decides; `none`: no calls; `required`: at least one call; `{ name }`: that tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** A tool call the model made. */
export interface ToolCall {
  /** The backend's id, or one made up where the backend has none; tool results refer to it. */
  id: string;
  name: string;
  /** The parsed JSON arguments; the raw text when they are not JSON (see `argumentsError`). */
  arguments: unknown;
  /** Why the arguments are unusable: not JSON, not matching the tool's schema, or an unknown tool. */
  argumentsError?: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string | ContentPart[] }
  /** An assistant turn; `toolCalls` when it called tools (answered by the `tool` messages after it). */
  | { role: 'assistant'; content: string | ContentPart[]; toolCalls?: ToolCall[] }
  /** The result of the tool call `toolCallId`. */
  | { role: 'tool'; toolCallId: string; content: string };

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Ask for JSON matching this schema (`response_format: json_schema` where the backend has it). */
  responseSchema?: { name: string; schema: z.ZodType };
  /** Sent as `chat_template_kwargs.enable_thinking`; dropped automatically where a backend rejects it. */
  enableThinking?: boolean;
  /** Tools the model may call; their calls come back in `ChatResponse.toolCalls`. */
  tools?: ChatTool[];
  /** Default `auto`. */
  toolChoice?: ToolChoice;
  /** Which sample of the same request this is (votes): part of the cache key, never sent. */
  variant?: number;
  signal?: AbortSignal;
}

/** Token counts as the backend reported them; `undefined` where it reported none (never a made-up 0). */
export interface ChatUsage {
  promptTokens: number | undefined;
  completionTokens: number | undefined;
}

/**
 * Why generation stopped: `stop` (the model ended), `length` (cut by the token limit), `tool_calls`,
 * `content_filter`, or `other` (see `rawFinishReason`).
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  content_filter: 'content_filter',
};

/** A backend's finish reason as one of the closed set, with the raw value kept for anything else. */
export function finishReasonOf(raw: string | null | undefined): {
  finishReason: FinishReason;
  rawFinishReason?: string;
} {
  const known = raw == null ? undefined : FINISH_REASONS[raw];
  if (known !== undefined && known === raw) return { finishReason: known };
  return { finishReason: known ?? 'other', rawFinishReason: raw ?? 'none' };
}

export interface ChatResponse {
  content: string;
  /** `length` means the output was cut by the token limit. */
  finishReason: FinishReason;
  /** The backend's own word for it, when it is not one of `FinishReason`'s. */
  rawFinishReason?: string;
  usage: ChatUsage;
  /** The model that answered, as configured (never a substitute). */
  model: string;
  /** Which endpoint answered. */
  endpoint: string;
  latencyMs: number;
  /** Failed attempts before this answer. */
  retries: number;
  /** Served from the response cache. */
  cached?: boolean;
  /** What the call cost in US dollars, where the models file gives the model a `price`. */
  costUsd?: number;
  /** The tools the model called, in order. */
  toolCalls?: ToolCall[];
  /** Settings this backend could not honour as asked (never dropped silently). */
  warnings?: string[];
}

/** One configured model. A judge uses exactly the model it is given: there is no fallback model. */
export interface ChatModel {
  readonly name: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
  /**
   * Checks, before the first request, what would fail every request alike: the backend's package
   * loads and its model file exists. Commands call it before any row, so a missing part stops the
   * run with one message instead of failing each row. Backends with nothing to check leave it out.
   */
  ready?(): Promise<void>;
}

/**
 * A backend call that failed (`RK_BACKEND_FAILED`): after one attempt (from a backend, `attempts`
 * has its one reason) or after the retries (every attempt's reason). `isRetryable` says whether
 * another try could help (timeouts, rate limits, server errors) or not (a bad request, a wrong key).
 */
export class ChatModelError extends RewardKitError {
  /** The HTTP status, where there was one. */
  readonly status: number | undefined;
  /** The endpoint of the last attempt (its base URL, password masked), where there was one. */
  readonly endpoint: string | undefined;

  constructor(
    message: string,
    readonly attempts: readonly string[],
    options: { isRetryable?: boolean; status?: number; endpoint?: string; cause?: unknown } = {},
  ) {
    super('RK_BACKEND_FAILED', message, {
      isRetryable: options.isRetryable ?? false,
      ...(options.cause !== undefined && { cause: options.cause }),
    });
    this.name = 'ChatModelError';
    this.status = options.status;
    this.endpoint = options.endpoint;
  }
}
