import type Database from 'better-sqlite3';
import {
  changedIdsOf,
  changedPage,
  comparisonOf,
  IMPROVED,
  REGRESSED,
  STATUS_CHANGED,
} from './changed-ids.js';
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
  type RunTotals,
  type SampleFilter,
  type SamplePage,
  type SampleRow,
  type SampleText,
} from './run-views.js';
import {
  afterCondition,
  type OrderPart,
  orderParts,
  pageByOffset,
  pagesByKey,
  type SampleCursor,
} from './sample-order.js';
import type { RunViews } from './store.js';

/**
 * A result's bucket: equal spans of the run's rowids (its save order) from its first to its last.
 * (A bound number is a REAL, hence the cast.)
 */
// The run's first and last rowid, each one step down results_position (MIN/MAX would scan the run).
const SPAN = `span AS (SELECT (SELECT rowid FROM results WHERE run_id = @run ORDER BY rowid LIMIT 1) AS lo,
                              (SELECT rowid FROM results WHERE run_id = @run ORDER BY rowid DESC LIMIT 1) AS hi)`;
const SQLITE_BUCKET = 'CAST((results.rowid - span.lo) * @buckets / (span.hi - span.lo + 1) AS INTEGER)';

/** What a page of sample rows reads of each row. */
const SAMPLE_COLUMNS = `sample_id, status, reward, components, data_source, group_id, total_ms,
  json_array_length(errors) AS errors, substr(errors ->> '$[0]', 1, ${FIRST_ERROR_CHARS}) AS first_error,
  json_array_length(warnings) AS warnings, substr(response, 1, ${RESPONSE_PREVIEW_CHARS}) AS response_preview,
  length(response) AS response_chars`;

type RawSampleRow = Omit<SampleRow, 'components' | 'group'> & { components: string; group_id: string | null };

const sampleRowOf = ({ group_id, components, ...row }: RawSampleRow): SampleRow => ({
  ...row,
  group: group_id,
  components: JSON.parse(components) as SampleRow['components'],
});

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
export function sqliteRunViews(db: Database.Database, memo: RunMemo, lists: RunMemo): RunViews {
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
    // A page of rows by their rowids, in the order given.
    byPosition: db.prepare(
      `SELECT ${SAMPLE_COLUMNS}, results.rowid AS position
       FROM json_each(?) AS k CROSS JOIN results ON results.rowid = k.value
       ORDER BY k.key`,
    ),
    // Ids in both runs, from the primary key alone.
    compareCounts: db.prepare(
      `SELECT (SELECT COUNT(*) FROM results WHERE run_id = @a) AS inA,
              (SELECT COUNT(*) FROM results WHERE run_id = @b) AS inB,
              COUNT(*) AS common
       FROM results x JOIN results y ON y.run_id = @b AND y.sample_id = x.sample_id WHERE x.run_id = @a`,
    ),
    // Every changed id in the comparison's order with how it changed (see changed-ids.ts). x is
    // walked in sample_id order (the range on sample_id steers it onto the primary key, every id
    // being >= ''), so y's lookups follow one another: 1.7 s at 1M rather than 2.1 s in save order
    // or 8.9 s in reward order.
    changedIds: db
      .prepare(
        `SELECT x.sample_id,
                (CASE WHEN y.reward > x.reward THEN ${IMPROVED} ELSE 0 END)
                | (CASE WHEN y.reward < x.reward THEN ${REGRESSED} ELSE 0 END)
                | (CASE WHEN x.status <> y.status THEN ${STATUS_CHANGED} ELSE 0 END) AS flags
         FROM results x CROSS JOIN results y ON y.run_id = @b AND y.sample_id = x.sample_id
         WHERE x.run_id = @a AND x.sample_id >= '' AND (x.status <> y.status OR x.reward IS NOT y.reward)
         ORDER BY (x.reward IS NULL) <> (y.reward IS NULL) DESC,
                  ABS(COALESCE(y.reward, 0) - COALESCE(x.reward, 0)) DESC, x.sample_id`,
      )
      .raw(),
    // One page of the list: both sides of each id, in the list's order.
    compareRows: db.prepare(
      `SELECT x.sample_id, x.status AS a_status, x.reward AS a_reward, x.components AS a_components,
              substr(x.response, 1, @excerpt) AS a_excerpt,
              y.status AS b_status, y.reward AS b_reward, y.components AS b_components,
              substr(y.response, 1, @excerpt) AS b_excerpt
       FROM json_each(@ids) AS k
       CROSS JOIN results x ON x.run_id = @a AND x.sample_id = k.value
       CROSS JOIN results y ON y.run_id = @b AND y.sample_id = k.value
       ORDER BY k.key`,
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

  /** The rows at these rowids, in their order (one saved again since is left out). */
  const rowsAt = (positions: readonly number[]): Map<number, SampleRow> => {
    if (positions.length === 0) return new Map();
    const raw = statements.byPosition.all(JSON.stringify(positions)) as (RawSampleRow & {
      position: number;
    })[];
    return new Map(raw.map(({ position, ...row }) => [position, sampleRowOf(row)]));
  };
  /**
   * The reads of one filter and sort: pages of it in index order (`PartReader`), or, where the
   * filter needs a scan (`scans`), every matching position in order at once.
   */
  const sampleReader = (runId: string, query: SampleFilter) => {
    const where: string[] = ['run_id = @run'];
    const params: Record<string, unknown> = { run: runId };
    let named = 0;
    const param = (value: unknown) => {
      params[`p${++named}`] = value;
      return `@p${named}`;
    };
    if (query.status) where.push(`status = ${param(query.status)}`);
    if (query.minReward !== undefined) where.push(`reward >= ${param(query.minReward)}`);
    if (query.maxReward !== undefined) where.push(`reward <= ${param(query.maxReward)}`);
    // The filters below are read from every row of the run: no index holds them.
    const scanned = where.length;
    if (query.source !== undefined)
      where.push(`json_extract(components, ${param(`$.${JSON.stringify(query.source)}`)}) IS NOT NULL`);
    if (query.dataSource !== undefined)
      where.push(`data_source LIKE ${param(likeSubstring(query.dataSource))} ESCAPE '\\'`);
    if (query.text !== undefined && query.text !== '') {
      const text = param(likeSubstring(query.text));
      where.push(
        `(sample_id LIKE ${text} ESCAPE '\\' OR response LIKE ${text} ESCAPE '\\' OR errors LIKE ${text} ESCAPE '\\')`,
      );
    }
    const filter = where.join(' AND ');
    const parts = orderParts(query, 'rowid');
    const conditions = (part: OrderPart | null) => (part?.where ? `${filter} AND ${part.where}` : filter);
    return {
      // The filter's identity, and for a list of positions, its order's too.
      key: JSON.stringify([
        ...[
          query.status,
          query.minReward,
          query.maxReward,
          query.source,
          query.dataSource,
          query.text || null,
        ],
        ...(where.length > scanned ? [query.sort ?? 'position', query.order ?? 'asc'] : []),
      ]),
      scans: where.length > scanned,
      parts,
      async count(part: number | null) {
        const sql = `SELECT COUNT(*) FROM results WHERE ${conditions(part === null ? null : (parts[part] ?? null))}`;
        return db.prepare(sql).pluck().get(params) as number;
      },
      async read(index: number, page: { cursor?: SampleCursor; limit: number; offset: number }) {
        const part = parts[index] as OrderPart;
        const local = { ...params };
        let bound = 0;
        const cursorParam = (value: unknown) => {
          local[`c${++bound}`] = value;
          return `@c${bound}`;
        };
        const after = page.cursor ? ` AND ${afterCondition(part, page.cursor, 'rowid', cursorParam)}` : '';
        // The page's rowids first, from the index alone, then their rows: rows skipped by the
        // offset are never read (a sorted read would otherwise carry every one to its sorter).
        const keys = db
          .prepare(
            `SELECT rowid AS position, ${part.key ?? 'NULL'} AS sort_key
             FROM results WHERE ${conditions(part)}${after} ORDER BY ${part.orderBy}
             LIMIT ${page.limit} OFFSET ${page.offset}`,
          )
          .all(local) as { position: number; sort_key: unknown }[];
        const rows = rowsAt(keys.map((k) => k.position));
        return keys.flatMap(({ position, sort_key }) => {
          const row = rows.get(position);
          return row ? [{ row, key: sort_key, position }] : [];
        });
      },
      /** Every matching rowid in the page order, from one scan. */
      positions() {
        const order = `${query.sort === 'reward' ? 'reward IS NULL, ' : ''}${parts[0]?.orderBy}`;
        return Float64Array.from(
          db
            .prepare(`SELECT rowid FROM results WHERE ${filter} ORDER BY ${order}`)
            .pluck()
            .iterate(params) as IterableIterator<number>,
        );
      },
      byPosition(positions: Float64Array) {
        return [...rowsAt(Array.from(positions)).values()];
      },
    };
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
      const read = sampleReader(runId, query);
      if (read.scans) {
        // No index serves the filter: one scan lists the matching positions in order, kept under
        // the run's version, and every page after is a slice of it read by rowid.
        const positions = await lists.get(runId, `sample-positions:${read.key}`, async () =>
          read.positions(),
        );
        return {
          total: positions.length,
          rows: read.byPosition(positions.slice(query.offset, query.offset + query.limit)),
        } satisfies SamplePage;
      }
      const total = await memo.get(runId, `sample-count:${read.key}`, async () => read.count(null));
      return {
        total,
        rows: await pageByOffset(read.parts.length, read, query),
      } satisfies SamplePage;
    },
    async *streamSamples(runId, query, pageRows) {
      const read = sampleReader(runId, query);
      if (!read.scans) {
        yield* pagesByKey(read.parts.length, read, pageRows);
        return;
      }
      const positions = await lists.get(runId, `sample-positions:${read.key}`, async () => read.positions());
      for (let at = 0; at < positions.length; at += pageRows)
        yield read.byPosition(positions.slice(at, at + pageRows));
    },
    async runTotals(runId) {
      // Kept while the run's largest rowid stays (one index step): the counts read every entry.
      return memo.get(runId, 'totals', async () => totals(runId));
    },
    async compareRuns(a, b, page) {
      const changed = await lists.get([a, b], 'changed-ids', async () =>
        changedIdsOf(
          statements.compareCounts.get({ a, b }) as { inA: number; inB: number; common: number },
          statements.changedIds.all({ a, b }) as [string, number][],
        ),
      );
      const ids = changedPage(changed, page.filter ?? 'changed', page);
      const rows =
        ids.length === 0
          ? []
          : (statements.compareRows.all({
              a,
              b,
              ids: JSON.stringify(ids),
              excerpt: COMPARE_EXCERPT_CHARS,
            }) as ComparedRow[]);
      return comparisonOf(
        changed,
        rows.map((row) => changedSample(row, JSON.parse)),
      );
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
