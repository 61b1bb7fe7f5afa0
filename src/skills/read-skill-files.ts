import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { RewardKitError } from '../core/index.js';
import type { SkillFiles } from './skill-files.js';

/**
 * Every file under a skill package directory, by posix path relative to it. Hidden entries
 * (`.git`, editor files) are not part of a skill; symbolic links are refused, since they could
 * reach outside the package.
 */
export function readSkillFiles(dir: string): SkillFiles {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new RewardKitError(
      'RK_USAGE',
      `Not a directory: ${dir}; pass a skill package directory (the folder that holds SKILL.md)`,
    );
  }
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      if (name.startsWith('.')) continue;
      const path = relative === '' ? name : posix.join(relative, name);
      const stat = lstatSync(join(dir, path));
      if (stat.isSymbolicLink()) {
        throw new RewardKitError(
          'RK_USAGE',
          `${join(dir, path)} is a symbolic link; a skill package holds its own files (copy the file in)`,
        );
      }
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.set(path, readFileSync(join(dir, path), 'utf8'));
    }
  };
  walk('');
  return files;
}
