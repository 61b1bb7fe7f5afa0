import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';
import { withSqliteWriterThread } from './sqlite-writer-thread.js';
import { okResult as ok, runStoreConformance } from './test-utils/store-conformance.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'rk-writer-')), 'store.sqlite');
const openThreaded = (path = tempFile()) => withSqliteWriterThread(openSqliteStore(path), path);

describe('withSqliteWriterThread', () => {
  // Everything a store does, with the saves made by the thread's own connection.
  runStoreConformance(async () => openThreaded());

  test('should commit saves in the order they were made, before each resolves', async () => {
    const path = tempFile();
    const store = openThreaded(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    // The same id saved again later wins: the saves reach the thread in order.
    const saves = Array.from({ length: 50 }, (_, i) =>
      store.saveResults(run.id, [ok('a', i), ok(`b${i}`, i)]),
    );
    await saves[0];
    expect(await store.getResult(run.id, 'b0')).toMatchObject({ reward: 0 });
    await Promise.all(saves);
    expect(await store.getResult(run.id, 'a')).toMatchObject({ reward: 49 });
    expect((await store.completedIds(run.id)).size).toBe(51);
    await store.close();
    // Closed cleanly: another connection reads everything.
    const again = openSqliteStore(path, { readonly: true });
    expect((await again.completedIds(run.id)).size).toBe(51);
    await again.close();
  });

  test('should reject a save the database refuses, naming the store, and go on saving', async () => {
    const path = tempFile();
    const store = openThreaded(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    await expect(store.saveResults('no-such-run', [ok('a', 1)])).rejects.toThrow(
      new RegExp(`Saving results to ${path.replaceAll('/', '\\/')} failed: FOREIGN KEY`),
    );
    await store.saveResults(run.id, [ok('a', 1)]);
    expect(await store.getResult(run.id, 'a')).toMatchObject({ reward: 1 });
    await store.close();
  });
});
