import { posix } from 'node:path';
import { localLinks } from './markdown-links.js';
import { packagePath } from './package-path.js';
import { isReferencePath, SKILL_FILE, type SkillFiles } from './skill-files.js';
import type { SkillViolation } from './skill-violation.js';

/**
 * Links stay one level deep: every local link of SKILL.md's body resolves to a file of the
 * package, and a reference links no further file of the package (a model reading a reference
 * should never need a third file). Returns the package files SKILL.md links to.
 */
export function checkLinks(
  body: string,
  bodyLine: number,
  files: SkillFiles,
  violations: SkillViolation[],
): Set<string> {
  const linked = new Set<string>();
  for (const link of localLinks(body, bodyLine)) {
    const path = packagePath(link.target);
    if (path === undefined) {
      violations.push({
        code: 'link_outside_package',
        file: SKILL_FILE,
        line: link.line,
        message: `link "${link.target}" points outside the package`,
      });
    } else if (!files.has(path)) {
      violations.push({
        code: 'link_unresolved',
        file: SKILL_FILE,
        line: link.line,
        message: `link "${link.target}" does not resolve to a file of the package`,
      });
    } else linked.add(path);
  }
  for (const [file, text] of files) {
    if (!isReferencePath(file)) continue;
    for (const link of localLinks(text)) {
      const path = packagePath(link.target, posix.dirname(file));
      if (path === file) continue;
      violations.push({
        code: 'link_too_deep',
        file,
        line: link.line,
        message: `reference links "${link.target}"; references are one level deep — link it from SKILL.md instead`,
      });
    }
  }
  return linked;
}
