import { createHash } from 'node:crypto';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import { jsonSchemaOf } from './json-schema-of.js';
import { type ChatModelMiddleware, withInnerReady } from './wrap-chat-model.js';

/** Where responses are kept; the store implements it. */
export interface ResponseCache {
  /** A response that has not expired at `now` and, with `maxAgeMs`, was stored less than that long ago. */
  getCachedResponse(key: string, now: number, maxAgeMs?: number): Promise<string | undefined>;
  putCachedResponse(key: string, value: string, now: number, expiresAt: number | null): Promise<void>;
}

export interface CacheOptions {
  /**
   * The oldest answer this model accepts, in milliseconds; unset accepts any. Read at lookup, so
   * a run with a shorter TTL asks again for answers an earlier run stored.
   */
  ttlMs?: number;
  now?: () => number;
}

/** The cache key: everything that shapes the answer, normalized; the abort signal is not part of it. */
export function requestKey(model: string, request: ChatRequest): string {
  const normalized = {
    model,
    messages: request.messages,
    temperature: request.temperature ?? null,
    topP: request.topP ?? null,
    maxTokens: request.maxTokens ?? null,
    seed: request.seed ?? null,
    enableThinking: request.enableThinking ?? null,
    variant: request.variant ?? 0,
    schema: request.responseSchema
      ? { name: request.responseSchema.name, schema: jsonSchemaOf(request.responseSchema.schema) }
      : null,
    tools:
      request.tools?.map((t) => ({
        name: t.name,
        description: t.description ?? null,
        parameters: jsonSchemaOf(t.parameters),
      })) ?? null,
    toolChoice: request.toolChoice ?? null,
  };
  return createHash('sha256').update(JSON.stringify(normalized)).digest('hex');
}

/** The response cache as middleware: `wrapChatModel(model, [caching(store, { ttlMs })])`. */
export function caching(cache: ResponseCache, options: CacheOptions = {}): ChatModelMiddleware {
  return (model) => withResponseCache(model, cache, options);
}

/**
 * A model whose answers are cached by normalized request: a repeated request is answered from the
 * cache (`cached: true`), and identical requests in flight at once share one backend call.
 */
export function withResponseCache(
  model: ChatModel,
  cache: ResponseCache,
  options: CacheOptions = {},
): ChatModel {
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<ChatResponse>>();
  return withInnerReady(
    {
      name: model.name,
      async complete(request) {
        const key = requestKey(model.name, request);
        const hit = await cache.getCachedResponse(key, now(), options.ttlMs);
        if (hit !== undefined) return { ...(JSON.parse(hit) as ChatResponse), cached: true, retries: 0 };
        const pending = inFlight.get(key);
        if (pending) return { ...(await pending), cached: true };
        const call = (async () => {
          const response = await model.complete(request);
          await cache.putCachedResponse(key, JSON.stringify(response), now(), null);
          return response;
        })();
        inFlight.set(key, call);
        try {
          return await call;
        } finally {
          inFlight.delete(key);
        }
      },
    },
    model,
  );
}
