import type Database from 'better-sqlite3';
import { likeSubstring } from './like-substring.js';
import type { RunMemo } from './run-memo.js';
import {
  type ComparedRow,
  type CostSeriesRow,
  changedSample,
  costSeriesFromRows,
  type DataSourceRow,
  dataSourceBreakdownFromRows,
  type HistogramBinRow,
  histogramsFromBins,
  type RewardSeriesRow,
  rewardSeriesFromRows,
} from './run-view-rows.js';
import {
  COMPARE_EXCERPT_CHARS,
  DATA_SOURCE_CHOICES,
  FIRST_ERROR_CHARS,
  RESPONSE_PREVIEW_CHARS,
  type RunComparison,
  type RunTotals,
  type SamplePage,
  type SampleQuery,
  type SampleRow,
  type SampleText,
} from './run-views.js';
import type { RunViews } from './store.js';

/**
 * A result's bucket: equal spans of the run's rowids (its save order) from its first to its last.
 * (A bound number is a REAL, hence the cast.)
 */
// The run's first and last rowid, each one step down results_position (MIN/MAX would scan the run).
const SPAN = `span AS (SELECT (SELECT rowid FROM results WHERE run_id = @run ORDER BY rowid LIMIT 1) AS lo,
                              (SELECT rowid FROM results WHERE run_id = @run ORDER BY rowid DESC LIMIT 1) AS hi)`;
const SQLITE_BUCKET = 'CAST((results.rowid - span.lo) * @buckets / (span.hi - span.lo + 1) AS INTEGER)';

const SORT_COLUMN: Record<NonNullable<SampleQuery['sort']>, string> = {
  position: 'rowid',
  reward: 'reward',
  sample_id: 'sample_id',
  total_ms: 'total_ms',
};

/**
 * A run's totals, read at once (the store also reads them, in a transaction of its own, when it
 * closes an abandoned run). Each count from an index alone (the failed ones from the partial
 * results_failed), never a row.
 */
export function sqliteRunTotals(db: Database.Database): (runId: string) => RunTotals {
  const totals = db.prepare(
    `SELECT (SELECT COUNT(*) FROM results INDEXED BY results_position WHERE run_id = @run) AS results,
            (SELECT COUNT(*) FROM results WHERE run_id = @run AND status = 'failed') AS failed,
            (SELECT AVG(reward) FROM results INDEXED BY results_reward WHERE run_id = @run) AS mean_reward`,
  );
  return (runId) => totals.get({ run: runId }) as RunTotals;
}

/** The inspector's queries over a SQLite store (see run-views.ts). */
export function sqliteRunViews(db: Database.Database, memo: RunMemo): RunViews {
  const totals = sqliteRunTotals(db);
  const statements = {
    text: db.prepare('SELECT prompt, response, reference FROM results WHERE run_id = ? AND sample_id = ?'),
    dataSources: db.prepare(
      `SELECT DISTINCT data_source FROM results WHERE run_id = ? AND data_source IS NOT NULL
       ORDER BY data_source LIMIT ?`,
    ),
    // NULL (no data source) after the named ones at equal counts, as PostgreSQL orders it too.
    dataSourceBreakdown: db.prepare(
      `SELECT data_source, COUNT(*) AS results, COALESCE(SUM(status = 'failed'), 0) AS failed,
              AVG(reward) AS mean_reward
       FROM results WHERE run_id = ? GROUP BY data_source
       ORDER BY results DESC, data_source IS NULL, data_source LIMIT ?`,
    ),
    compareCounts: db.prepare(
      `SELECT (SELECT COUNT(*) FROM results WHERE run_id = @a) AS a,
              (SELECT COUNT(*) FROM results WHERE run_id = @b) AS b,
              COUNT(*) AS common,
              COALESCE(SUM(x.status <> y.status OR x.reward IS NOT y.reward), 0) AS changed,
              COALESCE(SUM(y.reward > x.reward), 0) AS improved,
              COALESCE(SUM(y.reward < x.reward), 0) AS regressed,
              COALESCE(SUM(x.status <> y.status), 0) AS status_changed
       FROM results x JOIN results y ON y.run_id = @b AND y.sample_id = x.sample_id WHERE x.run_id = @a`,
    ),
    compareRows: db.prepare(
      `SELECT x.sample_id, x.status AS a_status, x.reward AS a_reward, x.components AS a_components,
              substr(x.response, 1, @excerpt) AS a_excerpt,
              y.status AS b_status, y.reward AS b_reward, y.components AS b_components,
              substr(y.response, 1, @excerpt) AS b_excerpt
       FROM results x JOIN results y ON y.run_id = @b AND y.sample_id = x.sample_id
       WHERE x.run_id = @a AND (x.status <> y.status OR x.reward IS NOT y.reward)
         AND CASE @filter WHEN 'improved' THEN y.reward > x.reward
                          WHEN 'regressed' THEN y.reward < x.reward
                          WHEN 'status' THEN x.status <> y.status
                          ELSE 1 END
       ORDER BY (x.reward IS NULL) <> (y.reward IS NULL) DESC, ABS(COALESCE(y.reward, 0) - COALESCE(x.reward, 0)) DESC,
                x.sample_id
       LIMIT @limit OFFSET @offset`,
    ),
    // The reward (k = 0) and each source's numeric component (k = 1) as one list of values; each
    // value falls in one of @bins equal bins between its series' minimum and maximum.
    histograms: db.prepare(
      `WITH v AS (
         SELECT 0 AS k, '' AS source, reward AS x FROM results WHERE run_id = @run AND reward IS NOT NULL
         UNION ALL
         SELECT 1, c.key, c.value FROM results, json_each(results.components) AS c
         WHERE results.run_id = @run AND c.type IN ('integer', 'real')),
       r AS (SELECT k, source, MIN(x) AS lo, MAX(x) AS hi FROM v GROUP BY k, source)
       SELECT v.k, v.source, r.lo, r.hi,
              CASE WHEN r.hi = r.lo THEN 0
                   ELSE MIN(CAST((v.x - r.lo) * @bins / (r.hi - r.lo) AS INTEGER), @bins - 1) END AS bin,
              COUNT(*) AS n
       FROM v JOIN r ON r.k = v.k AND r.source = v.source
       GROUP BY v.k, v.source, bin ORDER BY v.k, v.source, bin`,
    ),
    // Read from results_reward (run_id, reward), which holds the rowid too: no row is read.
    rewardSeries: db.prepare(
      `WITH ${SPAN}
       SELECT ${SQLITE_BUCKET} AS bucket, COUNT(*) AS results, COUNT(reward) AS rewarded,
              AVG(reward) AS mean_reward, MIN(reward) AS min_reward, MAX(reward) AS max_reward
       FROM results INDEXED BY results_reward, span WHERE results.run_id = @run
       GROUP BY bucket ORDER BY bucket`,
    ),
    costSeries: db.prepare(
      `WITH ${SPAN}
       SELECT ${SQLITE_BUCKET} AS bucket, COUNT(DISTINCT results.rowid) AS results,
              MIN(results.created_at) AS first_saved_at, MAX(results.created_at) AS last_saved_at,
              MIN(e.value ->> '$.usage.first_call_at') AS first_call_at,
              MAX(e.value ->> '$.usage.last_call_at') AS last_call_at,
              SUM(e.value ->> '$.usage.calls') AS calls,
              SUM(e.value ->> '$.usage.prompt_tokens') AS prompt_tokens,
              SUM(e.value ->> '$.usage.completion_tokens') AS completion_tokens,
              SUM(e.value ->> '$.usage.cache_hits') AS cache_hits
       FROM results JOIN span LEFT JOIN json_each(results.evidence) AS e
       WHERE results.run_id = @run
       GROUP BY bucket ORDER BY bucket`,
    ),
  };

  return {
    async getSampleText(runId, sampleId) {
      const row = statements.text.get(runId, sampleId) as
        | { prompt: string | null; response: string | null; reference: string | null }
        | undefined;
      if (!row || row.response === null) return undefined;
      return {
        ...(row.prompt !== null && { prompt: JSON.parse(row.prompt) as SampleText['prompt'] }),
        response: row.response,
        ...(row.reference !== null && { reference: JSON.parse(row.reference) as SampleText['reference'] }),
      };
    },
    async dataSources(runId) {
      return statements.dataSources.pluck().all(runId, DATA_SOURCE_CHOICES) as string[];
    },
    async dataSourceBreakdown(runId) {
      return memo.get(runId, 'data-source-breakdown', async () =>
        dataSourceBreakdownFromRows(
          statements.dataSourceBreakdown.all(runId, DATA_SOURCE_CHOICES + 1) as DataSourceRow[],
          DATA_SOURCE_CHOICES,
        ),
      );
    },
    async querySamples(runId, query) {
      const where: string[] = ['run_id = @run'];
      const params: Record<string, unknown> = { run: runId, limit: query.limit, offset: query.offset };
      if (query.status) {
        where.push('status = @status');
        params.status = query.status;
      }
      if (query.source !== undefined) {
        where.push('json_extract(components, @sourcePath) IS NOT NULL');
        params.sourcePath = `$.${JSON.stringify(query.source)}`;
      }
      if (query.dataSource !== undefined) {
        where.push(`data_source LIKE @dataSource ESCAPE '\\'`);
        params.dataSource = likeSubstring(query.dataSource);
      }
      if (query.minReward !== undefined) {
        where.push('reward >= @minReward');
        params.minReward = query.minReward;
      }
      if (query.maxReward !== undefined) {
        where.push('reward <= @maxReward');
        params.maxReward = query.maxReward;
      }
      if (query.text !== undefined && query.text !== '') {
        where.push(
          `(sample_id LIKE @text ESCAPE '\\' OR response LIKE @text ESCAPE '\\' OR errors LIKE @text ESCAPE '\\')`,
        );
        params.text = likeSubstring(query.text);
      }
      const column = SORT_COLUMN[query.sort ?? 'position'];
      const direction = query.order === 'desc' ? 'DESC' : 'ASC';
      // Failed rows have no reward: they sort last either way rather than first.
      const order =
        column === 'reward' ? `reward IS NULL, reward ${direction}, rowid` : `${column} ${direction}, rowid`;
      const filter = where.join(' AND ');
      const total = db.prepare(`SELECT COUNT(*) FROM results WHERE ${filter}`).pluck().get(params) as number;
      const rows = db
        .prepare(
          `SELECT sample_id, status, reward, components, data_source, group_id, total_ms,
                  json_array_length(errors) AS errors, substr(errors ->> '$[0]', 1, ${FIRST_ERROR_CHARS}) AS first_error,
                  json_array_length(warnings) AS warnings,
                  substr(response, 1, ${RESPONSE_PREVIEW_CHARS}) AS response_preview,
                  length(response) AS response_chars
           FROM results WHERE ${filter} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        )
        .all(params) as (Omit<SampleRow, 'components' | 'group'> & {
        components: string;
        group_id: string | null;
      })[];
      return {
        total,
        rows: rows.map(({ group_id, components, ...row }) => ({
          ...row,
          group: group_id,
          components: JSON.parse(components) as SampleRow['components'],
        })),
      } satisfies SamplePage;
    },
    async runTotals(runId) {
      return totals(runId);
    },
    async compareRuns(a, b, page) {
      const counts = statements.compareCounts.get({ a, b }) as {
        a: number;
        b: number;
        common: number;
        changed: number;
        improved: number;
        regressed: number;
        status_changed: number;
      };
      const rows = statements.compareRows.all({
        a,
        b,
        limit: page.limit,
        offset: page.offset,
        filter: page.filter ?? 'changed',
        excerpt: COMPARE_EXCERPT_CHARS,
      }) as ComparedRow[];
      return {
        common: counts.common,
        only_a: counts.a - counts.common,
        only_b: counts.b - counts.common,
        changed: counts.changed,
        improved: counts.improved,
        regressed: counts.regressed,
        status_changed: counts.status_changed,
        rows: rows.map((row) => changedSample(row, JSON.parse)),
      } satisfies RunComparison;
    },
    async rewardHistograms(runId, bins) {
      return memo.get(runId, `histograms:${bins}`, async () =>
        histogramsFromBins(statements.histograms.all({ run: runId, bins }) as HistogramBinRow[], bins),
      );
    },
    async rewardSeries(runId, buckets) {
      return memo.get(runId, `reward-series:${buckets}`, async () =>
        rewardSeriesFromRows(statements.rewardSeries.all({ run: runId, buckets }) as RewardSeriesRow[]),
      );
    },
    async costSeries(runId, buckets) {
      return memo.get(runId, `cost-series:${buckets}`, async () =>
        costSeriesFromRows(statements.costSeries.all({ run: runId, buckets }) as CostSeriesRow[]),
      );
    },
  };
}
