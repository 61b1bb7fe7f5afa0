import { type RewardResult, RewardResultSchema } from '../core/index.js';
import { type BatchReward, type RolloutToScore, rolloutSample, type Scored } from './rlvr-rewards.js';

/**
 * A spec's rewards from a running `rewardkit serve` (`POST /v1/rewards`, the batch route verl's
 * shim calls): one request per batch. A server that answers an error (5xx, 429) or cannot be
 * reached fails every rollout of the batch with the reason, so the trainer leaves them out of the
 * update; nothing is ever turned into a reward of 0.
 */
export function httpBatchReward(
  url: string,
  close: () => Promise<void>,
  fetchFn: typeof fetch = fetch,
): BatchReward {
  return {
    async scoreBatch(items) {
      const samples = items.map((x) => rolloutSample(x.task, x.response, x.id));
      let response: Response;
      try {
        response = await fetchFn(`${url}/v1/rewards`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ samples }),
        });
      } catch (error) {
        return failAll(items, `http: ${url} unreachable (${causeOf(error)})`);
      }
      const text = await response.text().catch((error: unknown) => `(body unreadable: ${causeOf(error)})`);
      if (!response.ok) return failAll(items, `http: ${response.status} ${errorMessageOf(text)}`);
      let results: RewardResult[];
      try {
        results = (JSON.parse(text) as { results: unknown[] }).results.map((r) =>
          RewardResultSchema.parse(r),
        );
      } catch (error) {
        return failAll(items, `http: unreadable answer (${causeOf(error)})`);
      }
      const byId = new Map(results.map((r) => [r.id, r]));
      return items.map((x): Scored => {
        const r = byId.get(x.id);
        if (r === undefined) return { failed: `http: no result for ${x.id}` };
        if (r.status !== 'ok' || r.reward === null)
          return { failed: r.errors.join('; ') || `status ${r.status}` };
        return { reward: r.reward };
      });
    },
    close,
  };
}

const failAll = (items: readonly RolloutToScore[], why: string): Scored[] =>
  items.map(() => ({ failed: why }));

// fetch hides the socket's error (ECONNREFUSED, ECONNRESET) in `cause`.
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

function errorMessageOf(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: string } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not the server's JSON error: the body's start says what answered.
  }
  return body.slice(0, 200);
}
