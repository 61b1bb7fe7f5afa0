import { createRng } from '../../core/index.js';
import { ChatModelError } from '../chat-model.js';
import type { ChatModelMiddleware } from '../wrap-chat-model.js';

export interface RetryOptions {
  /** Attempts after the first (default 4). */
  maxRetries?: number;
  /** Backoff before retry k is drawn from [b/2, b] with b = min(max, base · 2^k) (defaults 500 ms, 20 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Seeds the jitter, so retries are reproducible (default 0). */
  seed?: number;
  /** The wait, replaceable in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Another try for every failure that says it may pass (`ChatModelError.isRetryable`), with
 * exponential backoff and seeded jitter; a failure that cannot pass (400, 401, …) ends at once.
 * The final error lists every attempt's reason; an answer reports how many tries failed before it.
 */
export function retrying(options: RetryOptions = {}): ChatModelMiddleware {
  const maxRetries = options.maxRetries ?? 4;
  const base = options.backoffBaseMs ?? 500;
  const max = options.backoffMaxMs ?? 20_000;
  const sleep = options.sleep ?? abortableSleep;
  const rng = createRng(options.seed ?? 0);
  return (model) => ({
    name: model.name,
    async complete(request) {
      const attempts: string[] = [];
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await model.complete(request);
          return attempt === 0 ? response : { ...response, retries: response.retries + attempt };
        } catch (error) {
          if (request.signal?.aborted) throw error;
          const failure =
            error instanceof ChatModelError
              ? error
              : new ChatModelError(error instanceof Error ? error.message : String(error), [String(error)]);
          attempts.push(...(failure.attempts.length > 0 ? failure.attempts : [failure.message]));
          if (!failure.isRetryable || attempt >= maxRetries) {
            throw new ChatModelError(
              `model "${model.name}" failed after ${attempt + 1} attempt(s): ${attempts.at(-1)}`,
              attempts,
              {
                isRetryable: failure.isRetryable,
                ...(failure.status !== undefined && { status: failure.status }),
                ...(failure.endpoint !== undefined && { endpoint: failure.endpoint }),
              },
            );
          }
          const backoff = Math.min(max, base * 2 ** attempt);
          await sleep(backoff / 2 + (rng.next() * backoff) / 2, request.signal);
        }
      }
    },
  });
}

/** A wait that ends early when the signal aborts, and leaves no listener on it either way. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
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
}
