import type OpenAI from 'openai';
import { z } from 'zod';
import { parseArgument } from '../core/index.js';
import {
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  finishReasonOf,
} from './chat-model.js';
import { createEndpointLimits } from './endpoint-limits.js';
import { jsonSchemaOf } from './json-schema-of.js';
import { maskedUrl } from './masked-url.js';
import { droppingRejectedThinking } from './middleware/dropping-rejected-thinking.js';
import { endpointLimited } from './middleware/endpoint-limited.js';
import { retrying } from './middleware/retrying.js';
import { rotatingEndpoints } from './middleware/rotating-endpoints.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { toOpenAIMessages, toOpenAITools } from './openai-chat-body.js';
import { readToolCall } from './read-tool-call.js';
import { wrapChatModel } from './wrap-chat-model.js';

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

type Sdk = typeof OpenAI;

// The SDK is about 115 modules, a third of what a command loads: it is imported on the first call,
// so `score`, `serve` and the workers with verifier-only specs never load it.
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> => {
  sdk ??= import('openai').then((module) => module.default);
  return sdk;
};

const describe = (Sdk: Sdk, error: unknown): string => {
  if (error instanceof Sdk.APIConnectionTimeoutError) return 'timed out';
  if (error instanceof Sdk.APIError && error.status !== undefined)
    return `HTTP ${error.status}: ${error.message}`;
  if (error instanceof Sdk.APIConnectionError) return `connection failed: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
};

export interface OpenAIEndpointOptions {
  /** The name judges and specs refer to, reported as `ChatResponse.model`. */
  name: string;
  /** The model id sent to the backend. */
  model: string;
  baseURL: string;
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * One OpenAI-compatible endpoint, one request per call and nothing else: a failure is a
 * `ChatModelError` that says whether retrying could help. Retries, rotation, limits and the
 * thinking switch are middleware (`createOpenAICompatibleModel` puts them together).
 */
export function openAIEndpoint(options: OpenAIEndpointOptions): ChatModel {
  // Errors name the endpoint, and they are printed and stored: never with its password.
  const endpoint = maskedUrl(options.baseURL);
  let client: Promise<{ Sdk: Sdk; client: OpenAI }> | undefined;
  const clientOf = () => {
    client ??= loadSdk().then((Sdk) => ({
      Sdk,
      client: new Sdk({
        baseURL: options.baseURL,
        apiKey: options.apiKey ?? 'none',
        maxRetries: 0,
        timeout: options.timeoutMs,
        fetch: options.fetch ?? nodeHttpFetch,
      }),
    }));
    return client;
  };
  return {
    name: options.name,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      // Loading the SDK (the first call only) is not the endpoint's latency.
      const { Sdk, client } = await clientOf();
      const started = performance.now();
      const body: Record<string, unknown> = {
        model: options.model,
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
        ...(request.enableThinking !== undefined && {
          chat_template_kwargs: { enable_thinking: request.enableThinking },
        }),
      };
      let completion: OpenAI.ChatCompletion;
      try {
        completion = await withCallSignal(request.signal, (signal) =>
          client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {
            ...(signal && { signal }),
          }),
        );
      } catch (error) {
        if (request.signal?.aborted) throw error;
        const status = error instanceof Sdk.APIError ? error.status : undefined;
        const reason = `${endpoint}: ${describe(Sdk, error)}`;
        throw new ChatModelError(reason, [reason], {
          isRetryable: RETRYABLE(status),
          ...(status !== undefined && { status }),
          endpoint,
          cause: error,
        });
      }
      const choice = completion.choices[0];
      if (!choice) {
        const reason = `${endpoint}: the response has no choices`;
        throw new ChatModelError(reason, [reason], { isRetryable: true, endpoint });
      }
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
        ...finishReasonOf(choice.finish_reason),
        usage: {
          promptTokens: completion.usage?.prompt_tokens,
          completionTokens: completion.usage?.completion_tokens,
        },
        model: options.name,
        endpoint: options.baseURL,
        latencyMs: performance.now() - started,
        retries: 0,
      };
    },
  };
}

/**
 * A model behind one or more OpenAI-compatible endpoints (vLLM, SGLang, Ollama, llama.cpp server,
 * DashScope, OpenAI): each endpoint is `openAIEndpoint` under its limits and the thinking-switch
 * fallback; calls rotate to the next endpoint on failure and are retried with exponential backoff
 * and seeded jitter. Errors that retrying cannot fix (400, 401, 403, 404, 422) fail at once.
 */
export function createOpenAICompatibleModel(config: OpenAICompatibleConfig): ChatModel {
  const c = parseArgument(OpenAICompatibleConfigSchema, config, 'OpenAI-compatible model config');
  const endpoints = c.endpoints.map((e) =>
    wrapChatModel(
      openAIEndpoint({
        name: c.name,
        model: c.model,
        baseURL: e.baseURL,
        apiKey: e.apiKey,
        timeoutMs: c.timeoutMs,
        ...(config.fetch && { fetch: config.fetch }),
      }),
      [
        droppingRejectedThinking(),
        endpointLimited(
          createEndpointLimits({
            maxConcurrency: c.maxConcurrency,
            ...(c.requestsPerMinute !== undefined && { requestsPerMinute: c.requestsPerMinute }),
            ...(c.tokensPerMinute !== undefined && { tokensPerMinute: c.tokensPerMinute }),
          }),
        ),
      ],
    ),
  );
  return wrapChatModel(rotatingEndpoints(c.name, endpoints), [
    retrying({
      maxRetries: c.maxRetries,
      backoffBaseMs: c.backoffBaseMs,
      backoffMaxMs: c.backoffMaxMs,
      seed: c.seed,
    }),
  ]);
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
