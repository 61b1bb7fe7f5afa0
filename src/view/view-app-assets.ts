import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Where `npm run build` put the web app: `dist/view-app/` beside this module's `dist/view/`. Run
 * from the TypeScript sources (tests, `tsx`) this module sits in `src/view/`, and the same build
 * output is `../../dist/view-app/`.
 */
export function defaultViewAppDir(): string {
  const built = fileURLToPath(new URL('../view-app/', import.meta.url));
  return existsSync(join(built, 'index.html'))
    ? built
    : fileURLToPath(new URL('../../dist/view-app/', import.meta.url));
}

/** A file of the built web app by name (no folders), or undefined when there is none. */
export async function readViewAsset(
  dir: string,
  name: string,
): Promise<{ body: Buffer; contentType: string } | undefined> {
  if (name.includes('/') || name.includes('\\') || name.startsWith('.')) return undefined;
  const file = join(dir, name);
  const contentType = CONTENT_TYPES[extname(file)];
  if (!contentType) return undefined;
  try {
    return { body: await readFile(file), contentType };
  } catch {
    return undefined;
  }
}
