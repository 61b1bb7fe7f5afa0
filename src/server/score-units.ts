import { setMaxListeners } from 'node:events';
import { errorMessage, failedResult, type RewardResult, type Sample } from '../core/index.js';
import { ApiError } from './api-error.js';
import type { RewardService } from './reward-service.js';

/** Why a request's work was stopped before it finished. */
class RequestStop extends Error {
  constructor(
    readonly kind: 'deadline' | 'disconnect',
    message: string,
  ) {
    super(message);
  }
}

export interface ScoreUnitsRequest {
  /** Samples scored together: one sample, or the rollouts of one group. */
  readonly units: readonly (readonly Sample[])[];
  readonly requestId: string;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  readonly deadlineMs: number;
  /** When the deadline started (`performance.now()`; default now): reading the body spent part of it. */
  readonly startedAt?: number;
}

const metaOf = (sample: Sample) => ({
  ...(sample.data_source !== undefined && { data_source: sample.data_source }),
  ...(sample.group !== undefined && { group: sample.group }),
});

/**
 * Scores a request's units through the shared queue and saves every result under the request id.
 * At the deadline, or when the client disconnects, the request's pending work is aborted (other
 * requests go on), the units that did not finish are recorded as failed with the reason — so the
 * store shows exactly what was done — and the request fails with 504 (or 499 for a client that left).
 */
export async function scoreUnits(
  service: RewardService,
  request: ScoreUnitsRequest,
): Promise<RewardResult[][]> {
  const { units, requestId, deadlineMs } = request;
  const controller = new AbortController();
  // Every running source listens to this signal; a big request has more than the default 10.
  setMaxListeners(0, controller.signal);
  const onDisconnect = () =>
    controller.abort(new RequestStop('disconnect', 'the client closed the connection before the answer'));
  request.signal.addEventListener('abort', onDisconnect, { once: true });
  if (request.signal.aborted) onDisconnect();
  const onDeadline = () =>
    controller.abort(new RequestStop('deadline', `request deadline of ${deadlineMs} ms exceeded`));
  const deadlineAt = (request.startedAt ?? performance.now()) + deadlineMs;
  // Spent before scoring began: nothing starts, every sample is recorded as not scored.
  if (deadlineAt <= performance.now()) onDeadline();
  const timer = setTimeout(onDeadline, Math.max(0, deadlineAt - performance.now()));
  const done: Array<RewardResult[] | undefined> = units.map(() => undefined);
  try {
    const jobs = service.queue.submit(
      units.map((unit, i) => async (signal) => {
        // Jobs that finish without yielding (verifiers) chain through microtasks, where the timer
        // never gets a turn: the clock is read as each job starts, too.
        if (performance.now() >= deadlineAt) {
          onDeadline();
          throw controller.signal.reason;
        }
        const results = await evaluateUnit(service, unit, signal);
        if (!signal.aborted) done[i] = results;
        return results;
      }),
      controller.signal,
    );
    const stopped = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    stopped.catch(() => {});
    try {
      await Promise.race([Promise.all(jobs), stopped]);
    } catch (error) {
      if (!(error instanceof RequestStop)) throw error;
      const unfinished = done.filter((d) => d === undefined).length;
      const filled = units.map(
        (unit, i) =>
          done[i] ??
          unit.map((sample) => failedResult(sample.id, [`not scored: ${error.message}`], metaOf(sample))),
      );
      service.metrics.countFailure(error.kind, unfinished);
      // The request is over: its records are saved, but a store that does not answer holds the
      // answer no longer than a short grace (the save goes on behind it).
      await within(save(service, filled.flat(), requestId, units.flat()), STOPPED_SAVE_GRACE_MS);
      throw stoppedError(
        error,
        `${error.message}: ${units.length - unfinished} of ${units.length} unit(s) finished; the rest were aborted and recorded as failed under request ${requestId}`,
        { finished: units.length - unfinished, total: units.length },
      );
    }
    const results = done as RewardResult[][];
    // The deadline covers the save: a store that hangs cannot hold the request past it.
    const saving = save(service, results.flat(), requestId, units.flat());
    try {
      await Promise.race([saving, stopped]);
    } catch (error) {
      if (!(error instanceof RequestStop)) throw error;
      saving.catch(() => {});
      service.metrics.countFailure(error.kind);
      throw stoppedError(
        error,
        `${error.message} while saving the results: all ${units.length} unit(s) were scored, and whether the store has them is not known (the save goes on); retrying the request is safe, the store keeps one result per sample id`,
        { finished: units.length, total: units.length, saved: 'unknown' },
      );
    }
    return results;
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onDisconnect);
  }
}

/** The answer to a request stopped at its deadline (504) or by its client leaving (499). */
function stoppedError(stop: RequestStop, message: string, details: Record<string, unknown>): ApiError {
  const deadline = stop.kind === 'deadline';
  return new ApiError(
    deadline ? 504 : 499,
    deadline ? 'deadline_exceeded' : 'client_closed_request',
    message,
    {
      details,
    },
  );
}

/** How long a stopped request's answer waits for its records to be saved. */
const STOPPED_SAVE_GRACE_MS = 1000;

/** Waits for `work` at most `ms`; a failure within that time is thrown, a later one ignored. */
async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => {});
  try {
    await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function evaluateUnit(
  service: RewardService,
  unit: readonly Sample[],
  signal: AbortSignal,
): Promise<RewardResult[]> {
  try {
    return await service.evaluator.evaluateGroup(unit, { signal });
  } catch (error) {
    // The evaluator turns source failures into evidence itself; this is a bug, and still loses no sample.
    service.metrics.countFailure('internal', unit.length);
    return unit.map((sample) =>
      failedResult(sample.id, [`internal error while scoring: ${errorMessage(error)}`], metaOf(sample)),
    );
  }
}

/** `samples` are the units' samples, flattened like the results (one per result, same order). */
async function save(
  service: RewardService,
  results: readonly RewardResult[],
  requestId: string,
  samples: readonly Sample[],
) {
  service.metrics.observeResults(results);
  await service.record(results, requestId, samples);
}

/**
 * The units of a request: each sample alone, except that a spec comparing rollouts scores the
 * samples sharing a `group` together (in request order), as `rewardkit score` does.
 */
export function unitsOf(samples: readonly Sample[], needsGroups: boolean): Sample[][] {
  if (!needsGroups) return samples.map((s) => [s]);
  const units: Sample[][] = [];
  const byGroup = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (sample.group === undefined) {
      units.push([sample]);
      continue;
    }
    const unit = byGroup.get(sample.group);
    if (unit) unit.push(sample);
    else {
      const fresh = [sample];
      byGroup.set(sample.group, fresh);
      units.push(fresh);
    }
  }
  return units;
}
