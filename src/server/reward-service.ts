import type { RewardResult, Sample } from '../core/index.js';
import type { Evaluator } from '../spec/index.js';
import type { BodyLimits } from './read-request-body.js';
import type { ServerMetrics } from './server-metrics.js';
import type { WorkQueue } from './work-queue.js';

/** What the routes share: the evaluator, the work queue, the metrics and where results are kept. */
export interface RewardService {
  readonly evaluator: Evaluator;
  readonly queue: WorkQueue;
  readonly metrics: ServerMetrics;
  /** Saves results under the request that produced them (the server's one store run). */
  /** Keeps the results of one request; `samples` are what they judged, position for position. */
  readonly record: (
    results: readonly RewardResult[],
    requestId: string,
    samples: readonly Sample[],
  ) => Promise<void>;
  /** Longest a request may take, in ms; a client may ask for less, never more. */
  readonly deadlineMs: number;
  /** How large a request body may be and how long it may take to arrive. */
  readonly body: BodyLimits;
}
