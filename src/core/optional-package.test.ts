import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { RewardKitError } from './errors.js';
import {
  importOptional,
  isPackageNotFound,
  type OptionalPartName,
  optionalPackageError,
  requireOptional,
} from './optional-package.js';

/** Node's errors for a package that is not there, in its two resolvers' words. */
const esmNotFound = (name: string) =>
  Object.assign(
    new Error(`Cannot find package '${name}' imported from /app/node_modules/rewardkit/dist/x.js`),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );
const cjsNotFound = (name: string) =>
  Object.assign(
    new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/node_modules/rewardkit/dist/x.js`),
    {
      code: 'MODULE_NOT_FOUND',
    },
  );

const NOT_A_PACKAGE = 'rk-no-such-package-anywhere';

describe('isPackageNotFound', () => {
  test("should read Node's own not-found errors, ESM and CommonJS", async () => {
    const esm = await import(NOT_A_PACKAGE).catch((e: unknown) => e);
    let cjs: unknown;
    try {
      createRequire(import.meta.url)(NOT_A_PACKAGE);
    } catch (error) {
      cjs = error;
    }
    for (const error of [esm, cjs]) {
      expect(isPackageNotFound(error, NOT_A_PACKAGE)).toBe(true);
      // A name that only starts the same is another package.
      expect(isPackageNotFound(error, 'rk-no-such')).toBe(false);
    }
  });

  test.each([
    ['the package', esmNotFound('vega'), 'vega', true],
    [
      'a subpath of it',
      cjsNotFound('@tensorflow/tfjs-backend-wasm/package.json'),
      '@tensorflow/tfjs-backend-wasm',
      true,
    ],
    ['a package whose name it starts', esmNotFound('vega-lite'), 'vega', false],
    ['a dependency of the package', esmNotFound('pg-protocol'), 'pg', false],
    ['the same text without a not-found code', new Error("Cannot find package 'pg'"), 'pg', false],
    ['a value that is no error', "Cannot find package 'pg'", 'pg', false],
  ])('%s', (_what, error, name, expected) => {
    expect(isPackageNotFound(error, name)).toBe(expected);
  });
});

describe('optionalPackageError', () => {
  test.each<[OptionalPartName, Error, string, string]>([
    [
      'lab',
      esmNotFound('@tensorflow/tfjs'),
      'the lab (rewardkit lab) needs the package @tensorflow/tfjs, which is not installed',
      '"npm install @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4 vega@6 vega-lite@6"',
    ],
    [
      'lab',
      esmNotFound('vega-lite'),
      'needs the package vega-lite, which is not installed',
      'npm install @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4 vega@6 vega-lite@6',
    ],
    [
      'gguf',
      esmNotFound('node-llama-cpp'),
      'the local GGUF backend (backend: llama_cpp) needs the package node-llama-cpp, which is not installed',
      '"npm install node-llama-cpp@3"',
    ],
    [
      'typescript',
      cjsNotFound('typescript'),
      'running TypeScript programs in /run_code needs the package typescript, which is not installed',
      '"npm install typescript@5"',
    ],
    [
      'postgres',
      esmNotFound('pg'),
      'the PostgreSQL store needs the package pg, which is not installed',
      '"npm install pg@8"',
    ],
    [
      'sqlite',
      cjsNotFound('better-sqlite3'),
      'the SQLite store needs the package better-sqlite3, which is not installed (npm leaves it out when its native build fails',
      'install a C/C++ toolchain (python3, make, g++) and run "npm rebuild better-sqlite3"',
    ],
  ])('%s: a missing package names the feature and the install line', (part, error, says, install) => {
    const e = optionalPackageError(part, error);
    expect(e).toBeInstanceOf(RewardKitError);
    expect(e.code).toBe('RK_BACKEND_UNAVAILABLE');
    expect(e.message).toContain(says);
    expect(e.message).toContain(install);
    expect(e.message).not.toContain('\n');
    expect(e.cause).toBe(error);
  });

  test('should show any other failure with its cause, not as a missing package', () => {
    const dlopen = Object.assign(
      new Error(
        "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using NODE_MODULE_VERSION 115.",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const e = optionalPackageError('sqlite', dlopen);
    expect(e.code).toBe('RK_BACKEND_UNAVAILABLE');
    expect(e.message).toContain(
      "the SQLite store needs the package better-sqlite3, which could not be loaded (The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'):",
    );
    expect(e.message).toContain('npm rebuild better-sqlite3');
    expect(e.message).not.toContain('not installed');
    expect(e.cause).toBe(dlopen);
  });

  test('should not call a package missing when one of its own dependencies is (a broken install)', () => {
    const e = optionalPackageError('postgres', esmNotFound('pg-protocol'));
    expect(e.message).toContain(
      "the PostgreSQL store needs the package pg, which could not be loaded (Cannot find package 'pg-protocol'",
    );
    expect(e.message).toContain('npm install pg@8');
    expect(e.message).not.toContain('not installed');
  });

  test("should name all of a part's packages when it cannot tell which one failed", () => {
    const e = optionalPackageError('lab', new SyntaxError('Unexpected token'));
    expect(e.message).toContain(
      'needs the packages @tensorflow/tfjs, @tensorflow/tfjs-backend-wasm, vega, vega-lite, which could not be loaded (Unexpected token)',
    );
  });
});

describe('importOptional and requireOptional', () => {
  test('should return what loads', async () => {
    await expect(importOptional('postgres', async () => 42)).resolves.toBe(42);
    expect(requireOptional<{ z: unknown }>('postgres', 'zod').z).toBeDefined();
  });

  test("should turn a failed load into the part's error", async () => {
    const missing = esmNotFound('pg');
    const e = await importOptional('postgres', () => Promise.reject(missing)).catch(
      (error: unknown) => error,
    );
    expect(RewardKitError.isInstance(e) && e.code).toBe('RK_BACKEND_UNAVAILABLE');
    expect((e as Error).message).toContain('npm install pg@8');
    expect((e as Error).cause).toBe(missing);
    expect(() => requireOptional('typescript', NOT_A_PACKAGE)).toThrow(
      /running TypeScript programs in \/run_code needs the package typescript, which could not be loaded \(Cannot find module 'rk-no-such-package-anywhere'\): install it/,
    );
  });

  test("should pass an error of rewardkit's own through unchanged", async () => {
    const own = new RewardKitError('RK_BACKEND_UNAVAILABLE', 'the tfjs WASM backend could not start');
    await expect(importOptional('lab', () => Promise.reject(own))).rejects.toBe(own);
  });
});
