import { BenchRecordSchema } from '../bench/index.js';
import { readJsonlLines } from '../dataset/index.js';
import { benchRecordResult } from './bench-record-result.js';
import type { StoredRowsRun } from './stored-rows-run.js';

/**
 * Stores the benchmark's output lines its run lacks (a resumed run's earlier sessions, a killed
 * session's last lines), read back with their call traces; resolves with the records the output
 * holds for this dataset, which the report counts too (lines it leaves out are left out here).
 */
export async function storeBenchOutput(
  stored: StoredRowsRun,
  output: string,
  dataset: string,
  judge: string,
): Promise<number> {
  const have = await stored.storedIds();
  let records = 0;
  for await (const line of readJsonlLines(output)) {
    if (line.text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      continue;
    }
    const parsed = BenchRecordSchema.safeParse(value);
    if (!parsed.success || parsed.data.dataset !== dataset) continue;
    records++;
    // The line itself, not the parsed record: the schema leaves out the calls the store keeps.
    if (!have.has(parsed.data.id)) await stored.save(benchRecordResult(value as typeof parsed.data, judge));
  }
  return records;
}
