import { SKILL_FILE, type SkillFiles } from '../skill-files.js';
import type { FailureAnalysis } from '../trace2skill/analyst-roles.js';

/** The section a failed run's lessons are appended under while the gate judges the pair again. */
export const LESSONS_UNDER_TEST = '## Lessons under test';

/**
 * The skill as the gate tries it: SKILL.md with the analyst's fix and lessons appended as a last
 * section, every other file unchanged. A new map: the skill passed in is never changed.
 */
export function skillWithLessons(files: SkillFiles, analysis: FailureAnalysis): SkillFiles {
  const lines = [
    `- ${analysis.fix.description}`,
    ...analysis.lessons.map((l) => `- **${l.title}**: ${l.content}`),
  ];
  const text = (files.get(SKILL_FILE) ?? '').trimEnd();
  return new Map([...files, [SKILL_FILE, `${text}\n\n${LESSONS_UNDER_TEST}\n\n${lines.join('\n')}\n`]]);
}
