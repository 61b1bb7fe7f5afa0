import type { RoleCall } from '../../judges/index.js';
import type { AnalysisRecord } from './analysis-record.js';
import { type AnalyzeOptions, analyzeTrajectory, trajectoryHash } from './analyze-trajectory.js';
import type { Trajectory } from './trajectory.js';

export interface MapAnalysesOptions extends AnalyzeOptions {
  /** Analyst calls in flight at most (default 8). */
  concurrency?: number;
  /** Records from an earlier run: a trajectory with an `ok` record of the same hash is not analysed again. */
  done?: readonly AnalysisRecord[];
  /** Called as each analysis finishes (in finishing order), to write it before the next one ends. */
  onRecord?: (record: AnalysisRecord) => void | Promise<void>;
}

export interface MapAnalyses {
  /** One record per trajectory, in input order: resumed ones and new ones. */
  readonly records: AnalysisRecord[];
  /** Trajectories whose record came from `done`. */
  readonly resumed: number;
  /** Runs cut to the character limit before the analyst read them. */
  readonly truncatedRuns: number;
  /** The calls this run made. */
  readonly calls: RoleCall[];
}

/**
 * The MAP stage: one analyst per trajectory, at most `concurrency` at a time, each record handed
 * to `onRecord` as soon as it is done, so an interrupted run loses only the analyses in flight.
 */
export async function mapAnalyses(
  trajectories: readonly Trajectory[],
  options: MapAnalysesOptions,
): Promise<MapAnalyses> {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be a whole number ≥ 1, got ${concurrency}`);
  const previous = new Map<string, AnalysisRecord>();
  for (const record of options.done ?? [])
    if (record.status === 'ok') previous.set(`${record.instance}\u0000${record.hash}`, record);
  const records: (AnalysisRecord | undefined)[] = trajectories.map((t) =>
    previous.get(`${t.id}\u0000${trajectoryHash(t)}`),
  );
  const resumed = records.filter((r) => r !== undefined).length;
  const todo = trajectories.map((_, i) => i).filter((i) => records[i] === undefined);
  const calls: RoleCall[] = [];
  let truncatedRuns = 0;
  let next = 0;
  let written = Promise.resolve();
  const worker = async () => {
    while (next < todo.length) {
      const index = todo[next++] as number;
      const got = await analyzeTrajectory(trajectories[index] as Trajectory, options);
      records[index] = got.record;
      calls.push(...got.calls);
      if (got.truncatedRun) truncatedRuns++;
      // Writes are chained so records never interleave, whatever order they finish in.
      const onRecord = options.onRecord;
      if (onRecord) {
        written = written.then(() => onRecord(got.record));
        await written;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  await written;
  return { records: records as AnalysisRecord[], resumed, truncatedRuns, calls };
}
