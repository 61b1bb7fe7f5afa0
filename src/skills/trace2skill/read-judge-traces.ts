import { z } from 'zod';
import { RewardResultSchema } from '../../core/index.js';
import { parseRow, readJsonlLines } from '../../dataset/index.js';
import type { RejectedTrajectoryRow } from './read-trajectories.js';
import type { Trajectory } from './trajectory.js';

/** A label row: the verdict the judge should have given the sample of that id. */
export const JudgeLabelSchema = z.object({
  id: z.string().min(1),
  verdict: z.enum(['pass', 'fail']),
});

export interface ReadJudgeTraces {
  readonly trajectories: Trajectory[];
  readonly rejected: RejectedTrajectoryRow[];
  /** Results with no label, or no judged evidence (an `error` or `abstain` verdict): not runs to learn from. */
  readonly unlabelled: number;
}

/**
 * rewardkit's own judge traces as trajectories: the results JSONL of `rewardkit score` or
 * `judge <kind>` (one `RewardResult` per line) joined by id with a labels JSONL
 * (`{id, verdict: "pass" | "fail"}`). The run is the judgment — the evidence of `source` (default:
 * the first evidence with a pass or fail verdict), its detail and reason; it passed when the
 * verdict equals the label, so a wrong verdict is a failed run. The label is never written into
 * the run the analyst reads.
 */
export async function readJudgeTraces(options: {
  results: string;
  labels: string;
  source?: string;
}): Promise<ReadJudgeTraces> {
  const rejected: RejectedTrajectoryRow[] = [];
  const labels = new Map<string, 'pass' | 'fail'>();
  for await (const line of readJsonlLines(options.labels)) {
    if (line.text === undefined) {
      rejected.push({ line: line.line, errors: [`${options.labels}:${line.line}: ${line.error}`] });
      continue;
    }
    const row = parseRow(line.text, { file: options.labels, line: line.line }, JudgeLabelSchema);
    if (row.ok) labels.set(row.value.id, row.value.verdict);
    else rejected.push({ line: line.line, errors: row.errors });
  }
  const trajectories: Trajectory[] = [];
  let unlabelled = 0;
  for await (const line of readJsonlLines(options.results)) {
    if (line.text === undefined) {
      rejected.push({ line: line.line, errors: [`${options.results}:${line.line}: ${line.error}`] });
      continue;
    }
    const row = parseRow(line.text, { file: options.results, line: line.line }, RewardResultSchema);
    if (!row.ok) {
      rejected.push({ line: line.line, errors: row.errors });
      continue;
    }
    const result = row.value;
    const evidence = result.evidence.find(
      (e) =>
        (options.source === undefined || e.source === options.source) &&
        (e.verdict === 'pass' || e.verdict === 'fail'),
    );
    const label = labels.get(result.id);
    if (evidence === undefined || label === undefined) {
      unlabelled++;
      continue;
    }
    trajectories.push({
      id: result.id,
      task: `Judge sample ${result.id}${result.data_source ? ` (${result.data_source})` : ''} with the ${evidence.kind} judge "${evidence.source}".`,
      transcript: JSON.stringify(
        {
          verdict: evidence.verdict,
          score: evidence.score,
          reason: evidence.reason,
          detail: evidence.detail,
        },
        null,
        2,
      ),
      outcome: {
        pass: evidence.verdict === label,
        feedback: evidence.verdict === label ? 'the verdict was right' : 'the verdict was wrong',
      },
    });
  }
  return { trajectories, rejected, unlabelled };
}
