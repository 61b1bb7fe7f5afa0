import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { RewardKitError } from '../core/index.js';

/**
 * The Node modules folders `/run_code` offers programs: `serve --sandbox-node-path` (repeatable),
 * else `$REWARDKIT_SANDBOX_NODE_PATH` (colon-separated, as NODE_PATH). Each may name a
 * node_modules folder or the folder `npm i` ran in; symlinks are resolved, since the sandbox binds
 * the real folder. A folder that is not there stops the server before it starts.
 */
export function sandboxNodeModules(flags: readonly string[]): string[] {
  const given = flags.length > 0 ? flags : (process.env.REWARDKIT_SANDBOX_NODE_PATH ?? '').split(':');
  return given
    .filter((folder) => folder !== '')
    .map((folder) => {
      const absolute = resolve(folder);
      if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
        throw new RewardKitError(
          'RK_USAGE',
          `--sandbox-node-path: "${folder}" is not a folder; give the node_modules folder of an install (npm i jest typescript in an empty folder, then pass <folder>/node_modules)`,
        );
      }
      const inner = join(absolute, 'node_modules');
      return realpathSync(basename(absolute) !== 'node_modules' && existsSync(inner) ? inner : absolute);
    });
}
