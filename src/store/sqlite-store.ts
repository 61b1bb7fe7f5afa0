import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { RewardKitError, type RewardResult } from '../core/index.js';
import { newRunId } from './new-run-id.js';
import { specHash } from './spec-hash.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import type { NewRun, RunRecord, Store } from './store.js';
import {
  evidenceFromRow,
  resultFromRow,
  type StoredEvidenceRow,
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
}

/**
 * Opens (creating and migrating as needed) a SQLite store at `path`, or an in-memory one for
 * `:memory:`. File databases use WAL, so readers (`rewardkit runs`) never block a scoring run.
 */
export function openSqliteStore(path: string, options: { readonly?: boolean } = {}): Store {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new RewardKitError('RK_STORE', `Cannot open the store ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (path !== ':memory:' && !options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if (!options.readonly) migrate(db, path);

  const statements = {
    insertRun: db.prepare(
      `INSERT INTO runs (id, created_at, finished_at, spec_name, spec, spec_hash, input, output, status, summary)
       VALUES (@id, @created_at, NULL, @spec_name, @spec, @spec_hash, @input, @output, 'running', NULL)`,
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
    putCached: db.prepare(
      'INSERT INTO llm_cache (key, value, created_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at, expires_at = excluded.expires_at',
    ),
    listRuns: db.prepare('SELECT * FROM runs ORDER BY created_at DESC, id DESC LIMIT ?'),
    findResumable: db.prepare(
      `SELECT * FROM runs WHERE spec_hash = @spec_hash AND input IS @input AND output IS @output
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    ),
    reopenRun: db.prepare(`UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?`),
    finishRun: db.prepare('UPDATE runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?'),
    upsertResult: db.prepare(
      `INSERT OR REPLACE INTO results
         (run_id, sample_id, status, reward, components, errors, warnings, data_source, group_id, total_ms, created_at, request_id)
       VALUES (@run_id, @sample_id, @status, @reward, @components, @errors, @warnings, @data_source, @group_id, @total_ms, @created_at, @request_id)`,
    ),
    deleteEvidence: db.prepare('DELETE FROM evidence WHERE run_id = ? AND sample_id = ?'),
    deleteFailures: db.prepare('DELETE FROM failures WHERE run_id = ? AND sample_id = ?'),
    insertEvidence: db.prepare(
      `INSERT INTO evidence (run_id, sample_id, position, source, kind, score, verdict, invalid, veto, reason, detail, elapsed_ms,
                             llm_calls, prompt_tokens, completion_tokens, llm_latency_ms, llm_retries, cache_hits)
       VALUES (@run_id, @sample_id, @position, @source, @kind, @score, @verdict, @invalid, @veto, @reason, @detail, @elapsed_ms,
               @llm_calls, @prompt_tokens, @completion_tokens, @llm_latency_ms, @llm_retries, @cache_hits)`,
    ),
    insertFailure: db.prepare(
      'INSERT INTO failures (run_id, sample_id, position, reason) VALUES (?, ?, ?, ?)',
    ),
    getResult: db.prepare('SELECT * FROM results WHERE run_id = ? AND sample_id = ?'),
    evidenceOf: db.prepare('SELECT * FROM evidence WHERE run_id = ? AND sample_id = ? ORDER BY position'),
    completedIds: db.prepare('SELECT sample_id FROM results WHERE run_id = ?').pluck(),
    failures: db.prepare(
      'SELECT sample_id, reason FROM failures WHERE run_id = ? ORDER BY sample_id, position',
    ),
    sourceStats: db.prepare(
      `SELECT source,
              SUM(CASE WHEN invalid = 0 AND score IS NOT NULL THEN 1 ELSE 0 END) AS count,
              AVG(CASE WHEN invalid = 0 THEN score END) AS mean,
              SUM(invalid) AS invalid,
              SUM(llm_calls) AS llm_calls,
              SUM(prompt_tokens) AS prompt_tokens,
              SUM(completion_tokens) AS completion_tokens,
              SUM(cache_hits) AS cache_hits
       FROM evidence WHERE run_id = ? GROUP BY source ORDER BY MIN(position), source`,
    ),
  };

  const saveMany = db.transaction(
    (runId: string, results: readonly RewardResult[], requestId: string | null) => {
      const now = new Date().toISOString();
      for (const result of results) {
        statements.deleteEvidence.run(runId, result.id);
        statements.deleteFailures.run(runId, result.id);
        statements.upsertResult.run({
          run_id: runId,
          sample_id: result.id,
          status: result.status,
          reward: result.reward,
          components: JSON.stringify(result.components),
          errors: JSON.stringify(result.errors),
          warnings: JSON.stringify(result.warnings),
          data_source: result.data_source ?? null,
          group_id: result.group ?? null,
          total_ms: result.timings.total_ms,
          created_at: now,
          request_id: requestId,
        });
        result.evidence.forEach((e, position) => {
          statements.insertEvidence.run({
            run_id: runId,
            sample_id: result.id,
            position,
            source: e.source,
            kind: e.kind,
            score: e.score ?? null,
            verdict: e.verdict,
            invalid: e.invalid ? 1 : 0,
            veto: e.veto ? 1 : 0,
            reason: e.reason ?? null,
            detail: e.detail === undefined ? null : JSON.stringify(e.detail),
            elapsed_ms: e.elapsed_ms,
            llm_calls: e.usage?.calls ?? null,
            prompt_tokens: e.usage?.prompt_tokens ?? null,
            completion_tokens: e.usage?.completion_tokens ?? null,
            llm_latency_ms: e.usage?.latency_ms ?? null,
            llm_retries: e.usage?.retries ?? null,
            cache_hits: e.usage?.cache_hits ?? null,
          });
        });
        if (result.status === 'failed') {
          result.errors.forEach((reason, position) => {
            statements.insertFailure.run(runId, result.id, position, reason);
          });
        }
      }
    },
  );

  const toResult = (runId: string, row: StoredResultRow): RewardResult => {
    const evidence = (statements.evidenceOf.all(runId, row.sample_id) as StoredEvidenceRow[]).map((e) =>
      evidenceFromRow(e, JSON.parse),
    );
    return resultFromRow(row, evidence, JSON.parse);
  };

  return {
    kind: 'sqlite',
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
      statements.reopenRun.run(row.id);
      return toRun(statements.getRun.get(row.id) as RunRow);
    },
    async finishRun(id, summary, status = 'finished') {
      statements.finishRun.run(new Date().toISOString(), status, JSON.stringify(summary), id);
    },
    async saveResults(runId, results, options = {}) {
      saveMany(runId, results, options.requestId ?? null);
    },
    async getResult(runId, sampleId) {
      const row = statements.getResult.get(runId, sampleId) as StoredResultRow | undefined;
      return row && toResult(runId, row);
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
      return rows.map((row) => toResult(runId, row));
    },
    async completedIds(runId) {
      return new Set(statements.completedIds.all(runId) as string[]);
    },
    async listFailures(runId) {
      const grouped = new Map<string, string[]>();
      for (const row of statements.failures.all(runId) as { sample_id: string; reason: string }[]) {
        const reasons = grouped.get(row.sample_id) ?? [];
        reasons.push(row.reason);
        grouped.set(row.sample_id, reasons);
      }
      return [...grouped].map(([sample_id, reasons]) => ({ sample_id, reasons }));
    },
    async sourceStats(runId) {
      return (statements.sourceStats.all(runId) as StoredSourceStatRow[]).map(sourceStatFromRow);
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
    async close() {
      if (db.open) db.close();
    },
  };
}

function migrate(db: Database.Database, path: string): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const current =
    (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
  const latest = sqliteMigrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new RewardKitError(
      'RK_STORE',
      `The store ${path} has schema version ${current}, newer than this rewardkit understands (${latest}); upgrade rewardkit or use another --store`,
    );
  }
  const apply = db.transaction(() => {
    for (const step of sqliteMigrations) {
      if (step.version <= current) continue;
      db.exec(step.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        step.version,
        new Date().toISOString(),
      );
    }
  });
  apply();
}

function toRun(row: RunRow): RunRecord {
  return {
    ...row,
    spec: JSON.parse(row.spec) as unknown,
    summary: row.summary === null ? null : (JSON.parse(row.summary) as unknown),
  };
}
