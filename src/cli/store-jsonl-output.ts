import type { RewardResult } from '../core/index.js';
import { readJsonlLines } from '../dataset/index.js';
import type { MappedRow } from './map-jsonl-rows.js';
import type { StoredRowsRun } from './stored-rows-run.js';

/** An output line as a row command writes it: its id and the rest. */
export type OutputLine = MappedRow & { id: string };

/**
 * Reads a row command's whole output file: stores the lines its run lacks (a resumed run's earlier
 * sessions, a killed session's last lines) with `resultOf`, hands every line to `each` (for the
 * run's summary) and resolves with how many lines carry an id, which the store must then hold.
 */
export async function storeJsonlOutput(
  stored: StoredRowsRun,
  output: string,
  resultOf: (line: OutputLine) => RewardResult,
  each: (line: OutputLine) => void,
): Promise<number> {
  const have = await stored.storedIds();
  let lines = 0;
  for await (const read of readJsonlLines(output)) {
    if (read.text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const line = value as OutputLine;
    if (typeof line.id !== 'string') continue;
    lines++;
    each(line);
    if (!have.has(line.id)) await stored.save(resultOf(line));
  }
  return lines;
}
