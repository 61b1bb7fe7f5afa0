import { type JudgeCall, type LlmUsage, RewardKitError } from '../core/index.js';

/**
 * A source that could not produce a score but has a trace worth keeping (a judge whose every call
 * was unreadable): the evaluator records it as invalid evidence *with* its detail, usage and
 * calls, so the calls that were paid for stay inspectable.
 */
export class SourceFailedError extends RewardKitError {
  constructor(
    message: string,
    readonly trace: {
      readonly detail?: unknown;
      readonly usage?: LlmUsage;
      readonly calls?: readonly JudgeCall[];
    } = {},
  ) {
    super('RK_SOURCE_FAILED', message);
  }
}
