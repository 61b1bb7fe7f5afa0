/**
 * Schema versions of the PostgreSQL store, applied in order at open under an advisory lock.
 * Never edit a released step: add a new one, so that every older database upgrades the same way.
 * Version 1 is the SQLite store's version 4 in PostgreSQL's types (JSONB, booleans, timestamptz),
 * plus an identity column that keeps insertion order, which SQLite gets from its rowid.
 * Version 2 folds evidence and failures into the results row (see its comment).
 * Version 5 drops a duplicate index and adds the runs' heartbeat (their lease).
 */
export const postgresMigrations: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        created_at TIMESTAMPTZ NOT NULL,
        finished_at TIMESTAMPTZ,
        spec_name TEXT NOT NULL,
        spec JSONB NOT NULL,
        spec_hash TEXT NOT NULL,
        input TEXT,
        output TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
        summary JSONB
      );
      CREATE INDEX runs_resume ON runs (spec_hash, output, created_at);
      CREATE INDEX runs_created ON runs (created_at DESC, id DESC);
      CREATE TABLE results (
        seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        sample_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        reward DOUBLE PRECISION,
        components JSONB NOT NULL,
        errors JSONB NOT NULL,
        warnings JSONB NOT NULL,
        data_source TEXT,
        group_id TEXT,
        total_ms DOUBLE PRECISION NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        request_id TEXT,
        PRIMARY KEY (run_id, sample_id)
      );
      CREATE INDEX results_order ON results (run_id, seq);
      CREATE INDEX results_status ON results (run_id, status);
      CREATE INDEX results_request ON results (request_id);
      CREATE TABLE evidence (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        sample_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        source TEXT NOT NULL,
        kind TEXT NOT NULL,
        score DOUBLE PRECISION,
        verdict TEXT NOT NULL,
        invalid BOOLEAN NOT NULL,
        veto BOOLEAN NOT NULL,
        reason TEXT,
        detail JSONB,
        elapsed_ms DOUBLE PRECISION NOT NULL,
        llm_calls INTEGER,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        llm_latency_ms DOUBLE PRECISION,
        llm_retries INTEGER,
        cache_hits INTEGER,
        PRIMARY KEY (run_id, sample_id, position)
      );
      CREATE INDEX evidence_source ON evidence (run_id, source);
      CREATE TABLE failures (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        sample_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (run_id, sample_id, position)
      );
      -- The cached value is the caller's JSON text, returned byte for byte, so it stays TEXT.
      CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION
      );
      CREATE TABLE state (
        key TEXT PRIMARY KEY,
        value JSONB NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    version: 2,
    // A result's evidence moves into one JSONB column of its row, and failures are read from the
    // row's errors: saving a batch becomes one upsert, with no DELETEs of child rows. Optional
    // fields are added only when present, as the store used to read the rows back.
    sql: `
      ALTER TABLE results ADD COLUMN evidence JSONB NOT NULL DEFAULT '[]';
      UPDATE results r SET evidence = e.list
      FROM (
        SELECT run_id, sample_id, jsonb_agg(
          jsonb_build_object('source', source, 'kind', kind, 'verdict', verdict, 'veto', veto,
                             'invalid', invalid, 'elapsed_ms', elapsed_ms)
          || CASE WHEN score IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('score', score) END
          || CASE WHEN detail IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('detail', detail) END
          || CASE WHEN reason IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', reason) END
          || CASE WHEN llm_calls IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('usage', jsonb_build_object(
               'calls', llm_calls, 'prompt_tokens', COALESCE(prompt_tokens, 0),
               'completion_tokens', COALESCE(completion_tokens, 0), 'latency_ms', COALESCE(llm_latency_ms, 0),
               'retries', COALESCE(llm_retries, 0), 'cache_hits', COALESCE(cache_hits, 0))) END
          ORDER BY position) AS list
        FROM evidence GROUP BY run_id, sample_id
      ) e
      WHERE r.run_id = e.run_id AND r.sample_id = e.sample_id;
      DROP TABLE evidence;
      DROP TABLE failures;
    `,
  },
  {
    version: 3,
    // Failures are the only rows read by status: a partial index on them replaces the index of
    // every row's status, one B-tree fewer to maintain per saved result.
    sql: `
      DROP INDEX results_status;
      CREATE INDEX results_failed ON results (run_id, sample_id) WHERE status = 'failed';
    `,
  },
  {
    version: 4,
    // The inspector (`rewardkit view`): the text each result judged (the prompt as JSON text, a
    // string or chat messages), and the two orders it pages a run's results in without sorting
    // them all — input order (seq) and reward.
    sql: `
      ALTER TABLE results ADD COLUMN prompt TEXT;
      ALTER TABLE results ADD COLUMN response TEXT;
      CREATE INDEX results_position ON results (run_id, seq);
      CREATE INDEX results_reward ON results (run_id, reward);
    `,
  },
  {
    version: 5,
    // results_position (version 4) repeats results_order (version 1) column for column: every
    // saved row paid for two identical B-trees. The heartbeat is the lease of a running run: the
    // process that owns the run renews it, and a run whose heartbeat is older than the lease is
    // closed as interrupted by the next store that looks (its process is gone). A run running at
    // the upgrade gets a fresh heartbeat, so a live older process has one lease to finish in.
    sql: `
      DROP INDEX results_order;
      ALTER TABLE runs ADD COLUMN heartbeat_at TIMESTAMPTZ;
      UPDATE runs SET heartbeat_at = now() WHERE status = 'running';
      CREATE INDEX runs_running ON runs (heartbeat_at) WHERE status = 'running';
    `,
  },
  {
    version: 6,
    // Labels a person gives samples in the inspector (`rewardkit view --allow-labels`), beside the
    // results and read by calibration; no foreign key, so a label outlives a rescored result.
    sql: `
      CREATE TABLE labels (
        run_id TEXT NOT NULL,
        sample_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('correct', 'incorrect', 'score')),
        score DOUBLE PRECISION,
        note TEXT,
        labeled_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (run_id, sample_id)
      );
    `,
  },
  {
    version: 7,
    // The inspector's sample page: the reference each result was judged against (JSON text, one
    // string or several), beside the prompt and response of version 4.
    sql: `ALTER TABLE results ADD COLUMN reference TEXT;`,
  },
];
