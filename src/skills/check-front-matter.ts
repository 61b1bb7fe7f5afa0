import { LineCounter, parseDocument } from 'yaml';
import { issueMessage, issuePath } from './issue-message.js';
import { SKILL_FILE } from './skill-files.js';
import { type SkillFrontMatter, SkillFrontMatterSchema } from './skill-front-matter.js';
import type { SkillViolation } from './skill-violation.js';
import { yamlLine } from './yaml-line.js';

/**
 * SKILL.md's front matter checked against the schema; each violation is on the line of the key it
 * is about (a file line: the YAML starts on `firstLine` of SKILL.md).
 */
export function checkFrontMatter(
  yaml: string,
  firstLine: number,
  violations: SkillViolation[],
): SkillFrontMatter | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const offset = firstLine - 1;
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      violations.push({
        code: 'invalid_yaml',
        file: SKILL_FILE,
        line: offset + lines.linePos(error.pos[0]).line,
        message: `front matter: ${error.message.split('\n')[0]}`,
      });
    }
    return undefined;
  }
  const parsed = SkillFrontMatterSchema.safeParse(doc.toJS() ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const path = issuePath(issue);
    const key = path[0];
    const code = key === 'name' ? 'name' : key === 'description' ? 'description' : 'front_matter';
    const where = path.length > 0 ? ` "${path.map(String).join('.')}"` : '';
    violations.push({
      code,
      file: SKILL_FILE,
      line: offset + yamlLine(doc, lines, path),
      message: `front matter${where} ${issueMessage(issue, Object.keys(SkillFrontMatterSchema.shape))}`,
    });
  }
  return undefined;
}
