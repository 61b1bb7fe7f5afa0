import type { ChatModel, ChatResponse } from '../chat-model.js';

/** What a model's tokens cost, in US dollars per million tokens (the models file's `price`). */
export interface TokenPrice {
  readonly input: number;
  readonly output: number;
}

/**
 * The response's cost at `price`, when the backend reported both token counts; otherwise none
 * (a cost from made-up counts would be a made-up cost).
 */
export function costOf(response: ChatResponse, price: TokenPrice): number | undefined {
  const { promptTokens, completionTokens } = response.usage;
  if (promptTokens === undefined || completionTokens === undefined) return undefined;
  return (promptTokens * price.input + completionTokens * price.output) / 1_000_000;
}

/**
 * Each answer carries its cost (`ChatResponse.costUsd`). Put inside the response cache: a cached
 * answer keeps the cost it had, and usage counts a cache hit as free.
 */
export const priced =
  (price: TokenPrice) =>
  (model: ChatModel): ChatModel => ({
    ...model,
    async complete(request) {
      const response = await model.complete(request);
      const cost = costOf(response, price);
      return cost === undefined ? response : { ...response, costUsd: cost };
    },
  });
