import { parseRow, readJsonlLines } from '../../dataset/index.js';
import { type Trajectory, TrajectorySchema } from './trajectory.js';

/** A line of a trajectories file that was not read, with where and why. */
export interface RejectedTrajectoryRow {
  readonly line: number;
  /** `file:line: field "x": message` for each problem. */
  readonly errors: readonly string[];
}

export interface ReadTrajectories {
  readonly trajectories: Trajectory[];
  /** Malformed rows, duplicate ids and undecodable lines: skipped, never silently. */
  readonly rejected: RejectedTrajectoryRow[];
}

/**
 * A trajectories JSONL file (one `Trajectory` per line). Every malformed row is reported with
 * file, line and field and skipped; a second row with an id already read is rejected too.
 */
export async function readTrajectories(file: string): Promise<ReadTrajectories> {
  const trajectories: Trajectory[] = [];
  const rejected: RejectedTrajectoryRow[] = [];
  const seen = new Map<string, number>();
  for await (const line of readJsonlLines(file)) {
    if (line.text === undefined) {
      rejected.push({ line: line.line, errors: [`${file}:${line.line}: ${line.error}`] });
      continue;
    }
    const row = parseRow(line.text, { file, line: line.line }, TrajectorySchema);
    if (!row.ok) {
      rejected.push({ line: line.line, errors: row.errors });
      continue;
    }
    const first = seen.get(row.value.id);
    if (first !== undefined) {
      rejected.push({
        line: line.line,
        errors: [
          `${file}:${line.line}: field "id": duplicate id "${row.value.id}" (first seen on line ${first})`,
        ],
      });
      continue;
    }
    seen.set(row.value.id, line.line);
    trajectories.push(row.value);
  }
  return { trajectories, rejected };
}
