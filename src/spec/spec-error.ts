import { RewardKitError } from '../core/index.js';

/** One problem found in a spec document. */
export interface SpecIssue {
  readonly code:
    | 'invalid_yaml'
    | 'schema'
    | 'unknown_kind'
    | 'unknown_preset'
    | 'duplicate_source'
    | 'params'
    | 'calibration';
  /** Path in the document, e.g. `['sources', 2, 'kind']`. */
  readonly path: readonly (string | number)[];
  /** What was expected and what was found. */
  readonly message: string;
  /** 1-based line and column in the file, when known. */
  readonly position?: { readonly line: number; readonly column: number };
}

/** `sources[2].params.mode` */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(document)';
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/**
 * All the problems of one spec, thrown once after the whole document was checked, so the user
 * fixes everything in one pass.
 */
export class SpecError extends RewardKitError {
  readonly file: string;
  readonly issues: readonly SpecIssue[];

  constructor(file: string, issues: readonly SpecIssue[]) {
    super('RK_SPEC_INVALID', renderSpecIssues(file, issues));
    this.file = file;
    this.issues = issues;
  }
}

/** `✖ message\n  → at sources[2].kind (spec.yaml:14:11)` per issue, in the style of zod's prettifyError. */
export function renderSpecIssues(file: string, issues: readonly SpecIssue[]): string {
  const head = `Invalid reward spec ${file} (${issues.length} problem${issues.length === 1 ? '' : 's'}):`;
  const lines = issues.map((issue) => {
    const where = issue.position ? `${file}:${issue.position.line}:${issue.position.column}` : file;
    return `✖ ${issue.message}\n  → at ${formatPath(issue.path)} (${where})`;
  });
  return [head, ...lines].join('\n');
}
