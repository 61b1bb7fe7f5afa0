import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { encodeSqliteResults } from './sqlite-result-rows.js';
import { MERGER_STALE_MS, mergerHeartbeatKey, openSqliteShard, runShardsFolder } from './sqlite-shard.js';
import { startShardMerger } from './sqlite-shard-merger.js';
import { openSqliteStore } from './sqlite-store.js';
import { okResult } from './test-utils/store-conformance.js';

async function storeWithRun() {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-shard-')), 's.sqlite');
  const store = openSqliteStore(path);
  const run = await store.createRun({ spec_name: 'serve:math', spec: {}, input: 'http' });
  return { path, store, runId: run.id, folder: runShardsFolder(path, run.id) };
}

const rows = (ids: readonly string[], reward = 1, requestId = 'req') =>
  encodeSqliteResults(
    ids.map((id) => okResult(id, reward)),
    { requestId },
  );

const ids = (n: number, prefix = 's') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Polls `done` until it holds or `ms` pass: a merger thread's start and first pass take well under
 * a second on an idle machine but several on a loaded one, and the assertions after the wait
 * decide the test either way.
 */
async function waitUntil(done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) await tick();
}

/** What another connection to the store merges of the run's shards now. */
async function mergedElsewhere(path: string, runId: string): Promise<number> {
  const other = openSqliteStore(path);
  try {
    return await other.mergeShards(runId);
  } finally {
    await other.close();
  }
}

describe('SQLite shards', () => {
  test('a merge moves what a shard holds into results once, and later appends on the next merge', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const shard = openSqliteShard(join(folder, '1.sqlite'));
    try {
      shard.append(runId, rows(ids(3)));
      expect(await store.listResults(runId)).toEqual([]);
      expect(await store.mergeShards(runId)).toBe(3);
      expect(await store.mergeShards(runId)).toBe(0);
      shard.append(runId, rows(['s3', 's4']));
      expect(await store.mergeShards()).toBe(2);
      const results = await store.listResults(runId);
      expect(results.map((r) => r.id)).toEqual(ids(5));
      expect(results[0]).toEqual(okResult('s0', 1));
      expect((await store.listResults(runId, { requestId: 'req' })).length).toBe(5);
      // What was merged is remembered in the file: another connection merges nothing again.
      expect(await mergedElsewhere(path, runId)).toBe(0);
    } finally {
      shard.close();
      await store.close();
    }
  });

  test("a shard carries each sample's text and reference into results; an older shard merges without its reference", async () => {
    const { store, runId, folder } = await storeWithRun();
    const texted = (id: string) =>
      encodeSqliteResults([okResult(id, 1)], {
        samples: [{ prompt: 'Q', response: 'A', reference: ['4', '<b>four</b>'] }],
      });
    const current = openSqliteShard(join(folder, '1.sqlite'));
    const older = openSqliteShard(join(folder, '2.sqlite'));
    try {
      current.append(runId, texted('new'));
      older.append(runId, texted('old'));
    } finally {
      current.close();
      older.close();
    }
    // A shard as a rewardkit before the reference column wrote it.
    const raw = new Database(join(folder, '2.sqlite'));
    raw.exec('ALTER TABLE shard_results DROP COLUMN reference');
    raw.close();
    try {
      expect(await store.mergeShards(runId)).toBe(2);
      expect(await store.getSampleText(runId, 'new')).toEqual({
        prompt: 'Q',
        response: 'A',
        reference: ['4', '<b>four</b>'],
      });
      expect(await store.getSampleText(runId, 'old')).toEqual({ prompt: 'Q', response: 'A' });
    } finally {
      await store.close();
    }
  });

  test('merges batch by batch, and two connections merging at once move each row once', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const shards = [openSqliteShard(join(folder, 'a.sqlite')), openSqliteShard(join(folder, 'b.sqlite'))];
    const other = openSqliteStore(path);
    try {
      // More than one merge transaction's worth in the first shard.
      shards[0]?.append(runId, rows(ids(20_000, 'a')));
      shards[1]?.append(runId, rows(ids(500, 'b')));
      const [mine, theirs] = await Promise.all([store.mergeShards(runId), other.mergeShards(runId)]);
      expect((mine ?? 0) + (theirs ?? 0)).toBe(20_500);
      expect((await store.completedIds(runId)).size).toBe(20_500);
    } finally {
      for (const shard of shards) shard.close();
      await other.close();
      await store.close();
    }
  });

  test('a shard sheds what was merged once that is 65,536 rows, and goes on from where it was', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const file = join(folder, '1.sqlite');
    const shard = openSqliteShard(file);
    const held = () => {
      const reader = new Database(file, { readonly: true });
      try {
        return reader.prepare('SELECT COUNT(*) FROM shard_results').pluck().get();
      } finally {
        reader.close();
      }
    };
    try {
      shard.append(runId, rows(ids(60_000)));
      expect(await store.mergeShards(runId)).toBe(60_000);
      expect(held()).toBe(60_000);
      shard.append(runId, rows(ids(10_000, 't')));
      expect(await store.mergeShards(runId)).toBe(10_000);
      // All but the last merged row, which keeps the sequence counting on.
      expect(held()).toBe(1);
      // Appends after the trim take the next sequence numbers, and merge once.
      shard.append(runId, rows(['u0', 'u1']));
      expect(await store.mergeShards(runId)).toBe(2);
      expect((await store.completedIds(runId)).size).toBe(70_002);
      expect(await mergedElsewhere(path, runId)).toBe(0);
    } finally {
      shard.close();
      await store.close();
    }
  });

  test('the later save of a sample wins, whichever shard is merged first', async () => {
    const { store, runId, folder } = await storeWithRun();
    // Files merge in name order: "a" holds the later save, "b" the earlier one.
    const later = openSqliteShard(join(folder, 'a.sqlite'));
    const earlier = openSqliteShard(join(folder, 'b.sqlite'));
    try {
      earlier.append(runId, rows(['x'], 0, 'first'));
      await tick();
      later.append(runId, rows(['x'], 1, 'retry'));
      expect(await store.mergeShards(runId)).toBe(2);
      const [result] = await store.listResults(runId);
      expect(result?.reward).toBe(1);
      expect((await store.listResults(runId, { requestId: 'retry' })).length).toBe(1);
      // Within one shard the append order decides; several samples saved again in one merge
      // each move last, in that order.
      earlier.append(runId, rows(['y', 'z'], 1));
      earlier.append(runId, rows(['y', 'z'], 0));
      earlier.append(runId, rows(['y'], 1));
      expect(await store.mergeShards(runId)).toBe(5);
      expect((await store.getResult(runId, 'y'))?.reward).toBe(1);
      expect((await store.getResult(runId, 'z'))?.reward).toBe(0);
      expect((await store.listResults(runId)).map((r) => r.id)).toEqual(['x', 'z', 'y']);
    } finally {
      later.close();
      earlier.close();
      await store.close();
    }
  });

  test("opening the store merges what a dead server left; an ended run's shards are then deleted", async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const ended = await store.createRun({ spec_name: 'serve:math', spec: {}, input: 'http' });
    await store.finishRun(ended.id, {}, 'finished');
    await store.close();
    const running = openSqliteShard(join(folder, '1.sqlite'));
    const done = openSqliteShard(join(runShardsFolder(path, ended.id), '1.sqlite'));
    running.append(runId, rows(ids(4)));
    done.append(ended.id, rows(ids(2)));
    running.close();
    done.close();

    const reopened = openSqliteStore(path);
    try {
      expect((await reopened.listResults(runId)).length).toBe(4);
      expect((await reopened.listResults(ended.id)).length).toBe(2);
      // The running run's shards stay (its server may still be appending), the ended one's go.
      expect(existsSync(folder)).toBe(true);
      expect(existsSync(runShardsFolder(path, ended.id))).toBe(false);
      await reopened.removeShards(runId);
      expect(existsSync(folder)).toBe(false);
      expect(await reopened.getState(`shard-merged:${runId}/1.sqlite`)).toBeUndefined();
      // A read-only open merges nothing and leaves everything as it is.
      const readonly = openSqliteStore(path, { readonly: true });
      expect((await readonly.listResults(runId)).length).toBe(4);
      await readonly.close();
    } finally {
      await reopened.close();
    }
  });

  test("an open leaves a live server's shards to its merger, and takes them on once its heartbeat is stale", async () => {
    const { path, store, runId, folder } = await storeWithRun();
    await store.putState(mergerHeartbeatKey(runId), Date.now());
    await store.close();
    const shard = openSqliteShard(join(folder, '1.sqlite'));
    shard.append(runId, rows(ids(3)));
    shard.close();
    const beside = openSqliteStore(path);
    expect((await beside.completedIds(runId)).size).toBe(0);
    await beside.putState(mergerHeartbeatKey(runId), Date.now() - MERGER_STALE_MS - 1000);
    await beside.close();
    const after = openSqliteStore(path);
    try {
      expect((await after.completedIds(runId)).size).toBe(3);
      await after.removeShards(runId);
      expect(await after.getState(mergerHeartbeatKey(runId))).toBeUndefined();
    } finally {
      await after.close();
    }
  });

  test('a file that is no shard is refused by name, and does not keep the store from opening', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    await store.close();
    mkdirSync(folder, { recursive: true });
    const impostor = openSqliteStore(join(folder, 'x.sqlite'));
    await impostor.close();
    const reopened = openSqliteStore(path);
    try {
      await expect(reopened.mergeShards(runId)).rejects.toThrow(/x\.sqlite is not a rewardkit shard/);
      expect(() => openSqliteShard(join(folder, 'x.sqlite'))).toThrow(/not a rewardkit shard/);
      writeFileSync(join(folder, 'y.sqlite'), 'not a database at all');
      await expect(reopened.mergeShards(runId)).rejects.toThrow();
    } finally {
      await reopened.close();
    }
  });

  test('the shards of a run that no longer exists are left alone', async () => {
    const { store, folder } = await storeWithRun();
    const orphan = openSqliteShard(join(folder, '..', 'no-such-run', '1.sqlite'));
    orphan.append('no-such-run', rows(['z']));
    orphan.close();
    try {
      expect(await store.mergeShards()).toBe(0);
      expect(await store.getResult('no-such-run', 'z')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test('the merger says, now and then, when a pass takes long: the store file is behind the answers', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const shard = openSqliteShard(join(folder, '1.sqlite'));
    const said: string[] = [];
    const merger = startShardMerger(path, runId, (message) => said.push(message), { behindPassSeconds: 0 });
    try {
      shard.append(runId, rows(ids(10)));
      await waitUntil(() => said.length > 0);
      shard.append(runId, rows(ids(10, 't')));
      await merger.stop();
      // Once, however many passes were slow: at most one message a minute.
      expect(said).toEqual([
        expect.stringMatching(
          /^the store file is behind the answers: one merge pass took [\d.]+ s for 10 results/,
        ),
      ]);
    } finally {
      shard.close();
      await store.close();
    }
  });

  test('a merger thread that dies is started again, and stop() still ends with its error', async () => {
    const { path, store } = await storeWithRun();
    // A store path under a file: every thread fails as it opens the store.
    const said: string[] = [];
    const merger = startShardMerger(join(path, 'not-a-folder', 's.sqlite'), 'run', (message) =>
      said.push(message),
    );
    try {
      await waitUntil(() => said.includes('the shard merger stopped; starting another'));
      expect(said).toContain('the shard merger stopped; starting another');
      // Two threads at least have failed by now; each message is said once.
      await waitUntil(() => said.some((m) => m.startsWith('the shard merger failed')));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(said.filter((m) => m === 'the shard merger stopped; starting another')).toHaveLength(1);
      expect(said.filter((m) => m.startsWith('the shard merger failed'))).toHaveLength(1);
      await expect(merger.stop()).rejects.toThrow(/ENOTDIR|not a directory/);
    } finally {
      await store.close();
    }
  });

  test('the merger thread keeps merging while appends go on, and its last pass leaves nothing', async () => {
    const { path, store, runId, folder } = await storeWithRun();
    const readonly = openSqliteStore(path, { readonly: true });
    const shard = openSqliteShard(join(folder, '1.sqlite'));
    const errors: string[] = [];
    const merger = startShardMerger(path, runId, (message) => errors.push(message));
    try {
      shard.append(runId, rows(ids(100)));
      // Visible without any merge of this test's own.
      await waitUntil(async () => (await readonly.completedIds(runId)).size >= 100);
      expect((await readonly.completedIds(runId)).size).toBe(100);
      shard.append(runId, rows(ids(50, 't')));
      shard.close();
      const stopped = await merger.stop();
      expect(stopped.merged).toBe(150);
      expect(stopped.lastPass.merged).toBeLessThanOrEqual(50);
      // It said it was alive while it ran.
      expect(Date.now() - Number(await readonly.getState(mergerHeartbeatKey(runId)))).toBeLessThan(
        MERGER_STALE_MS,
      );
      expect((await readonly.completedIds(runId)).size).toBe(150);
      expect(errors).toEqual([]);
    } finally {
      shard.close();
      await readonly.close();
      await store.close();
    }
  });
});
