import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { importOptional, RewardKitError } from '../core/index.js';

export type Tf = typeof import('@tensorflow/tfjs');

let loading: Promise<Tf> | undefined;

/**
 * tfjs on its WASM backend, started once per process from the binaries shipped in
 * `@tensorflow/tfjs-backend-wasm/dist`. The full `@tensorflow/tfjs` package is needed (it
 * registers the gradients); the WASM backend is ~30× the plain JS backend on matmuls. Node has no
 * WASM threads for tfjs (it reports `WASM_HAS_MULTITHREAD_SUPPORT` false), so the SIMD
 * single-thread binary runs; where threads exist the backend picks the threaded binary itself.
 */
export function loadTf(): Promise<Tf> {
  // tfjs is optional: a missing package is the lab's one install line, not a resolution stack.
  loading ??= importOptional('lab', () =>
    startTf(
      join(
        dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm/package.json')),
        'dist',
      ),
    ),
  ).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Starts the WASM backend from the `.wasm` binaries in `wasmDir`. A missing binary or a platform
 * without WebAssembly is one `RK_BACKEND_UNAVAILABLE` line.
 */
export async function startTf(wasmDir: string): Promise<Tf> {
  const fail = (why: string, cause?: unknown) =>
    new RewardKitError(
      'RK_BACKEND_UNAVAILABLE',
      `rewardkit lab: the tfjs WASM backend could not start: ${why}`,
      {
        cause,
      },
    );
  if (typeof (globalThis as { WebAssembly?: unknown }).WebAssembly !== 'object')
    throw fail('this platform has no WebAssembly');
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(`${wasmDir}/`);
  let ok: boolean;
  try {
    ok = await tf.setBackend('wasm');
    await tf.ready();
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error), error);
  }
  if (!ok || tf.getBackend() !== 'wasm') throw fail(`no usable WASM binary in ${wasmDir}`);
  return tf;
}
