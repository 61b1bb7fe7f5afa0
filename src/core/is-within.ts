import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is `dir` or inside it (both resolved). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}
