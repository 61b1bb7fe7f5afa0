import OpenAI from 'openai';
import { z } from 'zod';
import { createRng } from '../core/index.js';
import { type ChatModel, ChatModelError, type ChatRequest, type ChatResponse } from './chat-model.js';
import { createEndpointLimits } from './endpoint-limits.js';
import { jsonSchemaOf } from './json-schema-of.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { toOpenAIMessages, toOpenAITools } from './openai-chat-body.js';
import { readToolCall } from './read-tool-call.js';

export const EndpointSchema = z.object({
  baseURL: z.string().url(),
  apiKey: z.string().default('none'),
});

export const OpenAICompatibleConfigSchema = z.object({
  /** The name judges and specs refer to. */
  name: z.string().min(1),
  /** The model id sent to the backend. */
  model: z.string().min(1),
  /** Tried in turn; a failing endpoint passes the request to the next. */
  endpoints: z.array(EndpointSchema).min(1),
  timeoutMs: z.number().int().positive().default(120_000),
  /** Attempts after the first, across all endpoints. */
  maxRetries: z.number().int().nonnegative().default(4),
  backoffBaseMs: z.number().nonnegative().default(500),
  backoffMaxMs: z.number().nonnegative().default(20_000),
  /** Seeds the backoff jitter, so retries are reproducible. */
  seed: z.number().int().default(0),
  /** Per-endpoint limits: requests in flight, requests and tokens per minute. */
  maxConcurrency: z.number().int().positive().default(64),
  requestsPerMinute: z.number().int().positive().optional(),
  tokensPerMinute: z.number().int().positive().optional(),
});
export type OpenAICompatibleConfig = z.input<typeof OpenAICompatibleConfigSchema> & {
  /** The HTTP client (default: keep-alive `node:http`; pass `globalThis.fetch` or a test double). */
  fetch?: typeof fetch;
};

/** Statuses worth another try: timeouts, conflicts, rate limits and server errors. */
const RETRYABLE = (status: number | undefined) =>
  status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;

const rejectsThinking = (error: unknown) =>
  error instanceof OpenAI.APIError &&
  error.status === 400 &&
  /chat_template_kwargs|enable_thinking/i.test(String(error.message));

const describe = (error: unknown): string => {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (error instanceof OpenAI.APIError && error.status !== undefined)
    return `HTTP ${error.status}: ${error.message}`;
  if (error instanceof OpenAI.APIConnectionError) return `connection failed: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
};

/**
 * A model behind one or more OpenAI-compatible endpoints (vLLM, SGLang, Ollama, llama.cpp server,
 * DashScope, OpenAI). Retries with exponential backoff and seeded jitter, rotates endpoints on
 * failure, enforces a per-request timeout, and drops `enable_thinking` for an endpoint that
 * rejects it. Errors that retrying cannot fix (400, 401, 403, 404, 422) fail at once.
 */
export function createOpenAICompatibleModel(config: OpenAICompatibleConfig): ChatModel {
  const c = OpenAICompatibleConfigSchema.parse(config);
  const clients = c.endpoints.map((e) => ({
    baseURL: e.baseURL,
    client: new OpenAI({
      baseURL: e.baseURL,
      apiKey: e.apiKey,
      maxRetries: 0,
      timeout: c.timeoutMs,
      fetch: config.fetch ?? nodeHttpFetch,
    }),
    thinkingRejected: false,
    limits: createEndpointLimits({
      maxConcurrency: c.maxConcurrency,
      ...(c.requestsPerMinute !== undefined && { requestsPerMinute: c.requestsPerMinute }),
      ...(c.tokensPerMinute !== undefined && { tokensPerMinute: c.tokensPerMinute }),
    }),
  }));
  const rng = createRng(c.seed);
  let next = 0;
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      // The listener goes when the wait ends: a long-lived signal must not collect one per retry.
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  return {
    name: c.name,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const attempts: string[] = [];
      for (let attempt = 0; attempt <= c.maxRetries; attempt++) {
        const endpoint = clients[(next + attempt) % clients.length] as (typeof clients)[number];
        const release = await endpoint.limits.acquire(request.signal);
        let tokensUsed = 0;
        let backoffMs: number | null = null;
        const started = performance.now();
        try {
          const body: Record<string, unknown> = {
            model: c.model,
            messages: toOpenAIMessages(request.messages),
            ...toOpenAITools(request.tools, request.toolChoice),
            ...(request.temperature !== undefined && { temperature: request.temperature }),
            ...(request.topP !== undefined && { top_p: request.topP }),
            ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
            ...(request.seed !== undefined && { seed: request.seed }),
            ...(request.responseSchema && {
              response_format: {
                type: 'json_schema',
                json_schema: {
                  name: request.responseSchema.name,
                  schema: jsonSchemaOf(request.responseSchema.schema),
                },
              },
            }),
            ...(request.enableThinking !== undefined &&
              !endpoint.thinkingRejected && {
                chat_template_kwargs: { enable_thinking: request.enableThinking },
              }),
          };
          const completion = await withCallSignal(request.signal, (signal) =>
            endpoint.client.chat.completions.create(
              body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
              { ...(signal && { signal }) },
            ),
          );
          const choice = completion.choices[0];
          if (!choice) throw new Error('the response has no choices');
          next = (next + attempt) % clients.length;
          tokensUsed = (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0);
          const toolCalls = (choice.message.tool_calls ?? []).map((call) =>
            call.type === 'function'
              ? readToolCall(
                  { id: call.id, name: call.function.name, arguments: call.function.arguments },
                  request.tools ?? [],
                )
              : {
                  id: call.id,
                  name: call.type,
                  arguments: null,
                  argumentsError: `unsupported tool call type "${call.type}"`,
                },
          );
          return {
            content: choice.message.content ?? '',
            ...(toolCalls.length > 0 && { toolCalls }),
            finishReason: choice.finish_reason ?? 'unknown',
            usage: {
              promptTokens: completion.usage?.prompt_tokens ?? 0,
              completionTokens: completion.usage?.completion_tokens ?? 0,
            },
            model: c.name,
            endpoint: endpoint.baseURL,
            latencyMs: performance.now() - started,
            retries: attempt,
          };
        } catch (error) {
          if (request.signal?.aborted) throw error;
          attempts.push(`${endpoint.baseURL}: ${describe(error)}`);
          if (rejectsThinking(error) && !endpoint.thinkingRejected) {
            // This backend has no thinking switch; ask again without it, and do not count the try.
            endpoint.thinkingRejected = true;
            attempt--;
            continue;
          }
          const status = error instanceof OpenAI.APIError ? error.status : undefined;
          if (!RETRYABLE(status) || attempt === c.maxRetries) break;
          const backoff = Math.min(c.backoffMaxMs, c.backoffBaseMs * 2 ** attempt);
          backoffMs = backoff / 2 + (rng.next() * backoff) / 2;
        } finally {
          release(tokensUsed);
        }
        // Outside the slot: a request waiting out its backoff does not hold the endpoint.
        if (backoffMs !== null) await sleep(backoffMs, request.signal);
      }
      throw new ChatModelError(
        `model "${c.name}" failed after ${attempts.length} attempt(s): ${attempts.at(-1) ?? 'no attempt'}`,
        attempts,
      );
    },
  };
}

/**
 * Runs one SDK call under a signal of its own, linked to the caller's for the call's duration: the
 * SDK leaves its abort listener on whatever signal it is given, so a long-lived caller signal
 * (a server request, a whole run) would collect one per call.
 */
async function withCallSignal<T>(
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return call(undefined);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
