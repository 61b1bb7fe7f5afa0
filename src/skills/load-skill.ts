import { parseSkill } from './parse-skill.js';
import { readSkillFiles } from './read-skill-files.js';
import type { SkillResult } from './skill-package.js';

/**
 * Reads a skill package directory and validates it: `{ ok: true, skill }` when every rule holds,
 * otherwise `{ ok: false, violations }` with all of them. A directory that is missing (or holds a
 * symbolic link) throws `RK_USAGE`.
 */
export function loadSkill(dir: string): SkillResult {
  return parseSkill(readSkillFiles(dir));
}
