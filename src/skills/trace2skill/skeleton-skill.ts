import { SKILL_FILE, type SkillFiles } from '../skill-files.js';

/**
 * The starting point of `create` mode: a valid package with front matter and one empty section
 * for the patches to fill. `name` must be kebab-case and `description` plain text (the validator
 * checks both).
 */
export function skeletonSkill(name: string, description: string): SkillFiles {
  const title = name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
  const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# ${title}\n\n## Guidance\n\nLessons distilled from the agent's runs.\n`;
  return new Map([[SKILL_FILE, text]]);
}
