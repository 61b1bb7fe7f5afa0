import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { RewardKitError } from '../core/index.js';
import { abandonedRunSummary } from './abandoned-run-summary.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';
import { newRunId } from './new-run-id.js';
import { DEFAULT_RUN_LEASE_MS, type RunLease, startRunLease } from './run-lease.js';
import { createRunMemo, LISTS_KEPT } from './run-memo.js';
import { type RunVersion, type StoredSourceStats, sourceStatsKey } from './run-version.js';
import { labelRow, type SampleLabel } from './sample-label.js';
import { specHash } from './spec-hash.js';
import {
  SQLITE_CHECKPOINT_PAGES,
  type SqliteCheckpointer,
  startSqliteCheckpointer,
  WRITER_CHECKPOINT_PAGES,
} from './sqlite-checkpointer.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import {
  encodeSqliteResults,
  RESULT_COLUMNS,
  RESULT_PLACEHOLDERS,
  RESULT_UPDATE,
  type SqliteResultRow,
} from './sqlite-result-rows.js';
import { sqliteRunTotals, sqliteRunViews } from './sqlite-run-views.js';
import { sqliteShardMerge } from './sqlite-shard-merge.js';
import type { NewRun, RunRecord, SourceStat, Store } from './store.js';
import {
  resultFromRow,
  type StoredResultRow,
  type StoredSourceStatRow,
  sourceStatFromRow,
} from './stored-rows.js';

interface RunRow {
  id: string;
  created_at: string;
  finished_at: string | null;
  spec_name: string;
  spec: string;
  spec_hash: string;
  input: string | null;
  output: string | null;
  status: RunRecord['status'];
  summary: string | null;
  heartbeat_at?: string | null;
}

/** How long a write waits for another process's write lock before failing (better-sqlite3's default). */
const LOCK_WAIT_MS = 5000;

/** The SQLite store, which can also save rows another process encoded (`serve --processes`). */
export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  /** The file (or `:memory:`), for a second connection such as `score --workers`' writer thread. */
  readonly path: string;
  /** Saves rows made by `encodeSqliteResults`, in one transaction (as `saveResults` does). */
  saveEncodedResults(runId: string, rows: readonly SqliteResultRow[]): Promise<void>;
  /**
   * Moves what the shards of `runId` (of every run without it) hold and `results` does not yet
   * into `results`, a transaction per batch; resolves with the rows merged. Safe beside writers
   * appending to the shards and beside other merges: each shard's merged sequence is kept in the
   * same transaction as its rows, so nothing is merged twice or skipped after a crash.
   */
  mergeShards(runId?: string): Promise<number>;
  /** Merges a run's shards, then deletes them: only once no process appends to them any more. */
  removeShards(runId: string): Promise<void>;
}

/**
 * Opens (creating and migrating as needed) a SQLite store at `path`, or an in-memory one for
 * `:memory:`. File databases use WAL, so readers (`rewardkit runs`) never block a scoring run.
 */
export function openSqliteStore(
  path: string,
  options: {
    readonly?: boolean;
    /** Merge the shards a server left (default true; the shard merger's thread merges them itself). */
    recoverShards?: boolean;
    /**
     * A running run whose process has not renewed its heartbeat for this long is closed as
     * `interrupted` (default 60 000 ms; see `startRunLease`). Not for read-only or `:memory:` stores.
     */
    leaseMs?: number;
  } = {},
): SqliteStore {
  const BetterSqlite3 = loadBetterSqlite3();
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new BetterSqlite3(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new RewardKitError('RK_STORE', `Cannot open the store ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    if (path !== ':memory:' && !options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    db.pragma('foreign_keys = ON');
    if (options.readonly) checkSchema(db, path);
    else migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof RewardKitError) throw error;
    throw new RewardKitError(
      'RK_STORE',
      `The store ${path} is not a rewardkit store or is damaged (${(error as Error).message}); point --store at the file rewardkit score wrote`,
      { cause: error },
    );
  }

  const statements = {
    insertRun: db.prepare(
      `INSERT INTO runs (id, created_at, finished_at, spec_name, spec, spec_hash, input, output, status, summary,
                         heartbeat_at)
       VALUES (@id, @created_at, NULL, @spec_name, @spec, @spec_hash, @input, @output, 'running', NULL, @created_at)`,
    ),
    getRun: db.prepare('SELECT * FROM runs WHERE id = ?'),
    getCached: db
      .prepare(
        'SELECT value FROM llm_cache WHERE key = ? AND (expires_at IS NULL OR expires_at > ?) AND created_at > ?',
      )
      .pluck(),
    getState: db.prepare('SELECT value FROM state WHERE key = ?').pluck(),
    putState: db.prepare(
      'INSERT INTO state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    ),
    putLabel: db.prepare(
      `INSERT INTO labels (run_id, sample_id, kind, score, note, labeled_at)
       VALUES (@run_id, @sample_id, @kind, @score, @note, @labeled_at)
       ON CONFLICT (run_id, sample_id) DO UPDATE SET kind = excluded.kind, score = excluded.score,
         note = excluded.note, labeled_at = excluded.labeled_at`,
    ),
    listLabels: db.prepare(
      'SELECT * FROM labels WHERE run_id = @runId AND (@sampleId IS NULL OR sample_id = @sampleId) ORDER BY sample_id',
    ),
    putCached: db.prepare(
      'INSERT INTO llm_cache (key, value, created_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at, expires_at = excluded.expires_at',
    ),
    listRuns: db.prepare('SELECT * FROM runs ORDER BY created_at DESC, id DESC LIMIT ?'),
    findResumable: db.prepare(
      `SELECT * FROM runs WHERE spec_hash = @spec_hash AND input IS @input AND output IS @output
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    ),
    reopenRun: db.prepare(
      `UPDATE runs SET status = 'running', finished_at = NULL, heartbeat_at = @now WHERE id = @id`,
    ),
    finishRun: db.prepare('UPDATE runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?'),
    // A fresh row is a plain insert; a row saved again (resume, a retried request) is updated in
    // place and moved last, as a new rowid would list it, so no DELETE runs for a fresh run.
    upsertResult: db.prepare(
      `INSERT INTO results (${RESULT_COLUMNS})
       VALUES (${RESULT_PLACEHOLDERS})
       ON CONFLICT (run_id, sample_id) DO UPDATE SET ${RESULT_UPDATE},
         rowid = (SELECT MAX(rowid) FROM results) + 1`,
    ),
    getResult: db.prepare('SELECT * FROM results WHERE run_id = ? AND sample_id = ?'),
    completedIds: db.prepare('SELECT sample_id FROM results WHERE run_id = ?').pluck(),
    failures: db.prepare(
      `SELECT sample_id, errors FROM results WHERE run_id = ? AND status = 'failed' ORDER BY sample_id`,
    ),
    sourceStats: db.prepare(
      `SELECT source,
              SUM(CASE WHEN invalid = 0 AND score IS NOT NULL THEN 1 ELSE 0 END) AS count,
              AVG(CASE WHEN invalid = 0 THEN score END) AS mean,
              SUM(invalid) AS invalid,
              SUM(llm_calls) AS llm_calls,
              SUM(prompt_tokens) AS prompt_tokens,
              SUM(completion_tokens) AS completion_tokens,
              SUM(cache_hits) AS cache_hits,
              SUM(cost_usd) AS cost_usd
       FROM (SELECT e.key AS position, e.value ->> '$.source' AS source, e.value ->> '$.score' AS score,
                    e.value ->> '$.invalid' AS invalid, e.value ->> '$.usage.calls' AS llm_calls,
                    e.value ->> '$.usage.prompt_tokens' AS prompt_tokens,
                    e.value ->> '$.usage.completion_tokens' AS completion_tokens,
                    e.value ->> '$.usage.cache_hits' AS cache_hits,
                    e.value ->> '$.usage.cost_usd' AS cost_usd
             FROM results, json_each(results.evidence) AS e WHERE results.run_id = ?)
       GROUP BY source ORDER BY MIN(position), source`,
    ),
    lastRowid: db
      .prepare(
        'SELECT rowid FROM results INDEXED BY results_position WHERE run_id = ? ORDER BY rowid DESC LIMIT 1',
      )
      .pluck(),
    // Both from the results_position index (run_id, then rowid): no row is read.
    version: db
      .prepare(
        `SELECT COUNT(*) || ':' || COALESCE(SUM(rowid), 0) FROM results INDEXED BY results_position
         WHERE run_id = ?`,
      )
      .pluck(),
  };

  // Memoised aggregates need only notice a change, not say what the run holds (the version, kept
  // with a finished run's statistics, does, reading the whole index): a run's largest rowid, one
  // index step, moves on every save, as a new row or one saved again takes a rowid above every
  // row of the table and rows are only deleted with their run.
  const changeMark = async (runId: string) => String(statements.lastRowid.get(runId) ?? 0);
  const memo = createRunMemo(changeMark);
  const liveSourceStats = (runId: string): SourceStat[] =>
    (statements.sourceStats.all(runId) as StoredSourceStatRow[]).map(sourceStatFromRow);
  // The statistics and the version they cover, read in one transaction: one snapshot of the run.
  const sourceStatsSnapshot = db.transaction(
    (runId: string): StoredSourceStats => ({
      version: statements.version.get(runId) as RunVersion,
      sources: liveSourceStats(runId),
    }),
  );

  const saveRows = db.transaction((runId: string, rows: readonly SqliteResultRow[]) => {
    const now = new Date().toISOString();
    for (const row of rows) statements.upsertResult.run(runId, now, ...row);
  });
  // Started by the first save, so commands that only read or migrate the file start no thread;
  // null where none could start (the writer's own checkpoints then do the work, as they did).
  let checkpointer: SqliteCheckpointer | null | undefined = path === ':memory:' ? null : undefined;
  const committed = () => {
    if (checkpointer === undefined) {
      try {
        checkpointer = startSqliteCheckpointer(path);
        db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
      } catch {
        checkpointer = null;
      }
    }
    if (checkpointer && !checkpointer.running) {
      // The thread is gone: the writer's own checkpoints keep the log short again, as without one.
      db.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_PAGES}`);
      checkpointer = null;
    }
    checkpointer?.committed();
  };
  // Another process (a server's shard merger, `score` beside a server) may hold
  // the write lock. SQLite's own busy wait would sleep on the event loop, stalling every request
  // of this process; instead ask for the lock without waiting and retry after a timer, while the
  // server goes on answering (and its write-behind batch grows, so contention itself makes
  // transactions fewer).
  const saveEncodedResults = async (runId: string, rows: readonly SqliteResultRow[]) => {
    let waitedMs = 0;
    for (let pause = 1; ; pause = Math.min(pause * 2, 32)) {
      db.pragma('busy_timeout = 0');
      try {
        saveRows.immediate(runId, rows);
        committed();
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waitedMs >= LOCK_WAIT_MS) throw error;
      } finally {
        db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      waitedMs += pause;
    }
  };

  const shards = path === ':memory:' || options.readonly ? undefined : sqliteShardMerge(db, path, committed);
  // What a server that died left in its shards becomes visible when the file is next opened for
  // writing; the shards of a run that has ended go.
  if (options.recoverShards !== false) shards?.recover();

  const views = sqliteRunViews(db, memo, createRunMemo(changeMark, LISTS_KEPT));
  const leaseMs = options.leaseMs ?? DEFAULT_RUN_LEASE_MS;
  // Heartbeats are ISO times of this machine's clock: the processes sharing a SQLite file share it.
  const staleSince = () => new Date(Date.now() - leaseMs).toISOString();
  const staleRuns = db
    .prepare(`SELECT id FROM runs WHERE status = 'running' AND COALESCE(heartbeat_at, created_at) < ?`)
    .pluck();
  const closeStale = db.prepare(
    `UPDATE runs SET status = 'interrupted', finished_at = @now, summary = @summary
     WHERE id = @id AND status = 'running' AND COALESCE(heartbeat_at, created_at) < @since`,
  );
  const renew = db.prepare(
    `UPDATE runs SET heartbeat_at = @now, status = 'running', finished_at = NULL,
                     summary = CASE WHEN status = 'interrupted' THEN NULL ELSE summary END
     WHERE id = @id AND status <> 'finished'`,
  );
  const runTotals = sqliteRunTotals(db);
  // Each run's counts and its closing in one transaction: no save of its lands in between.
  const closeStaleRuns = db.transaction((): string[] => {
    const closed: string[] = [];
    for (const id of staleRuns.all(staleSince()) as string[]) {
      const summary = abandonedRunSummary(runTotals(id), leaseMs);
      const now = new Date().toISOString();
      const { changes } = closeStale.run({ id, now, summary: JSON.stringify(summary), since: staleSince() });
      if (changes > 0) closed.push(id);
    }
    return closed;
  });
  // The write lock is taken only when a run is stale, which is rare.
  const sweep = (): string[] => (staleRuns.all(staleSince()).length === 0 ? [] : closeStaleRuns.immediate());
  const renewAll = db.transaction((ids: readonly string[]) => {
    const now = new Date().toISOString();
    for (const id of ids) renew.run({ id, now });
  });
  // A beat never waits for another process's write lock on the event loop (see saveEncodedResults):
  // a busy file fails it at once, and the next beat, a quarter of a lease later, tries again.
  const withoutWaiting = (write: () => unknown) => {
    db.pragma('busy_timeout = 0');
    try {
      write();
    } finally {
      db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    }
  };
  let lease: RunLease | undefined;
  // Read-only and in-memory stores own no runs another process could find abandoned.
  if (shards) {
    try {
      sweep();
    } catch (error) {
      // A file busy past the lock wait is swept by the first beat instead.
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
    lease = startRunLease({
      leaseMs,
      // A run the lease closed while its owner was stalled is running again.
      renew: async (ids) => withoutWaiting(() => renewAll.immediate(ids)),
      closeStale: async () => withoutWaiting(sweep),
    });
  }

  return {
    kind: 'sqlite',
    path,
    async createRun(run: NewRun) {
      const record = {
        id: run.id ?? newRunId(),
        created_at: new Date().toISOString(),
        spec_name: run.spec_name,
        spec: JSON.stringify(run.spec),
        spec_hash: specHash(run.spec),
        input: run.input ?? null,
        output: run.output ?? null,
      };
      statements.insertRun.run(record);
      lease?.own(record.id);
      return toRun(statements.getRun.get(record.id) as RunRow);
    },
    async getRun(id) {
      const row = statements.getRun.get(id) as RunRow | undefined;
      return row && toRun(row);
    },
    async listRuns(options = {}) {
      return (statements.listRuns.all(options.limit ?? 50) as RunRow[]).map(toRun);
    },
    async findResumableRun(options) {
      const row = statements.findResumable.get({
        spec_hash: options.spec_hash,
        input: options.input ?? null,
        output: options.output ?? null,
      }) as RunRow | undefined;
      if (!row) return undefined;
      statements.reopenRun.run({ id: row.id, now: new Date().toISOString() });
      lease?.own(row.id);
      return toRun(statements.getRun.get(row.id) as RunRow);
    },
    async finishRun(id, summary, status = 'finished', sources) {
      lease?.release(id);
      const now = new Date().toISOString();
      statements.finishRun.run(now, status, JSON.stringify(summary), id);
      // A finished run's per-source statistics are kept, so that reading them is one lookup
      // (an interrupted run is left as it is: stopping must stay quick, and it is often resumed).
      if (status === 'finished') {
        const kept: StoredSourceStats = sources
          ? { version: statements.version.get(id) as RunVersion, sources }
          : sourceStatsSnapshot(id);
        statements.putState.run(sourceStatsKey(id), JSON.stringify(kept), now);
      }
    },
    async saveResults(runId, results, options = {}) {
      await saveEncodedResults(runId, encodeSqliteResults(results, options));
    },
    saveEncodedResults,
    async mergeShards(runId) {
      return shards?.merge(runId) ?? 0;
    },
    async removeShards(runId) {
      shards?.remove(runId);
    },
    async getResult(runId, sampleId) {
      const row = statements.getResult.get(runId, sampleId) as StoredResultRow | undefined;
      return row && resultFromRow(row, JSON.parse);
    },
    async listResults(runId, options = {}) {
      const rows = db
        .prepare(
          `SELECT * FROM results WHERE run_id = ? ${options.status ? 'AND status = ?' : ''}
           ${options.requestId ? 'AND request_id = ?' : ''} ORDER BY rowid LIMIT ? OFFSET ?`,
        )
        .all(
          ...[
            runId,
            ...(options.status ? [options.status] : []),
            ...(options.requestId ? [options.requestId] : []),
            options.limit ?? -1,
            options.offset ?? 0,
          ],
        ) as StoredResultRow[];
      return rows.map((row) => resultFromRow(row, JSON.parse));
    },
    async completedIds(runId) {
      return new Set(statements.completedIds.all(runId) as string[]);
    },
    async listFailures(runId) {
      const rows = statements.failures.all(runId) as { sample_id: string; errors: string }[];
      return rows.map((row) => ({ sample_id: row.sample_id, reasons: JSON.parse(row.errors) as string[] }));
    },
    async sourceStats(runId) {
      return memo.get(runId, 'sources', async () => {
        const stored = statements.getState.get(sourceStatsKey(runId)) as string | undefined;
        const kept = stored === undefined ? undefined : (JSON.parse(stored) as StoredSourceStats);
        const version = statements.version.get(runId) as RunVersion;
        return kept?.version === version ? [...kept.sources] : liveSourceStats(runId);
      });
    },
    ...views,
    async closeStaleRuns() {
      return shards ? sweep() : [];
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async getCachedResponse(key, now, maxAgeMs) {
      const createdAfter = maxAgeMs === undefined ? Number.NEGATIVE_INFINITY : now - maxAgeMs;
      return statements.getCached.get(key, now, createdAfter) as string | undefined;
    },
    async putCachedResponse(key, value, now, expiresAt) {
      statements.putCached.run(key, value, now, expiresAt);
    },
    async getState(key) {
      const value = statements.getState.get(key) as string | undefined;
      return value === undefined ? undefined : (JSON.parse(value) as unknown);
    },
    async putState(key, value) {
      statements.putState.run(key, JSON.stringify(value), new Date().toISOString());
    },
    async putLabel(runId, sampleId, label) {
      const row = labelRow(runId, sampleId, label, new Date());
      statements.putLabel.run(row);
      return row;
    },
    async listLabels(runId, options = {}) {
      return statements.listLabels.all({ runId, sampleId: options.sampleId ?? null }) as SampleLabel[];
    },
    async close() {
      lease?.stop();
      await checkpointer?.stop();
      if (db.open) db.close();
    },
  };
}

const LATEST_VERSION = sqliteMigrations.at(-1)?.version ?? 0;

function schemaVersion(db: Database.Database): number {
  return (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
}

function refuseNewer(current: number, path: string): void {
  if (current > LATEST_VERSION) {
    throw new RewardKitError(
      'RK_STORE',
      `The store ${path} has schema version ${current}, newer than this rewardkit understands (${LATEST_VERSION}); upgrade rewardkit or use another --store`,
    );
  }
}

/**
 * A read-only store cannot migrate, so it must already be at this rewardkit's schema; an older or
 * newer one is refused with what to do about it (one that is no store at all fails to read here).
 */
function checkSchema(db: Database.Database, path: string): void {
  const current = schemaVersion(db);
  if (current < LATEST_VERSION) {
    throw new RewardKitError(
      'RK_STORE',
      `The store ${path} has schema version ${current}, older than this rewardkit's (${LATEST_VERSION}); upgrade it in place by opening it once for writing, e.g. rewardkit runs list --store ${path}`,
    );
  }
  refuseNewer(current, path);
}

function migrate(db: Database.Database, path: string): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const current = schemaVersion(db);
  refuseNewer(current, path);
  const apply = db.transaction(() => {
    for (const step of sqliteMigrations) {
      if (step.version <= current) continue;
      if ('sql' in step) db.exec(step.sql);
      else step.apply(db);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        step.version,
        new Date().toISOString(),
      );
    }
  });
  apply();
}

function toRun({ heartbeat_at: _, ...row }: RunRow): RunRecord {
  return {
    ...row,
    spec: JSON.parse(row.spec) as unknown,
    summary: row.summary === null ? null : (JSON.parse(row.summary) as unknown),
  };
}
