import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../store/index.js';
import { encodeSqliteResults } from '../store/sqlite-result-rows.js';
import { okResult } from '../store/test-utils/store-conformance.js';
import { type StoreWriter, startStoreWriter } from './store-writer.js';

async function storeWithRun() {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-store-writer-')), 's.sqlite');
  const store = openSqliteStore(path);
  const run = await store.createRun({ spec_name: 'writer', spec: {}, input: 'http' });
  return { path, store, runId: run.id };
}

/** A store with a run and a writer on its file, both closed after `use`. */
async function withWriter(
  use: (context: Awaited<ReturnType<typeof storeWithRun>> & { writer: StoreWriter }) => Promise<void>,
) {
  const context = await storeWithRun();
  const writer = startStoreWriter(context.path);
  try {
    await use({ ...context, writer });
  } finally {
    await writer.close();
    await context.store.close();
  }
}

describe('startStoreWriter', () => {
  test('commit resolves once the rows are committed: another connection reads them at once', () =>
    withWriter(async ({ store, runId, writer }) => {
      for (let batch = 0; batch < 3; batch++) {
        const rows = encodeSqliteResults([okResult(`b${batch}-0`, 1), okResult(`b${batch}-1`, 0)], {
          requestId: `req-${batch}`,
        });
        await writer.commit(runId, rows);
        const saved = await store.listResults(runId, { requestId: `req-${batch}` });
        expect(saved.map((r) => [r.id, r.reward])).toEqual([
          [`b${batch}-0`, 1],
          [`b${batch}-1`, 0],
        ]);
      }
    }));

  test('a batch the store refuses rejects its commit with the file named, and the writer goes on', () =>
    withWriter(async ({ path, store, runId, writer }) => {
      // No such run: the results' foreign key refuses the rows.
      await expect(writer.commit('no-such-run', encodeSqliteResults([okResult('x', 1)]))).rejects.toThrow(
        new RegExp(`Saving results to ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed: .*FOREIGN KEY`),
      );
      await writer.commit(runId, encodeSqliteResults([okResult('y', 1)]));
      expect((await store.listResults(runId)).map((r) => r.id)).toEqual(['y']);
    }));

  test('a stopped thread says so, and a later commit fails instead of waiting for an answer', async () => {
    const { path, store, runId } = await storeWithRun();
    const writer = startStoreWriter(path);
    await writer.commit(runId, encodeSqliteResults([okResult('a', 1)]));
    expect(writer.stopped()).toBe(false);
    await writer.close();
    expect(writer.stopped()).toBe(true);
    // Closing a thread that is gone returns (serve closes its writer at shutdown, dead or not).
    await writer.close();
    await expect(writer.commit(runId, encodeSqliteResults([okResult('b', 1)]))).rejects.toThrow(
      /store writer .* stopped/,
    );
    await store.close();
  });
});
