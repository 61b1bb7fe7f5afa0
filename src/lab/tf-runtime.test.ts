import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { startTf } from './tf-runtime.js';

test('a missing WASM binary is one RK_BACKEND_UNAVAILABLE line', async () => {
  // tfjs logs its own warning when a backend fails to initialize; the error is what the user sees.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const dir = join(tmpdir(), 'rewardkit-no-such-wasm-dir');
  const error = await startTf(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  warn.mockRestore();
  expect(error).toMatchObject({ code: 'RK_BACKEND_UNAVAILABLE' });
  expect((error as Error).message).toBe(
    `rewardkit lab: the tfjs WASM backend could not start: no usable WASM binary in ${dir}`,
  );
});
