import { lineKey, parseRow, readRowLines } from '../dataset/index.js';
import { type AtpRow, AtpRowSchema } from '../judges/tool-plan/index.js';

/** One ATP-Bench row as read: the row, or every problem with file, line and field (and the id when one was found). */
export type AtpRowRead =
  | { readonly ok: true; readonly line: number; readonly row: AtpRow }
  | { readonly ok: false; readonly line: number; readonly id: string; readonly errors: readonly string[] };

/**
 * Reads ATP-Bench rows (`{id | trace_id, query, image_query, doc, images, gt}` plus the `response`
 * under judgment, `category` and `intent`) from JSONL or a JSON array. A malformed row is yielded
 * with its errors, never dropped.
 */
export async function* readAtpRows(path: string): AsyncGenerator<AtpRowRead> {
  for await (const line of readRowLines(path)) {
    const origin = { file: path, line: line.line };
    if (line.text === undefined) {
      yield {
        ok: false,
        line: line.line,
        id: lineKey(origin),
        errors: [`${path}:${line.line}: ${line.error}`],
      };
      continue;
    }
    const parsed = parseRow(line.text, origin, AtpRowSchema);
    yield parsed.ok
      ? { ok: true, line: line.line, row: parsed.value }
      : { ok: false, line: line.line, id: parsed.id, errors: parsed.errors };
  }
}
