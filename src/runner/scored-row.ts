import { failedResult, type RewardResult, type Sample, SampleRowSchema, sampleText } from '../core/index.js';
import {
  checkRecord,
  type FieldMapping,
  parseRecord,
  type RecordRow,
  type UnparsedRecord,
} from '../dataset/index.js';
import type { SampleText } from '../store/index.js';
import { encodeSqliteResults, type SqliteResultRow } from '../store/sqlite-result-rows.js';
import { summarized } from './run-summary.js';
import type { ScoredRows, ScoreWorkerKeeps } from './score-worker-messages.js';

/** A record's rows as `score` reads them: mapped, checked against the Sample schema and keyed. */
export function sampleRows(
  record: UnparsedRecord,
  mappings: readonly FieldMapping[] | undefined,
): RecordRow<Sample>[] {
  return checkRecord(parseRecord(record), {
    autoId: true,
    schema: SampleRowSchema,
    idOf: (sample) => sample.id,
    ...(mappings !== undefined && { mappings }),
  });
}

/** The text a row's result judged, where the store keeps it and the row could be read. */
export function keptText(row: RecordRow<Sample>, keeps: ScoreWorkerKeeps): SampleText | undefined {
  return row.kind === 'ok' && keeps.text ? sampleText(row.value) : undefined;
}

/** A chunk's `ScoredRows`, added row by row in input order, in the forms `keeps` asks for. */
export function scoredRowsBuilder(keeps: ScoreWorkerKeeps) {
  const ids: string[] = [];
  const recordOf: number[] = [];
  const summaryOf: number[] = [];
  const summaries: string[] = [];
  const kinds = new Map<string, number>();
  let lines = '';
  const lineEnds: number[] = [];
  const sqliteRows: SqliteResultRow[] = [];
  const results: RewardResult[] = [];
  const texts: (SampleText | undefined)[] = [];
  return {
    /** A row whose id is already in the output (resume). */
    done(id: string, record: number): void {
      ids.push(id);
      recordOf.push(record);
      summaryOf.push(-1);
    },
    scored(result: RewardResult, text: SampleText | undefined, record: number): void {
      ids.push(result.id);
      recordOf.push(record);
      const { id: _, ...kind } = summarized(result);
      const json = JSON.stringify(kind);
      let index = kinds.get(json);
      if (index === undefined) {
        index = summaries.push(json) - 1;
        kinds.set(json, index);
      }
      summaryOf.push(index);
      if (keeps.line) {
        lines += `${JSON.stringify(result)}\n`;
        lineEnds.push(lines.length);
      }
      if (keeps.sqliteRow)
        sqliteRows.push((encodeSqliteResults([result], { samples: [text] }) as [SqliteResultRow])[0]);
      if (keeps.result) {
        results.push(result);
        texts.push(text);
      }
    },
    finish(): ScoredRows {
      return { ids, recordOf, summaryOf, summaries, lines, lineEnds, sqliteRows, results, texts };
    },
  };
}

/**
 * The chunk with some of its scored rows (by their index among the scored rows) replaced by other
 * results, which keep no text: how the main thread fails a repeated id it finds across chunks.
 */
export function replaceScoredRows(
  rows: ScoredRows,
  replacements: ReadonlyMap<number, RewardResult>,
  keeps: ScoreWorkerKeeps,
): Pick<ScoredRows, 'lines' | 'sqliteRows' | 'results' | 'texts'> {
  let lines = '';
  let start = 0;
  const sqliteRows = [...rows.sqliteRows];
  const results = [...rows.results];
  const texts = [...rows.texts];
  const scored = rows.summaryOf.filter((kind) => kind >= 0).length;
  for (let i = 0; i < scored; i++) {
    const end = rows.lineEnds[i] ?? start;
    const replacement = replacements.get(i);
    if (replacement === undefined) {
      if (keeps.line) lines += rows.lines.slice(start, end);
    } else {
      if (keeps.line) lines += `${JSON.stringify(replacement)}\n`;
      if (keeps.sqliteRow) sqliteRows[i] = (encodeSqliteResults([replacement]) as [SqliteResultRow])[0];
      if (keeps.result) {
        results[i] = replacement;
        texts[i] = undefined;
      }
    }
    start = end;
  }
  return { lines, sqliteRows, results, texts };
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
): ScoredRows {
  const builder = scoredRowsBuilder(options.keeps);
  records.forEach((record, index) => {
    for (const row of sampleRows(record, options.mappings)) {
      if (options.done.has(row.id)) builder.done(row.id, index);
      else
        builder.scored(
          failedResult(row.id, [...(row.kind === 'failed' ? row.errors : []), reason]),
          keptText(row, options.keeps),
          index,
        );
    }
  });
  return builder.finish();
}
