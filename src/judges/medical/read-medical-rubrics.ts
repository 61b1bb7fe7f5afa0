import { readFileSync, statSync } from 'node:fs';
import { type Document, isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import { describeRubricIssue } from './describe-rubric-issue.js';
import { type MedicalRubric, MedicalRubricSchema } from './medical-rubric.js';

type Path = readonly PropertyKey[];

/**
 * A rubric file as read: the good rubrics by id, the ids whose rubric is bad (with every problem,
 * each naming file, line and field), and the problems no id can be given to (a line that is not
 * JSON, a rubric without a usable id). A run scores the good ones and records the rest per sample.
 */
export interface MedicalRubricFile {
  readonly file: string;
  readonly rubrics: ReadonlyMap<string, MedicalRubric>;
  readonly rejected: ReadonlyMap<string, readonly string[]>;
  readonly unattributed: readonly string[];
}

/**
 * Reads QuarkMedBench rubrics by sample id from a JSONL file (one rubric per line) or a JSON/YAML
 * file (a list of rubrics, `{rubrics: [...]}`, or one rubric), keeping every problem — bad JSON, a
 * missing section, a wrong field, a repeated id — with the id it belongs to where there is one. A
 * repeated id rejects that id altogether: which of its rubrics was meant is unknown.
 */
export function loadMedicalRubrics(file: string): MedicalRubricFile {
  // The spec compiles the check and says the file's problems from one reading, however many
  // times they ask: read again only when the file changed.
  let stamp: string | undefined;
  try {
    const stat = statSync(file);
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    // Unreadable: readRubricFile says why.
  }
  const kept = stamp === undefined ? undefined : readFiles.get(file);
  if (kept && kept.stamp === stamp) return kept.read;
  const read = readRubricFile(file);
  if (stamp !== undefined) readFiles.set(file, { stamp, read });
  return read;
}

const readFiles = new Map<string, { stamp: string; read: MedicalRubricFile }>();

function readRubricFile(file: string): MedicalRubricFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    throw new RewardKitError('RK_USAGE', `cannot read the rubric file ${file}: ${(error as Error).message}`);
  }
  const unattributed: string[] = [];
  const rejected = new Map<string, string[]>();
  const rubrics = new Map<string, MedicalRubric>();
  const reject = (id: string, problem: string) => {
    rejected.set(id, [...(rejected.get(id) ?? []), problem]);
  };
  const idOf = (raw: unknown) =>
    typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' && raw.id !== ''
      ? raw.id
      : undefined;
  const add = (rubric: MedicalRubric, line: number) => {
    if (rubrics.has(rubric.id) || rejected.has(rubric.id)) {
      rubrics.delete(rubric.id);
      reject(rubric.id, `${file}:${line}: field "id": rubric id "${rubric.id}" appears more than once`);
    } else rubrics.set(rubric.id, rubric);
  };
  const issues = (
    raw: unknown,
    line: (path: Path) => number,
    prefix: Path,
    list: readonly z.core.$ZodIssue[],
  ) => {
    const id = idOf(raw);
    for (const issue of list) {
      const problem = `${file}:${line([...prefix, ...issue.path])}: ${describeRubricIssue(issue)}`;
      if (id === undefined) unattributed.push(problem);
      else reject(id, problem);
    }
    if (id !== undefined) rubrics.delete(id);
  };

  if (/\.jsonl$/i.test(file)) {
    for (const [index, lineText] of text.split('\n').entries()) {
      if (lineText.trim() === '') continue;
      const line = index + 1;
      let raw: unknown;
      try {
        raw = JSON.parse(lineText);
      } catch (error) {
        unattributed.push(`${file}:${line}: invalid JSON: ${(error as Error).message}`);
        continue;
      }
      const parsed = MedicalRubricSchema.safeParse(raw);
      if (parsed.success) add(parsed.data, line);
      else issues(raw, () => line, [], parsed.error.issues);
    }
  } else {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        unattributed.push(
          `${file}:${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0] ?? e.message}`,
        );
      }
    } else {
      const value: unknown = doc.toJS();
      const [list, prefix]: [unknown[], Path] = Array.isArray(value)
        ? [value, []]
        : typeof value === 'object' && value !== null && 'rubrics' in value && Array.isArray(value.rubrics)
          ? [value.rubrics, ['rubrics']]
          : [[value], []];
      const single = !Array.isArray(value) && prefix.length === 0;
      for (const [i, item] of list.entries()) {
        const here = single ? prefix : [...prefix, i];
        const parsed = MedicalRubricSchema.safeParse(item);
        if (parsed.success) add(parsed.data, lineOf(doc, lines, [...here, 'id']));
        else issues(item, (path) => lineOf(doc, lines, path), here, parsed.error.issues);
      }
    }
  }
  return { file, rubrics, rejected, unattributed };
}

/** Every problem of a rubric file, in one list. */
export function rubricFileProblems(read: MedicalRubricFile): string[] {
  return [...read.unattributed, ...[...read.rejected.values()].flat()];
}

/**
 * `loadMedicalRubrics`, strict: every problem in the file is thrown at once, each naming the
 * file, the line and the field (for `rubrics validate`-style checks and tools that need all).
 */
export function readMedicalRubrics(file: string): Map<string, MedicalRubric> {
  const read = loadMedicalRubrics(file);
  const problems = rubricFileProblems(read);
  if (problems.length > 0) {
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `invalid rubric file ${file} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.join('\n')}`,
    );
  }
  return new Map(read.rubrics);
}

/**
 * The rubric of one sample from a leniently read file, or the reason it has none: its own
 * rubric's problems, or (when the id is absent) the file's problems that no id could be given to.
 */
export function rubricFor(
  read: MedicalRubricFile,
  id: string,
): { rubric: MedicalRubric } | { error: string } {
  const rubric = read.rubrics.get(id);
  if (rubric) return { rubric };
  const own = read.rejected.get(id);
  if (own) return { error: `the rubric for "${id}" in ${read.file} is invalid: ${own.join('; ')}` };
  const unreadable = read.unattributed.length;
  return {
    error: `no rubric with id "${id}" in ${read.file}${unreadable > 0 ? ` (${unreadable} part(s) of the file could not be read and may hold it: ${read.unattributed.slice(0, 3).join('; ')}${unreadable > 3 ? '; …' : ''})` : ''}`,
  };
}

/** The line of the deepest node that exists along `path` (a missing field points at its parent). */
function lineOf(doc: Document, lines: LineCounter, path: Path): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}
