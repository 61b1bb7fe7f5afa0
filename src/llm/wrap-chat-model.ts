import type { ChatModel } from './chat-model.js';

/**
 * A layer around a model's one call: retries, endpoint limits, the response cache, logging. It
 * takes the model it wraps and returns one with the same name and contract.
 */
export type ChatModelMiddleware = (model: ChatModel) => ChatModel;

/**
 * `model` wrapped in `middleware`, the first listed outermost: `wrapChatModel(m, [logging(log),
 * retrying()])` logs each call once, around all of its retries.
 */
export function wrapChatModel(model: ChatModel, middleware: readonly ChatModelMiddleware[]): ChatModel {
  return middleware.reduceRight((inner, wrap) => withInnerReady(wrap(inner), inner), model);
}

/**
 * `layer` with `inner`'s `ready` check when the layer has none of its own: a layer changes how
 * calls are made, not whether the backend can answer at all, so wrapping a local model in
 * retries or a cache must not hide its missing package from the commands that check first.
 */
export function withInnerReady(layer: ChatModel, inner: ChatModel): ChatModel {
  const { ready } = inner;
  if (layer.ready || !ready) return layer;
  return { ...layer, ready: () => ready.call(inner) };
}
