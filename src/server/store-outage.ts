import type { RewardKitError } from '../core/index.js';
import { ApiError } from './api-error.js';

/** Seconds a client is asked to wait before retrying while the store is unavailable. */
export const STORE_RETRY_AFTER_S = 2;

/** What `/healthz` and `/readyz` say of the store. */
export type StoreState =
  | { readonly state: 'ok' }
  | {
      readonly state: 'unavailable';
      /** When the outage began (ISO time of its first failure). */
      readonly since: string;
      /** Requests answered 503 during it so far. */
      readonly failed_requests: number;
      readonly error: string;
    };

/**
 * The server's view of its store's outages: while the store cannot be reached every request that
 * needs it gets 503 `store_unavailable` with `Retry-After`, and the log gets one line when an
 * outage begins and one when it ends — not a stack per request (thousands a second under load).
 */
export interface StoreOutage {
  /** The answer to a request whose store work failed with `RK_STORE_UNAVAILABLE`. */
  failed(error: RewardKitError): ApiError;
  /** The store answered: ends an outage, if one was on. */
  answered(): void;
  state(): StoreState;
}

export function createStoreOutage(log: (line: string) => void, now: () => number = Date.now): StoreOutage {
  let outage: { since: number; failed: number; error: string } | undefined;
  return {
    failed(error) {
      if (!outage) {
        outage = { since: now(), failed: 0, error: error.message };
        log(
          `store unavailable: ${error.message}; answering 503 store_unavailable (Retry-After: ${STORE_RETRY_AFTER_S}) until it answers again`,
        );
      }
      outage.failed++;
      return new ApiError(
        503,
        'store_unavailable',
        `the store is unavailable; retry later: ${error.message}`,
        {
          headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
          cause: error,
        },
      );
    },
    answered() {
      if (!outage) return;
      const seconds = ((now() - outage.since) / 1000).toFixed(1);
      log(
        `store available again after ${seconds} s; ${outage.failed} request(s) were answered 503 during the outage`,
      );
      outage = undefined;
    },
    state() {
      return outage
        ? {
            state: 'unavailable',
            since: new Date(outage.since).toISOString(),
            failed_requests: outage.failed,
            error: outage.error,
          }
        : { state: 'ok' };
    },
  };
}
