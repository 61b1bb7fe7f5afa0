import { posix } from 'node:path';

/**
 * `target` resolved against the package folder `from` (`''` for the root) as a normalized posix
 * path inside the package, or `undefined` when it is absolute or climbs out with `..` — a skill
 * may only point at its own files.
 */
export function packagePath(target: string, from = ''): string | undefined {
  if (target === '' || posix.isAbsolute(target) || /^[a-zA-Z]:[\\/]/.test(target) || target.includes('\\'))
    return undefined;
  const joined = posix.normalize(posix.join(from, target));
  if (joined === '..' || joined.startsWith('../') || joined === '.') return undefined;
  return joined;
}
