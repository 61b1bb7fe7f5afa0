/** What kind of rule a package broke; `skill validate` prints the message, tests match the code. */
export type SkillViolationCode =
  | 'missing_file'
  | 'unreadable_file'
  | 'invalid_yaml'
  | 'front_matter'
  | 'name'
  | 'description'
  | 'body_too_long'
  | 'reference_too_long'
  | 'reference_unlinked'
  | 'link_unresolved'
  | 'link_outside_package'
  | 'link_too_deep'
  | 'resource_field'
  | 'resource_path'
  | 'duplicate_resource_id';

/** One broken rule of a skill package, at a file (relative to the package root) and a 1-based line. */
export interface SkillViolation {
  readonly code: SkillViolationCode;
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** `references/code.md:12: message` — the line `rewardkit skill validate` prints per violation. */
export function formatViolation(violation: SkillViolation, root?: string): string {
  const file = root === undefined ? violation.file : `${root.replace(/\/+$/, '')}/${violation.file}`;
  return `${file}:${violation.line}: ${violation.message}`;
}
