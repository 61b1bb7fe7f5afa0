import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { errorMessage } from '../../core/index.js';
import { parseRow, readJsonlLines } from '../../dataset/index.js';
import { authorRubric, type RubricAuthoringOptions, type RubricRecord } from '../../judges/index.js';
import { AuthoringQuerySchema } from '../../judges/rubric-authoring/index.js';
import { createOrderedPool, readResumeState } from '../../runner/index.js';

export interface GenerateCounts {
  written: number;
  needsReview: number;
  failed: number;
  skipped: number;
  /** Records withheld (`withhold`): not written, so a rerun authors them. */
  unwritten: number;
}

/**
 * `rubrics generate` over a file: one record per query id, in input order, with bounded
 * concurrency. Ids already in the output are skipped (resume); a malformed or duplicate row and a
 * query whose pipeline failed are written as `failed` records with the reason, never dropped.
 */
export async function generateRubricsFile(options: {
  input: string;
  output: string;
  resume: boolean;
  concurrency: number;
  authoring: RubricAuthoringOptions;
  onWarning: (message: string) => void;
  /** Stops reading queries; those in flight finish. */
  signal?: AbortSignal;
  /** Records not to write: queries the run did not really work on (the backend went down). */
  withhold?: (record: RubricRecord) => boolean;
}): Promise<GenerateCounts> {
  const counts: GenerateCounts = { written: 0, needsReview: 0, failed: 0, skipped: 0, unwritten: 0 };
  const done = new Set<string>();
  if (options.resume) {
    const state = await readResumeState(options.output);
    for (const id of state.done) done.add(id);
    state.warnings.forEach(options.onWarning);
  }
  const sink = createWriteStream(options.output, { flags: options.resume ? 'a' : 'w' });
  const write = async (record: RubricRecord) => {
    if (options.withhold?.(record)) {
      counts.unwritten++;
      return;
    }
    counts.written++;
    if (record.status === 'failed') counts.failed++;
    else if (record.authoring.needs_review) counts.needsReview++;
    if (!sink.write(`${JSON.stringify(record)}\n`)) await once(sink, 'drain');
  };
  const pool = createOrderedPool<RubricRecord>(options.concurrency, write);
  const failed = (id: string, error: string): RubricRecord => ({ id, status: 'failed', error });
  const seen = new Map<string, number>();
  for await (const line of readJsonlLines(options.input)) {
    if (options.signal?.aborted) break;
    const where = `${options.input}:${line.line}`;
    if (line.text === undefined) {
      await pool.submit(async () => failed(`line:${line.line}`, `${where}: ${line.error}`));
      continue;
    }
    const row = parseRow(line.text, { file: options.input, line: line.line }, AuthoringQuerySchema);
    const id = row.ok ? row.value.id : row.id;
    if (done.has(id)) {
      counts.skipped++;
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      await pool.submit(async () =>
        failed(
          `line:${line.line}`,
          `${where}: field "id": duplicate id "${id}" (first seen on line ${first})`,
        ),
      );
      continue;
    }
    seen.set(id, line.line);
    if (!row.ok) {
      await pool.submit(async () => failed(row.id, row.errors.join('; ')));
      continue;
    }
    const query = row.value;
    await pool.submit(async () => {
      try {
        return await authorRubric(query, options.authoring);
      } catch (error) {
        // The pipeline records its own failures; this catches a bug and still loses no query.
        return failed(query.id, `${where}: internal error: ${errorMessage(error)}`);
      }
    });
  }
  await pool.drain();
  sink.end();
  await once(sink, 'finish');
  return counts;
}
