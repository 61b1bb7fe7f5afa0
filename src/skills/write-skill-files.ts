import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isWithin, RewardKitError } from '../core/index.js';
import { readSkillFiles } from './read-skill-files.js';
import type { SkillFiles } from './skill-files.js';

/**
 * Writes an edited skill as a new package directory: a copy of `sourceDir` (so files the edits
 * never read, binaries included, come across byte for byte) with the files that changed written,
 * the new ones created and the deleted ones removed. The source is never written to: `outDir`
 * must be a new or empty directory outside it.
 */
export function writeSkillFiles(sourceDir: string, files: SkillFiles, outDir: string): void {
  const source = resolve(sourceDir);
  const out = resolve(outDir);
  if (isWithin(out, source) || isWithin(source, out)) {
    throw new RewardKitError(
      'RK_USAGE',
      `The output ${outDir} overlaps the skill ${sourceDir}; an edited skill goes to a new directory`,
    );
  }
  const existing = statSync(out, { throwIfNoEntry: false });
  if (existing && (!existing.isDirectory() || readdirSync(out).length > 0)) {
    throw new RewardKitError('RK_USAGE', `${outDir} exists and is not an empty directory; pick a new one`);
  }
  const before = readSkillFiles(source);
  cpSync(source, out, { recursive: true, filter: (path) => !relative(source, path).split(sep).some(hidden) });
  for (const path of before.keys()) if (!files.has(path)) rmSync(join(out, path));
  for (const [path, text] of files) {
    if (before.get(path) === text) continue;
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), text);
  }
}

function hidden(name: string): boolean {
  return name.startsWith('.');
}
