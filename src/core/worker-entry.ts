import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TYPESCRIPT_SOURCE_EXEC_ARGV } from './typescript-source-loader.js';

/** Where a worker thread starts: its script and the `execArgv` it needs. */
export interface WorkerEntry {
  readonly url: URL;
  readonly execArgv: readonly string[];
}

/**
 * The entry of a worker thread whose compiled script is `compiled` (a `.js` URL beside the
 * caller): that script in the built package, or its `.ts` source through the transpiling loader
 * when rewardkit runs from its sources (vitest), where no `.js` exists.
 */
export function workerEntry(compiled: URL): WorkerEntry {
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, execArgv: [] };
  return { url: new URL(compiled.href.replace(/\.js$/, '.ts')), execArgv: TYPESCRIPT_SOURCE_EXEC_ARGV };
}
