import { type ChatModel, ChatModelError } from '../../llm/index.js';

/** A model whose failed calls are noted, and what was noted. */
export interface TransportWatch {
  readonly model: ChatModel;
  /** Calls that ended without an answer (after their retries), in order. */
  readonly failures: readonly ChatModelError[];
}

/**
 * Wraps a model for one judgment so the judgment can tell a call that never got an answer (a
 * `ChatModelError`: no connection, 5xx, an open circuit breaker) from an answer it could not read:
 * roles report both as `invalid`, but only the first is a transport failure.
 */
export function watchTransport(model: ChatModel): TransportWatch {
  const failures: ChatModelError[] = [];
  return {
    failures,
    model: {
      name: model.name,
      // Called on the model itself: a backend's ready() may use `this`.
      ...(model.ready !== undefined && { ready: () => (model as Required<ChatModel>).ready() }),
      async complete(request) {
        try {
          return await model.complete(request);
        } catch (error) {
          if (error instanceof ChatModelError) failures.push(error);
          throw error;
        }
      },
    },
  };
}
