import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RewardKitError } from '../../core/index.js';
import {
  lintRubric,
  type MedicalRubric,
  parseRubricMarkdown,
  renderRubricMarkdown,
} from '../../judges/index.js';
import {
  type ReviewIndexEntry,
  renderReviewIndex,
  rubricFileName,
} from '../../judges/rubric-authoring/index.js';
import { readRubricLines } from './rubrics-read-file.js';

export const REVIEW_INDEX = 'index.md';

/**
 * Writes one review file per rubric of `file` and an `index.md` into `dir`. Refuses a directory
 * that already holds review files (an import would mix two exports) unless `force`.
 */
export async function exportRubrics(file: string, dir: string, force: boolean) {
  if (existsSync(dir) && !force && (await readdir(dir)).some((name) => name.endsWith('.md'))) {
    throw new RewardKitError(
      'RK_USAGE',
      `${dir} already holds markdown files: choose an empty directory or pass --force`,
    );
  }
  const lines = [];
  for await (const line of readRubricLines(file)) lines.push(line);
  await mkdir(dir, { recursive: true });
  const rubrics = lines.filter((l) => l.kind === 'rubric');
  const entries: ReviewIndexEntry[] = [];
  const errors: string[] = [];
  let written = 0;
  for (const line of lines) {
    if (line.kind === 'invalid') {
      errors.push(...line.errors);
      entries.push({ id: line.id, error: `invalid line ${line.line} of ${file}` });
    } else if (line.kind === 'failed') {
      entries.push({ id: line.id, error: line.error });
    } else {
      const name = rubricFileName(line.rubric.id, written++, rubrics.length);
      await writeFile(
        join(dir, name),
        renderRubricMarkdown(line.rubric, line.notes ? { notes: line.notes } : {}),
      );
      entries.push({
        id: line.rubric.id,
        file: name,
        needsReview: line.notes?.needs_review ?? false,
        agreement: line.notes?.agreement ?? null,
        reasons: line.notes?.review_reasons.map((r) => r.code) ?? [],
      });
    }
  }
  await writeFile(join(dir, REVIEW_INDEX), renderReviewIndex(entries));
  return { written, withoutRubric: entries.length - written, errors };
}

export interface ImportReport {
  imported: MedicalRubric[];
  rejected: string[];
  pending: string[];
  errors: string[];
  warnings: string[];
}

/**
 * Reads the review files of `dir` back (in file-name order, which is the export order). Rejected
 * rubrics are reported and left out; pending ones too unless `includePending`; everything else must
 * parse and pass the schema. Two files with the same id are an error.
 */
export async function importRubrics(dir: string, includePending: boolean): Promise<ImportReport> {
  if (!existsSync(dir)) throw new RewardKitError('RK_USAGE', `Review directory not found: ${dir}`);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md') && n !== REVIEW_INDEX).sort();
  const report: ImportReport = { imported: [], rejected: [], pending: [], errors: [], warnings: [] };
  const fileOfId = new Map<string, string>();
  for (const name of names) {
    const path = join(dir, name);
    const parsed = parseRubricMarkdown(await readFile(path, 'utf8'), path);
    const id = parsed.ok ? parsed.rubric.id : parsed.id;
    if (parsed.status === 'rejected') {
      report.rejected.push(`${path}: ${id ?? '(no id)'}`);
      continue;
    }
    if (parsed.status === 'pending' && !includePending) {
      report.pending.push(`${path}: ${id ?? '(no id)'}`);
      continue;
    }
    if (!parsed.ok) {
      report.errors.push(...parsed.errors);
      continue;
    }
    const other = fileOfId.get(parsed.rubric.id);
    if (other !== undefined) {
      report.errors.push(`${path}:1: id "${parsed.rubric.id}" is also the id of ${other}`);
      continue;
    }
    fileOfId.set(parsed.rubric.id, path);
    report.warnings.push(...lintRubric(parsed.rubric).map((w) => `${path}: ${w.path}: ${w.message}`));
    report.imported.push(parsed.rubric);
  }
  return report;
}
