import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { RewardKitError } from '../core/index.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';
import { RESULT_COLUMNS, RESULT_PLACEHOLDERS, type SqliteResultRow } from './sqlite-result-rows.js';

/**
 * A shard: an append-only SQLite file that one `serve --processes` copy writes its results to,
 * beside the store file, so that the copies write on as many cores as they run on instead of
 * queueing for the store file's one write lock. The store merges shards into its `results` table
 * (`SqliteStore.mergeShards`): the primary continuously while it serves, and any process that
 * opens the file for writing (after a crash). A shard has no index but its sequence, so an
 * append costs a fraction of an upsert into `results` with its four indexes.
 */
export interface SqliteShard {
  readonly path: string;
  /** Appends rows made by `encodeSqliteResults` in one transaction, stamped with the save time. */
  append(runId: string, rows: readonly SqliteResultRow[]): void;
  close(): void;
}

/** Marks a file as a rewardkit shard ('RKSH'), so a merge never reads some other database. */
export const SHARD_APPLICATION_ID = 0x524b5348;

/** The table a shard holds: `results`' columns in the insert's order, after an append sequence. */
export const SHARD_TABLE = 'shard_results';

const SHARD_SCHEMA = `
  CREATE TABLE IF NOT EXISTS ${SHARD_TABLE} (
    seq INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sample_id TEXT NOT NULL,
    status TEXT NOT NULL,
    reward REAL,
    components TEXT NOT NULL,
    errors TEXT NOT NULL,
    warnings TEXT NOT NULL,
    data_source TEXT,
    group_id TEXT,
    total_ms REAL NOT NULL,
    request_id TEXT,
    evidence TEXT NOT NULL,
    prompt TEXT,
    response TEXT,
    reference TEXT
  )`;

/**
 * Adds the columns a shard written by an earlier rewardkit lacks (a crashed server's shard is
 * merged by whichever version opens the store next), so that its rows merge with NULL there.
 */
export function upgradeShardTable(db: Database.Database, schema: 'main' | 'shard'): void {
  const columns = db
    .prepare(`SELECT name FROM pragma_table_info('${SHARD_TABLE}', '${schema}')`)
    .pluck()
    .all();
  if (!columns.includes('reference'))
    db.exec(`ALTER TABLE ${schema}.${SHARD_TABLE} ADD COLUMN reference TEXT`);
}

/**
 * Where a running merger (`serve --processes`' primary) says it is alive: the time of its last
 * pass, in ms since the epoch, at most every MERGER_HEARTBEAT_MS. An open for writing merges a
 * running run's shards itself only once that is older than MERGER_STALE_MS (its server died),
 * so that `rewardkit runs` beside a busy server does not take on the server's backlog.
 */
export const mergerHeartbeatKey = (runId: string) => `shard-merger:${runId}`;
export const MERGER_HEARTBEAT_MS = 1000;
export const MERGER_STALE_MS = 60_000;

/** The folder holding the shard files of every run of the store at `storePath`. */
export const shardsFolder = (storePath: string) => `${storePath}.shards`;

/** The folder holding one run's shard files (run ids are file-name safe once encoded). */
export const runShardsFolder = (storePath: string, runId: string) =>
  join(shardsFolder(storePath), encodeURIComponent(runId));

/** The run folders under a store's shards folder and the shard files in each (none if absent). */
export function listShards(storePath: string): { runId: string; folder: string; files: string[] }[] {
  let folders: string[];
  try {
    folders = readdirSync(shardsFolder(storePath));
  } catch {
    return [];
  }
  return folders.map((name) => {
    const folder = join(shardsFolder(storePath), name);
    let files: string[] = [];
    try {
      files = readdirSync(folder)
        .filter((file) => file.endsWith('.sqlite'))
        .sort()
        .map((file) => join(folder, file));
    } catch {
      // A stray file where a run folder should be: it holds no shards.
    }
    return { runId: decodeURIComponent(name), folder, files };
  });
}

/** Creates (or reopens) the shard at `path` for appending. */
export function openSqliteShard(path: string): SqliteShard {
  const BetterSqlite3 = loadBetterSqlite3();
  mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new BetterSqlite3(path);
    db.pragma('journal_mode = WAL');
    // As the store: a committed append survives a crash of the process, a power loss may undo the last.
    db.pragma('synchronous = NORMAL');
    const id = db.pragma('application_id', { simple: true }) as number;
    const tables = db.prepare('SELECT COUNT(*) FROM sqlite_master').pluck().get() as number;
    // A fresh file becomes a shard; an existing database must already be one.
    if (id !== SHARD_APPLICATION_ID && (id !== 0 || tables > 0))
      throw new Error('it is not a rewardkit shard');
    db.pragma(`application_id = ${SHARD_APPLICATION_ID}`);
    db.exec(SHARD_SCHEMA);
    upgradeShardTable(db, 'main');
  } catch (error) {
    throw new RewardKitError('RK_STORE', `Cannot open the shard ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const insert = db.prepare(`INSERT INTO ${SHARD_TABLE} (${RESULT_COLUMNS}) VALUES (${RESULT_PLACEHOLDERS})`);
  const append = db.transaction((runId: string, rows: readonly SqliteResultRow[]) => {
    const now = new Date().toISOString();
    for (const row of rows) insert.run(runId, now, ...row);
  });
  return {
    path,
    append: (runId, rows) => append.immediate(runId, rows),
    close: () => {
      if (db.open) db.close();
    },
  };
}
