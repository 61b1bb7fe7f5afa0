import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli-harness.js';

/** Chromium for the browser tests: $REWARDKIT_CHROMIUM, else Debian's; undefined skips them. */
export const chromiumPath = [
  process.env.REWARDKIT_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].find((path): path is string => path !== undefined && existsSync(path));

/** Starts `rewardkit view --store <store> --port 0 …` from the build and waits for its URL line. */
export async function startView(
  store: string,
  args: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'dist/cli/main.js'), 'view', '--store', store, '--port', '0', ...args],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] as string);
    });
    child.on('exit', (code) => reject(new Error(`view exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}
