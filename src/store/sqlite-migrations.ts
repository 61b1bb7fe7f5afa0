import type Database from 'better-sqlite3';
import { evidenceFromRow, type StoredEvidenceRow } from './stored-rows.js';

/** One schema step: SQL, or a function for a step that must reshape data SQL cannot rebuild exactly. */
export type SqliteMigration =
  | { readonly version: number; readonly sql: string }
  | { readonly version: number; readonly apply: (db: Database.Database) => void };

/**
 * Schema versions of the SQLite store, applied in order at open. Never edit a released step:
 * add a new one, so that every older database upgrades the same way.
 */
export const sqliteMigrations: readonly SqliteMigration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        spec_name TEXT NOT NULL,
        spec TEXT NOT NULL,
        spec_hash TEXT NOT NULL,
        input TEXT,
        output TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
        summary TEXT
      );
      CREATE INDEX runs_resume ON runs (spec_hash, output, created_at);
      CREATE TABLE results (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        sample_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        reward REAL,
        components TEXT NOT NULL,
        errors TEXT NOT NULL,
        warnings TEXT NOT NULL,
        data_source TEXT,
        group_id TEXT,
        total_ms REAL NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, sample_id)
      );
      CREATE INDEX results_status ON results (run_id, status);
      CREATE TABLE evidence (
        run_id TEXT NOT NULL,
        sample_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        source TEXT NOT NULL,
        kind TEXT NOT NULL,
        score REAL,
        verdict TEXT NOT NULL,
        invalid INTEGER NOT NULL,
        veto INTEGER NOT NULL,
        reason TEXT,
        detail TEXT,
        elapsed_ms REAL NOT NULL,
        PRIMARY KEY (run_id, sample_id, position),
        FOREIGN KEY (run_id, sample_id) REFERENCES results (run_id, sample_id) ON DELETE CASCADE
      );
      CREATE INDEX evidence_source ON evidence (run_id, source);
      CREATE TABLE failures (
        run_id TEXT NOT NULL,
        sample_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (run_id, sample_id, position),
        FOREIGN KEY (run_id, sample_id) REFERENCES results (run_id, sample_id) ON DELETE CASCADE
      );
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER
      );
    `,
  },
  {
    version: 3,
    // LLM usage per piece of evidence: NULL for sources that call no model.
    sql: `
      ALTER TABLE evidence ADD COLUMN llm_calls INTEGER;
      ALTER TABLE evidence ADD COLUMN prompt_tokens INTEGER;
      ALTER TABLE evidence ADD COLUMN completion_tokens INTEGER;
      ALTER TABLE evidence ADD COLUMN llm_latency_ms REAL;
      ALTER TABLE evidence ADD COLUMN llm_retries INTEGER;
      ALTER TABLE evidence ADD COLUMN cache_hits INTEGER;
    `,
  },
  {
    version: 4,
    // Server requests: results carry the request that produced them. Named state documents
    // (CLIPO head weights per run, frozen RFN reference statistics, Tri-Factor EMA state).
    sql: `
      ALTER TABLE results ADD COLUMN request_id TEXT;
      CREATE INDEX results_request ON results (request_id);
      CREATE TABLE state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    // A result's evidence moves into one JSON column of its row, and failures are read from the
    // row's errors: saving a result becomes one upsert, with no DELETEs of child rows.
    apply: moveEvidenceIntoResults,
  },
  {
    version: 6,
    // Failures are the only rows read by status: a partial index on them replaces the index of
    // every row's status, one B-tree fewer to maintain per saved result (+18% rows/s measured).
    sql: `
      DROP INDEX results_status;
      CREATE INDEX results_failed ON results (run_id, sample_id) WHERE status = 'failed';
    `,
  },
  {
    version: 7,
    // The inspector (`rewardkit view`): the text each result judged, and the two orders it pages a
    // run's results in without sorting them all — input order (an index on run_id alone keeps
    // rowid order within a run) and reward.
    sql: `
      ALTER TABLE results ADD COLUMN prompt TEXT;
      ALTER TABLE results ADD COLUMN response TEXT;
      CREATE INDEX results_position ON results (run_id);
      CREATE INDEX results_reward ON results (run_id, reward);
    `,
  },
  {
    version: 8,
    // Only server results have a request id: `score`'s rows (NULL) no longer enter the index
    // (about 0.5 µs of a 7 µs insert). `request_id = ?` implies NOT NULL, so lookups still use it.
    sql: `
      DROP INDEX results_request;
      CREATE INDEX results_request ON results (request_id) WHERE request_id IS NOT NULL;
    `,
  },
  {
    version: 9,
    // The lease of a running run (ISO time of its process's last heartbeat): a run whose heartbeat
    // is older than the lease is closed as interrupted by the next store that looks, since its
    // process is gone. A run running at the upgrade gets a fresh one, so a live older process has
    // one lease to finish in.
    sql: `
      ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
      UPDATE runs SET heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE status = 'running';
      CREATE INDEX runs_running ON runs (heartbeat_at) WHERE status = 'running';
    `,
  },
  {
    version: 10,
    // Labels a person gives samples in the inspector (`rewardkit view --allow-labels`), beside the
    // results and read by calibration; no foreign key, so a label outlives a rescored result.
    sql: `
      CREATE TABLE labels (
        run_id TEXT NOT NULL,
        sample_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('correct', 'incorrect', 'score')),
        score REAL,
        note TEXT,
        labeled_at TEXT NOT NULL,
        PRIMARY KEY (run_id, sample_id)
      );
    `,
  },
  {
    version: 11,
    // The inspector's sample page: the reference each result was judged against (JSON text, one
    // string or several), beside the prompt and response of version 7.
    sql: `ALTER TABLE results ADD COLUMN reference TEXT;`,
  },
];

/**
 * Rebuilds each result's evidence array from the old per-piece rows with the same mapping the
 * store used to read them back, so a JSON `null` in `detail` and absent optional fields survive.
 */
function moveEvidenceIntoResults(db: Database.Database): void {
  db.exec(`ALTER TABLE results ADD COLUMN evidence TEXT NOT NULL DEFAULT '[]'`);
  const grouped = new Map<string, { runId: string; sampleId: string; evidence: unknown[] }>();
  const rows = db
    .prepare('SELECT * FROM evidence ORDER BY run_id, sample_id, position')
    .all() as (StoredEvidenceRow & {
    run_id: string;
  })[];
  for (const row of rows) {
    const key = JSON.stringify([row.run_id, row.sample_id]);
    const entry = grouped.get(key) ?? { runId: row.run_id, sampleId: row.sample_id, evidence: [] };
    entry.evidence.push(evidenceFromRow(row, JSON.parse));
    grouped.set(key, entry);
  }
  const update = db.prepare('UPDATE results SET evidence = ? WHERE run_id = ? AND sample_id = ?');
  for (const { runId, sampleId, evidence } of grouped.values()) {
    update.run(JSON.stringify(evidence), runId, sampleId);
  }
  db.exec('DROP TABLE evidence; DROP TABLE failures;');
}
