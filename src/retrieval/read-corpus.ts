import { lineKey, parseRow, readJsonlLines } from '../dataset/index.js';
import type { CorpusDoc } from './bm25-index.js';
import { CorpusRowSchema } from './corpus-row.js';

/** A corpus row that could not be indexed, with errors naming the file, line and field. */
export interface FailedCorpusRow {
  readonly id: string;
  readonly line: number;
  readonly errors: readonly string[];
}

/**
 * The documents of a JSONL corpus, streamed. Rows that cannot be read (bad JSON or UTF-8, a
 * missing field, a repeated id) go to `failed` with their reasons instead of being dropped silently.
 */
export async function readCorpus(file: string): Promise<{ docs: CorpusDoc[]; failed: FailedCorpusRow[] }> {
  const docs: CorpusDoc[] = [];
  const failed: FailedCorpusRow[] = [];
  const seen = new Set<string>();
  for await (const line of readJsonlLines(file)) {
    const origin = { file, line: line.line };
    if (line.error !== undefined) {
      failed.push({ id: lineKey(origin), line: line.line, errors: [`${file}:${line.line}: ${line.error}`] });
      continue;
    }
    const parsed = parseRow(line.text, origin, CorpusRowSchema);
    if (!parsed.ok) {
      failed.push({ id: parsed.id, line: line.line, errors: parsed.errors });
      continue;
    }
    if (seen.has(parsed.value.id)) {
      failed.push({
        id: parsed.value.id,
        line: line.line,
        errors: [`${file}:${line.line}: field "id": "${parsed.value.id}" appears earlier in the corpus`],
      });
      continue;
    }
    seen.add(parsed.value.id);
    docs.push(parsed.value);
  }
  return { docs, failed };
}
