import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import { RewardKitError } from '../core/index.js';
import { RESULT_COLUMNS, RESULT_UPDATE } from './sqlite-result-rows.js';
import {
  listShards,
  MERGER_STALE_MS,
  mergerHeartbeatKey,
  runShardsFolder,
  SHARD_APPLICATION_ID,
  SHARD_TABLE,
  upgradeShardTable,
} from './sqlite-shard.js';

/** Rows a merge moves per transaction: long enough to cost little per row, short enough that the
 * store's other writers (a copy's fallback, `score` beside a server) are not held up long. */
const MERGE_BATCH = 16_384;
/**
 * Rows a shard keeps after they are merged before they are deleted from it: a server may run for
 * days, and its shards must not hold a second copy of every result until it stops. The pages they
 * free are reused by later appends, so a shard stays about the size of its backlog.
 */
const TRIM_ROWS = 65_536;

/** Each shard's merged sequence, in `state`, under the run and the shard's file name. */
const mergedPrefix = (runId: string) => `shard-merged:${runId}/`;
const mergedKey = (runId: string, file: string) => `${mergedPrefix(runId)}${basename(file)}`;

/** Moving a store's shards (see `SqliteShard`) into its `results`, on the store's connection. */
export interface SqliteShardMerge {
  /** Merges the shards of `runId` (of every run without it); returns the rows merged. */
  merge(runId?: string): number;
  /** Merges a run's shards, then deletes them and what `state` kept of them. */
  remove(runId: string): void;
  /**
   * At open: merges the shards of a running run whose merger is gone (its heartbeat is stale: the
   * server died), and removes those of a run that has ended. Best effort: a shard that cannot be
   * read now is left for a later open, and must not keep the store from opening.
   */
  recover(): void;
}

/** `committed`: called after each transaction, to let the store's checkpointer follow. */
export function sqliteShardMerge(
  db: Database.Database,
  path: string,
  committed: () => void,
): SqliteShardMerge {
  const statements = {
    runStatus: db.prepare('SELECT status FROM runs WHERE id = ?').pluck(),
    getState: db.prepare('SELECT value FROM state WHERE key = ?').pluck(),
    putState: db.prepare(
      'INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    ),
    // The run's merged sequences (keys from its prefix up to, not including, the next prefix:
    // '0' follows '/') and its merger's heartbeat.
    forget: db.prepare('DELETE FROM state WHERE (key >= ? AND key < ?) OR key = ?'),
  };
  const stateNumber = (key: string) =>
    Number(JSON.parse((statements.getState.get(key) as string | undefined) ?? '0'));

  // The merged sequence is read and moved in the same transaction as the rows it covers, so
  // merges from several connections at once, or after a crash, move every row once.
  const mergeBatch = db.transaction((key: string, select: Database.Statement, upsert: Database.Statement) => {
    const from = stateNumber(key);
    const { count, last } = select.get(from, MERGE_BATCH) as { count: number; last: number | null };
    if (last === null) return 0;
    upsert.run(from, last);
    statements.putState.run(key, JSON.stringify(last), new Date().toISOString());
    return count;
  });

  const trim = (key: string) => {
    const merged = stateNumber(key);
    const first = db.prepare(`SELECT MIN(seq) FROM shard.${SHARD_TABLE}`).pluck().get() as number | null;
    if (first !== null && merged - first >= TRIM_ROWS) {
      // The last merged row stays: a rowid table numbers a new row after its largest, so an
      // emptied shard would number its next appends from 1 again, below the merged sequence.
      db.prepare(`DELETE FROM shard.${SHARD_TABLE} WHERE seq < ?`).run(merged);
    }
  };

  const mergeFile = (runId: string, file: string): number => {
    db.prepare('ATTACH DATABASE ? AS shard').run(file);
    try {
      if (db.pragma('shard.application_id', { simple: true }) !== SHARD_APPLICATION_ID) {
        throw new RewardKitError('RK_STORE', `${file} is not a rewardkit shard`);
      }
      upgradeShardTable(db, 'shard');
      const select = db.prepare(
        `SELECT COUNT(*) AS count, MAX(seq) AS last
         FROM (SELECT seq FROM shard.${SHARD_TABLE} WHERE seq > ? ORDER BY seq LIMIT ?)`,
      );
      // In append order, and across shards the later save wins, as one file's upsert would have it.
      // A row saved again moves last, as the upsert moves it; the `excluded` reference makes the
      // largest rowid a correlated subquery, read again for each row (an uncorrelated one is read
      // once a statement, and a batch saving two samples again would give both the same rowid).
      const upsert = db.prepare(
        `INSERT INTO main.results (${RESULT_COLUMNS})
         SELECT ${RESULT_COLUMNS} FROM shard.${SHARD_TABLE} WHERE seq > ? AND seq <= ? ORDER BY seq
         ON CONFLICT (run_id, sample_id) DO UPDATE SET ${RESULT_UPDATE},
           rowid = (SELECT MAX(rowid) FROM main.results WHERE excluded.sample_id IS NOT NULL) + 1
         WHERE excluded.created_at >= results.created_at`,
      );
      const key = mergedKey(runId, file);
      let merged = 0;
      for (;;) {
        const count = mergeBatch.immediate(key, select, upsert);
        merged += count;
        if (count > 0) committed();
        if (count < MERGE_BATCH) break;
      }
      trim(key);
      return merged;
    } finally {
      db.exec('DETACH DATABASE shard');
    }
  };

  const merge = (runId?: string): number => {
    let merged = 0;
    for (const shards of listShards(path)) {
      if (runId !== undefined && shards.runId !== runId) continue;
      // A run deleted since (or a stray folder): its rows have nowhere to go.
      if (statements.runStatus.get(shards.runId) === undefined) continue;
      for (const file of shards.files) merged += mergeFile(shards.runId, file);
    }
    return merged;
  };

  const remove = (runId: string) => {
    merge(runId);
    rmSync(runShardsFolder(path, runId), { recursive: true, force: true });
    const prefix = mergedPrefix(runId);
    statements.forget.run(prefix, `${prefix.slice(0, -1)}0`, mergerHeartbeatKey(runId));
  };

  const mergerAlive = (runId: string) => {
    const beat = statements.getState.get(mergerHeartbeatKey(runId)) as string | undefined;
    return beat !== undefined && Date.now() - Number(JSON.parse(beat)) < MERGER_STALE_MS;
  };

  return {
    merge,
    remove,
    recover() {
      for (const shards of listShards(path)) {
        try {
          const status = statements.runStatus.get(shards.runId) as string | undefined;
          if (status !== undefined && status !== 'running') remove(shards.runId);
          else if (status !== undefined && !mergerAlive(shards.runId)) merge(shards.runId);
        } catch {
          // Left for the next open (or an explicit merge, which reports the error).
        }
      }
    },
  };
}
