import { describeIssues, readJsonlLines, rowId } from '../../dataset/index.js';
import type { MedicalRubric } from '../../judges/index.js';
import { MedicalRubricSchema } from '../../judges/medical/index.js';
import { type AuthoringNotes, RubricRecordSchema } from '../../judges/rubric-authoring/index.js';

/** One line of a rubrics file, read: a rubric (with its authoring notes when it has them), a failed query, or errors. */
export type RubricLine =
  | { kind: 'rubric'; line: number; rubric: MedicalRubric; notes?: AuthoringNotes }
  | { kind: 'failed'; line: number; id: string; error: string }
  | { kind: 'invalid'; line: number; id: string; errors: string[] };

/**
 * Reads a rubrics file line by line. A line is either a bare rubric (`MedicalRubricSchema`, as
 * `rubrics import` writes) or a `rubrics generate` record (it has a `status`). Errors name the
 * file, line and field.
 */
export async function* readRubricLines(file: string): AsyncGenerator<RubricLine> {
  for await (const line of readJsonlLines(file)) {
    const origin = { file, line: line.line };
    if (line.text === undefined) {
      yield {
        kind: 'invalid',
        line: line.line,
        id: `line:${line.line}`,
        errors: [`${file}:${line.line}: ${line.error}`],
      };
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line.text);
    } catch (error) {
      yield {
        kind: 'invalid',
        line: line.line,
        id: `line:${line.line}`,
        errors: [`${file}:${line.line}: invalid JSON: ${(error as Error).message}`],
      };
      continue;
    }
    const id = rowId(raw) ?? `line:${line.line}`;
    const isRecord = typeof raw === 'object' && raw !== null && 'status' in raw;
    if (!isRecord) {
      const parsed = MedicalRubricSchema.safeParse(raw);
      yield parsed.success
        ? { kind: 'rubric', line: line.line, rubric: parsed.data }
        : { kind: 'invalid', line: line.line, id, errors: describeIssues(origin, parsed.error.issues) };
      continue;
    }
    const parsed = RubricRecordSchema.safeParse(raw);
    if (!parsed.success) {
      yield { kind: 'invalid', line: line.line, id, errors: describeIssues(origin, parsed.error.issues) };
    } else if (parsed.data.status === 'failed') {
      yield { kind: 'failed', line: line.line, id, error: parsed.data.error };
    } else {
      yield { kind: 'rubric', line: line.line, rubric: parsed.data.rubric, notes: parsed.data.authoring };
    }
  }
}
