import { createHash } from 'node:crypto';
import type { SkillFiles } from '../skill-files.js';

/** A skill's content hash: every path and text, in path order. Equal skills judge alike. */
export function skillHash(files: SkillFiles): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort())
    hash
      .update(path)
      .update('\u0000')
      .update(files.get(path) as string)
      .update('\u0000');
  return hash.digest('hex').slice(0, 16);
}
