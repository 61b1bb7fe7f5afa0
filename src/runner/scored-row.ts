import { failedResult, type RewardResult, type Sample, SampleSchema, sampleText } from '../core/index.js';
import {
  checkRecord,
  type FieldMapping,
  parseRecord,
  type RecordRow,
  type UnparsedRecord,
} from '../dataset/index.js';
import { encodeSqliteResults } from '../store/index.js';
import { summarized } from './run-summary.js';
import type { ScoredRow, ScoreWorkerKeeps } from './score-worker-messages.js';

/** A record's rows as `score` reads them: mapped, checked against the Sample schema and keyed. */
export function sampleRows(
  record: UnparsedRecord,
  mappings: readonly FieldMapping[] | undefined,
): RecordRow<Sample>[] {
  return checkRecord(parseRecord(record), {
    autoId: true,
    schema: SampleSchema,
    idOf: (sample) => sample.id,
    ...(mappings !== undefined && { mappings }),
  });
}

/** A row's result in the forms the main thread keeps (see `ScoreWorkerKeeps`). */
export function scoredRow(row: RecordRow<Sample>, result: RewardResult, keeps: ScoreWorkerKeeps): ScoredRow {
  const text = row.kind === 'ok' && keeps.text ? sampleText(row.value) : undefined;
  return {
    kind: 'scored',
    id: row.id,
    origin: row.origin,
    summary: summarized(result),
    ...(keeps.line && { line: `${JSON.stringify(result)}\n` }),
    ...(keeps.sqliteRow && { sqliteRow: encodeSqliteResults([result], { samples: [text] })[0] }),
    ...(keeps.result && { result }),
    ...(keeps.result && text && { text }),
  };
}

/** The rows of records whose worker stopped, each failed with the reason: no row is lost. */
export function failedChunk(
  records: readonly UnparsedRecord[],
  reason: string,
  options: {
    readonly mappings: readonly FieldMapping[] | undefined;
    readonly done: ReadonlySet<string>;
    readonly keeps: ScoreWorkerKeeps;
  },
): ScoredRow[] {
  return records.flatMap((record) =>
    sampleRows(record, options.mappings).map((row) =>
      options.done.has(row.id)
        ? { kind: 'done', id: row.id }
        : scoredRow(
            row,
            failedResult(row.id, [...(row.kind === 'failed' ? row.errors : []), reason]),
            options.keeps,
          ),
    ),
  );
}
