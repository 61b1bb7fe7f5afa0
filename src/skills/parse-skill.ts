import { checkFrontMatter } from './check-front-matter.js';
import { checkLinks } from './check-links.js';
import { checkResources } from './check-resources.js';
import { countLines, isReferencePath, SKILL_FILE, type SkillFiles } from './skill-files.js';
import type { SkillReference, SkillResult } from './skill-package.js';
import type { SkillViolation } from './skill-violation.js';
import { splitFrontMatter } from './split-front-matter.js';

/** SKILL.md's body stays under this many lines; details go to references. */
export const BODY_LINE_LIMIT = 500;
/** Each reference stays under this many lines. */
export const REFERENCE_LINE_LIMIT = 300;

/**
 * Validates a skill package held in memory and builds the typed skill. Every rule is checked and
 * every violation collected — front matter, line limits, links, resources — before deciding, so
 * one run of `rewardkit skill validate` lists all there is to fix.
 */
export function parseSkill(files: SkillFiles): SkillResult {
  const violations: SkillViolation[] = [];
  const text = files.get(SKILL_FILE);
  if (text === undefined) {
    violations.push({
      code: 'missing_file',
      file: SKILL_FILE,
      line: 1,
      message: 'the package has no SKILL.md',
    });
  }
  const split = text === undefined ? undefined : splitFrontMatter(text);
  if (text !== undefined && split === undefined) {
    violations.push({
      code: 'front_matter',
      file: SKILL_FILE,
      line: 1,
      message: 'SKILL.md must open with YAML front matter between two "---" lines (name, description)',
    });
  }
  const frontMatter = split && checkFrontMatter(split.yaml, split.yamlLine, violations);
  const bodyLines = split ? countLines(split.body) : 0;
  if (split && bodyLines >= BODY_LINE_LIMIT) {
    violations.push({
      code: 'body_too_long',
      file: SKILL_FILE,
      line: split.bodyLine + BODY_LINE_LIMIT - 1,
      message: `body has ${bodyLines} lines; keep it under ${BODY_LINE_LIMIT} and move details to references/`,
    });
  }
  const references: SkillReference[] = [];
  for (const [path, reference] of files) {
    if (!isReferencePath(path)) continue;
    const lines = countLines(reference);
    references.push({ path, text: reference, lines });
    if (lines >= REFERENCE_LINE_LIMIT) {
      violations.push({
        code: 'reference_too_long',
        file: path,
        line: REFERENCE_LINE_LIMIT,
        message: `reference has ${lines} lines; keep it under ${REFERENCE_LINE_LIMIT} (split it into two references)`,
      });
    }
  }
  const linked = split ? checkLinks(split.body, split.bodyLine, files, violations) : new Set<string>();
  const { resources, paths } = checkResources(files, violations);
  for (const path of paths) linked.add(path);
  if (split) {
    for (const reference of references) {
      if (linked.has(reference.path)) continue;
      violations.push({
        code: 'reference_unlinked',
        file: reference.path,
        line: 1,
        message: 'no link from SKILL.md and no resource path reaches this reference; link it or remove it',
      });
    }
  }
  if (violations.length > 0 || !split || !frontMatter)
    return { ok: false, violations: sortViolations(violations) };
  references.sort((a, b) => a.path.localeCompare(b.path));
  return {
    ok: true,
    skill: {
      spec: 'rk-skill/v1',
      name: frontMatter.name,
      description: frontMatter.description,
      frontMatter,
      body: split.body,
      bodyLines,
      references,
      resources,
      files,
    },
  };
}

/** SKILL.md first, then the other files by name, each by line: the order a reader fixes them in. */
function sortViolations(violations: SkillViolation[]): SkillViolation[] {
  const rank = (file: string) => (file === SKILL_FILE ? 0 : 1);
  return violations
    .map((v, i) => ({ v, i }))
    .sort(
      (a, b) =>
        rank(a.v.file) - rank(b.v.file) ||
        a.v.file.localeCompare(b.v.file) ||
        a.v.line - b.v.line ||
        a.i - b.i,
    )
    .map(({ v }) => v);
}
