import { BackendDownError } from '../backend-down-error.js';
import { ChatModelError } from '../chat-model.js';
import { type ChatModelMiddleware, withInnerReady } from '../wrap-chat-model.js';

/**
 * One breaker shared by every model of a run. `middleware` wraps each model (outside its retries);
 * `signal` aborts, with the `BackendDownError` as its reason, when the breaker opens.
 */
export interface CircuitBreaker {
  readonly middleware: ChatModelMiddleware;
  readonly signal: AbortSignal;
  /** Why the breaker opened; undefined while it is closed. */
  readonly opened: BackendDownError | undefined;
}

/**
 * Opens after `maxConsecutiveFailures` calls in a row, across all the models it wraps, end in a
 * transport failure: a `ChatModelError` that retrying could have fixed (`isRetryable`: no answer
 * at all — connection refused, DNS, a reset, a timeout — or HTTP 408, 409, 429, 5xx), counted
 * once per call after its retries. Any answer closes the streak, however unreadable (parsing is the
 * judge's business), and so does a failure the backend answered for (400, 401, 404, 422: the
 * endpoint is up). An aborted call counts for nothing. Once open, every call fails at once with
 * the `BackendDownError`, which names the endpoint and the last error.
 */
export function createCircuitBreaker(options: { maxConsecutiveFailures: number }): CircuitBreaker {
  const limit = options.maxConsecutiveFailures;
  const controller = new AbortController();
  let streak = 0;
  let opened: BackendDownError | undefined;
  const guarded: ChatModelMiddleware = (model) => ({
    name: model.name,
    async complete(request) {
      if (opened) throw opened;
      try {
        const response = await model.complete(request);
        streak = 0;
        return response;
      } catch (error) {
        if (request.signal?.aborted || opened || !(error instanceof ChatModelError)) throw error;
        if (!error.isRetryable) {
          streak = 0;
          throw error;
        }
        streak++;
        if (streak < limit) throw error;
        opened = new BackendDownError(model.name, error.endpoint, streak, lastReason(error));
        controller.abort(opened);
        throw opened;
      }
    },
  });
  const middleware: ChatModelMiddleware = (model) => withInnerReady(guarded(model), model);
  return {
    middleware,
    signal: controller.signal,
    get opened() {
      return opened;
    },
  };
}

/** The last attempt's reason, without the endpoint the backend put in front of it. */
function lastReason(error: ChatModelError): string {
  const reason = error.attempts.at(-1) ?? error.message;
  const prefix = error.endpoint === undefined ? '' : `${error.endpoint}: `;
  return prefix !== '' && reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
}
