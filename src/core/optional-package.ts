import { createRequire } from 'node:module';
import { RewardKitError } from './errors.js';

/** A part of rewardkit whose packages the default install leaves out, and how a user adds them. */
export interface OptionalPart {
  /** What the user was doing, as the message's subject ("the lab (rewardkit lab)"). */
  readonly feature: string;
  /** The packages the part loads; a missing one of these is the part being absent. */
  readonly packages: readonly string[];
  /** Why a package may be absent, after "which is not installed". */
  readonly absentBecause: string;
  /** The exact way to add the part, a sentence that names the command to type. */
  readonly fix: string;
}

/**
 * Every optional part, in one place so the messages, the install docs (docs/install.md) and the
 * tests agree on the install lines. Versions are the majors rewardkit is built and tested against.
 */
export const OPTIONAL_PARTS = {
  lab: {
    feature: 'the lab (rewardkit lab)',
    packages: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', 'vega', 'vega-lite'],
    absentBecause: 'an optional part the default install leaves out',
    fix: 'install the lab with "npm install @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4 vega@6 vega-lite@6"',
  },
  gguf: {
    feature: 'the local GGUF backend (backend: llama_cpp)',
    packages: ['node-llama-cpp'],
    absentBecause: 'an optional part the default install leaves out',
    fix: `install it with "npm install node-llama-cpp@3", or serve the model with llama.cpp's server and use the OpenAI-compatible backend`,
  },
  typescript: {
    feature: 'running TypeScript programs in /run_code',
    packages: ['typescript'],
    absentBecause: 'an optional part the default install leaves out',
    fix: 'install it on the server with "npm install typescript@5"',
  },
  postgres: {
    feature: 'the PostgreSQL store',
    packages: ['pg'],
    absentBecause: 'an optional part the default install leaves out',
    fix: 'install it with "npm install pg@8"',
  },
  sqlite: {
    feature: 'the SQLite store',
    packages: ['better-sqlite3'],
    absentBecause: 'npm leaves it out when its native build fails, as on a machine without a C/C++ compiler',
    fix: 'install a C/C++ toolchain (python3, make, g++) and run "npm rebuild better-sqlite3" (or "npm install better-sqlite3@12" if npm removed it), or use --store none or a postgres:// store',
  },
} as const satisfies Record<string, OptionalPart>;

export type OptionalPartName = keyof typeof OPTIONAL_PARTS;

const NOT_FOUND_CODES = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/**
 * True when `error` is Node failing to find `name` itself (ESM "Cannot find package 'pg' …",
 * CJS "Cannot find module 'pg'"), or a subpath of it. A package that is there but misses one of
 * its own dependencies names that dependency instead: the install is broken, which is not the
 * same as the part being left out, and the message must not send the user to the wrong fix.
 */
export function isPackageNotFound(error: unknown, name: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code !== 'string' || !NOT_FOUND_CODES.has(e.code) || typeof e.message !== 'string') {
    return false;
  }
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(e.message)?.[1];
  return missing !== undefined && (missing === name || missing.startsWith(`${name}/`));
}

/**
 * The one error a feature gives when its optional package could not be loaded: the part's
 * feature, the package, and the install line, on one line. A package that is absent is said so;
 * any other failure (a broken native binary, a dependency of the package missing) is shown with
 * its cause's first line, and the same line reinstalls the part.
 */
export function optionalPackageError(partName: OptionalPartName, error: unknown): RewardKitError {
  const part: OptionalPart = OPTIONAL_PARTS[partName];
  const missing = part.packages.find((name) => isPackageNotFound(error, name));
  const names = part.packages.join(', ');
  const message = missing
    ? `${part.feature} needs the package ${missing}, which is not installed (${part.absentBecause}): ${part.fix}`
    : `${part.feature} needs the package${part.packages.length > 1 ? 's' : ''} ${names}, which could not be loaded (${firstLine(error)}): ${part.fix}`;
  return new RewardKitError('RK_BACKEND_UNAVAILABLE', message, { cause: error });
}

/** Imports what `importer` loads for the part; a failure becomes the part's one error. */
export async function importOptional<T>(partName: OptionalPartName, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    // An error of rewardkit's own (a runtime that would not start) already says what to do.
    if (RewardKitError.isInstance(error)) throw error;
    throw optionalPackageError(partName, error);
  }
}

const requireHere = createRequire(import.meta.url);

/** `require`s a CommonJS package of the part (better-sqlite3, typescript); a failure becomes the part's one error. */
export function requireOptional<T>(partName: OptionalPartName, name: string): T {
  try {
    return requireHere(name) as T;
  } catch (error) {
    throw optionalPackageError(partName, error);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0] ?? text;
}
