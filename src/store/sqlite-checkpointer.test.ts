import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test, vi } from 'vitest';
import { startSqliteCheckpointer } from './sqlite-checkpointer.js';
import { openSqliteStore } from './sqlite-store.js';
import { okResult } from './test-utils/store-conformance.js';

/** A WAL database whose own connection never checkpoints, so only the thread under test can. */
function writerWithoutCheckpoints(): { path: string; db: Database.Database } {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-ckpt-')), 'w.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  return { path, db };
}

const insertRows = (db: Database.Database, n: number) => {
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(`row ${i} ${'x'.repeat(200)}`);
  })();
};

describe('startSqliteCheckpointer', () => {
  test('should copy committed pages into the database file from its own thread', async () => {
    const { path, db } = writerWithoutCheckpoints();
    insertRows(db, 2000);
    const before = statSync(path).size;
    const checkpointer = startSqliteCheckpointer(path);
    checkpointer.committed();
    // The rows reach the main file only through a checkpoint, and the writer takes none.
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 200 * 1000), {
      timeout: 10_000,
      interval: 20,
    });
    await checkpointer.stop();
    db.close();
    const reader = new Database(path, { readonly: true });
    expect(reader.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(2000);
    reader.close();
  });

  test('should stop promptly whenever stop comes, even in the middle of a checkpoint', async () => {
    const { path, db } = writerWithoutCheckpoints();
    // Stops land before, during and after the checkpoint of a large log: one during it, with no
    // commit after the one being copied, must still wake the thread (see stop()).
    for (let i = 0; i < 6; i++) {
      const checkpointer = startSqliteCheckpointer(path);
      await new Promise((resolve) => setTimeout(resolve, 150)); // the thread is up and waiting
      insertRows(db, 20_000);
      checkpointer.committed();
      await new Promise((resolve) => setTimeout(resolve, i));
      expect(checkpointer.running).toBe(true);
      await checkpointer.stop();
      expect(checkpointer.running).toBe(false);
      checkpointer.committed(); // after stop: ignored, not an error
      await checkpointer.stop(); // twice: resolves at once
    }
    db.close();
  });
});

describe('the SQLite store with its checkpointer', () => {
  test('should save through many commits, keep every row and close without hanging', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rk-ckpt-')), 'store.sqlite');
    const store = openSqliteStore(path);
    const run = await store.createRun({ spec_name: 's', spec: {} });
    for (let batch = 0; batch < 40; batch++) {
      await store.saveResults(
        run.id,
        Array.from({ length: 50 }, (_, i) => okResult(`s${batch}-${i}`, i % 2)),
      );
    }
    await store.close();
    const reopened = openSqliteStore(path, { readonly: true });
    expect((await reopened.completedIds(run.id)).size).toBe(2000);
    await reopened.close();
  });
});
