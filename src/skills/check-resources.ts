import { LineCounter, parseDocument } from 'yaml';
import { issueMessage, issuePath } from './issue-message.js';
import { packagePath } from './package-path.js';
import { RESOURCES_FILE, type SkillFiles } from './skill-files.js';
import {
  JUDGE_BINDINGS,
  ResourcesFileSchema,
  type SkillResource,
  SkillResourceSchema,
  VERIFIER_BINDINGS,
} from './skill-resource.js';
import type { SkillViolation } from './skill-violation.js';
import { yamlLine } from './yaml-line.js';

type Field = keyof SkillResource;

/** The resources that passed every rule, and every package path any entry names (valid or not). */
export interface CheckedResources {
  readonly resources: SkillResource[];
  readonly paths: Set<string>;
}

/**
 * `resources.yaml` checked entry by entry, so one bad resource does not hide the others' problems:
 * each entry's schema, the fields its `implementation` needs or forbids, its path (inside the
 * package, and there), and ids used twice. Violations are on the line of the offending field.
 */
export function checkResources(files: SkillFiles, violations: SkillViolation[]): CheckedResources {
  const checked: CheckedResources = { resources: [], paths: new Set() };
  const text = files.get(RESOURCES_FILE);
  if (text === undefined) return checked;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const report = (
    path: readonly PropertyKey[],
    message: string,
    code: SkillViolation['code'] = 'resource_field',
  ) => violations.push({ code, file: RESOURCES_FILE, line: yamlLine(doc, lines, path), message });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      violations.push({
        code: 'invalid_yaml',
        file: RESOURCES_FILE,
        line: lines.linePos(error.pos[0]).line,
        message: error.message.split('\n')[0] ?? error.message,
      });
    }
    return checked;
  }
  const file = ResourcesFileSchema.safeParse(doc.toJS(), { reportInput: true });
  if (!file.success) {
    for (const issue of file.error.issues)
      report(issuePath(issue), `resources.yaml: ${issueMessage(issue, ['resources'])}`);
    return checked;
  }
  const { resources, paths } = checked;
  const firstLineOfId = new Map<string, number>();
  file.data.resources.forEach((entry, i) => {
    const at = (field?: PropertyKey): PropertyKey[] =>
      field === undefined ? ['resources', i] : ['resources', i, field];
    const parsed = SkillResourceSchema.safeParse(entry, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issuePath(issue);
        const field = path.length > 0 ? `.${path.map(String).join('.')}` : '';
        const message = issueMessage(issue, Object.keys(SkillResourceSchema.shape));
        report(['resources', i, ...path], `resources[${i}]${field}: ${message}`);
      }
    }
    const path = typeof entry === 'object' && entry !== null ? (entry as { path?: unknown }).path : undefined;
    const inside = typeof path === 'string' ? packagePath(path) : undefined;
    if (inside !== undefined) paths.add(inside);
    const id = idOf(entry);
    if (id !== undefined) {
      const line = yamlLine(doc, lines, at('id'));
      const first = firstLineOfId.get(id);
      if (first !== undefined)
        report(at('id'), `duplicate resource id "${id}" (first at line ${first})`, 'duplicate_resource_id');
      else firstLineOfId.set(id, line);
    }
    if (!parsed.success) return;
    const problems = implementationProblems(parsed.data, files);
    for (const [field, message, code] of problems)
      report(at(field), `resources[${i}] "${parsed.data.id}": ${message}`, code);
    if (problems.length === 0) resources.push(parsed.data);
  });
  return checked;
}

function idOf(entry: unknown): string | undefined {
  const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

type Problem = [Field, string, SkillViolation['code']?];

/** The rules that tie fields to `implementation`, and the path's place in the package. */
function implementationProblems(resource: SkillResource, files: SkillFiles): Problem[] {
  const problems: Problem[] = [];
  const { implementation, binding } = resource;
  if (implementation === 'reference_doc' && resource.path === undefined)
    problems.push(['implementation', 'a reference_doc needs a "path" to a file of the package']);
  if (implementation === 'runtime_sample' && resource.sample_field === undefined)
    problems.push([
      'implementation',
      'a runtime_sample needs a "sample_field" (metadata, reference or checklist)',
    ]);
  if (implementation !== 'runtime_sample' && resource.sample_field !== undefined)
    problems.push(['sample_field', `"sample_field" is only for runtime_sample, not ${implementation}`]);
  const allowed: readonly string[] | undefined =
    implementation === 'verifier'
      ? VERIFIER_BINDINGS
      : implementation === 'llm_pipeline'
        ? JUDGE_BINDINGS
        : undefined;
  if (allowed === undefined && binding !== undefined)
    problems.push(['binding', `"binding" is only for verifier and llm_pipeline, not ${implementation}`]);
  if (allowed !== undefined && binding === undefined)
    problems.push(['implementation', `a ${implementation} needs a "binding": one of ${allowed.join(', ')}`]);
  if (allowed !== undefined && binding !== undefined && !allowed.includes(binding))
    problems.push([
      'binding',
      `binding "${binding}" is not a ${implementation}; use one of ${allowed.join(', ')}`,
    ]);
  if (resource.path !== undefined) {
    const path = packagePath(resource.path);
    if (path === undefined)
      problems.push([
        'path',
        `path "${resource.path}" is outside the package (absolute or climbing out with "..")`,
        'resource_path',
      ]);
    else if (!files.has(path))
      problems.push(['path', `path "${resource.path}" does not exist in the package`, 'resource_path']);
  }
  return problems;
}
