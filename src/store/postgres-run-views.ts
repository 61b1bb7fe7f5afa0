import {
  changedIdsOf,
  changedPage,
  comparisonOf,
  IMPROVED,
  REGRESSED,
  STATUS_CHANGED,
} from './changed-ids.js';
import { likeSubstring } from './like-substring.js';
import type { PostgresQuery } from './postgres-save-batch.js';
import { parseJsonColumn } from './postgres-text-escape.js';
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
  type SampleFilter,
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

/** A result's bucket: equal spans of the run's seq (its save order) from its first to its last. */
const POSTGRES_BUCKET = 'FLOOR((r.seq - span.lo)::float8 * $2::int / (span.hi - span.lo + 1))::int';
const SPAN = 'span AS (SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM results WHERE run_id = $1)';

/** What a page of sample rows reads of each row. */
const SAMPLE_COLUMNS = `sample_id, status, reward, components::text AS components, data_source, group_id, total_ms,
  jsonb_array_length(errors) AS errors, left(errors ->> 0, ${FIRST_ERROR_CHARS}) AS first_error,
  jsonb_array_length(warnings) AS warnings, left(response, ${RESPONSE_PREVIEW_CHARS}) AS response_preview,
  length(response) AS response_chars`;

type RawSampleRow = Omit<SampleRow, 'components' | 'group'> & { components: string; group_id: string | null };

const sampleRowOf = ({ group_id, components, ...row }: RawSampleRow): SampleRow => ({
  ...row,
  group: group_id,
  components: parseJsonColumn(components) as SampleRow['components'],
});

/** The inspector's queries over a PostgreSQL store (see run-views.ts); counts come back as float8. */
export function postgresRunViews(query: PostgresQuery, memo: RunMemo, lists: RunMemo): RunViews {
  /** The rows at these seqs, in their order (one saved again since is left out). */
  const rowsAt = async (positions: readonly number[]): Promise<Map<number, SampleRow>> => {
    if (positions.length === 0) return new Map();
    const raw = await query<RawSampleRow & { position: number }>(
      `SELECT ${SAMPLE_COLUMNS}, results.seq::float8 AS position
       FROM unnest($1::bigint[]) WITH ORDINALITY AS k(seq, n) JOIN results ON results.seq = k.seq ORDER BY k.n`,
      [positions],
    );
    return new Map(raw.map(({ position, ...row }) => [position, sampleRowOf(row)]));
  };
  /**
   * The reads of one filter and sort: pages of it in index order (`PartReader`), or, where the
   * filter needs a scan (`scans`), every matching position in order at once.
   */
  const sampleReader = (runId: string, q: SampleFilter) => {
    const values: unknown[] = [runId];
    const where: string[] = ['run_id = $1'];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (q.status) where.push(`status = ${param(q.status)}`);
    if (q.minReward !== undefined) where.push(`reward >= ${param(q.minReward)}`);
    if (q.maxReward !== undefined) where.push(`reward <= ${param(q.maxReward)}`);
    // The filters below are read from every row of the run: no index holds them.
    const scanned = where.length;
    if (q.source !== undefined) where.push(`components ->> ${param(q.source)} IS NOT NULL`);
    if (q.dataSource !== undefined)
      where.push(`data_source ILIKE ${param(likeSubstring(q.dataSource))} ESCAPE '\\'`);
    if (q.text !== undefined && q.text !== '') {
      const text = param(likeSubstring(q.text));
      where.push(
        `(sample_id ILIKE ${text} ESCAPE '\\' OR response ILIKE ${text} ESCAPE '\\' OR errors::text ILIKE ${text} ESCAPE '\\')`,
      );
    }
    const filter = where.join(' AND ');
    const parts = orderParts(q, 'seq');
    const conditions = (part: OrderPart | null) => (part?.where ? `${filter} AND ${part.where}` : filter);
    return {
      // The filter's identity, and for a list of positions, its order's too.
      key: JSON.stringify([
        ...[q.status, q.minReward, q.maxReward, q.source, q.dataSource, q.text || null],
        ...(where.length > scanned ? [q.sort ?? 'position', q.order ?? 'asc'] : []),
      ]),
      scans: where.length > scanned,
      parts,
      async count(part: number | null) {
        const [row] = await query<{ total: number }>(
          `SELECT COUNT(*)::float8 AS total FROM results WHERE ${conditions(part === null ? null : (parts[part] ?? null))}`,
          values,
        );
        return row?.total ?? 0;
      },
      async read(index: number, page: { cursor?: SampleCursor; limit: number; offset: number }) {
        const part = parts[index] as OrderPart;
        const local = [...values];
        const localParam = (value: unknown) => {
          local.push(value);
          return `$${local.length}`;
        };
        const after = page.cursor ? ` AND ${afterCondition(part, page.cursor, 'seq', localParam)}` : '';
        // The page's positions first, from the index where it can, then their rows: rows skipped
        // by the offset are never read.
        const keys = await query<{ position: number; sort_key: unknown }>(
          `SELECT seq::float8 AS position, ${part.key ?? 'NULL'} AS sort_key
           FROM results WHERE ${conditions(part)}${after} ORDER BY ${part.orderBy}
           LIMIT ${localParam(page.limit)} OFFSET ${localParam(page.offset)}`,
          local,
        );
        const rows = await rowsAt(keys.map((k) => k.position));
        return keys.flatMap(({ position, sort_key }) => {
          const row = rows.get(position);
          return row ? [{ row, key: sort_key, position }] : [];
        });
      },
      /** Every matching seq in the page order, from one scan. */
      async positions() {
        const descending = q.order === 'desc' ? ' DESC' : '';
        const order = q.sort === 'reward' ? `reward${descending} NULLS LAST, seq` : parts[0]?.orderBy;
        const rows = await query<{ seq: number }>(
          `SELECT seq::float8 AS seq FROM results WHERE ${filter} ORDER BY ${order}`,
          values,
        );
        return Float64Array.from(rows, (row) => row.seq);
      },
      async byPosition(positions: Float64Array) {
        return [...(await rowsAt(Array.from(positions))).values()];
      },
    };
  };

  return {
    async getSampleText(runId, sampleId) {
      const [row] = await query<{ prompt: string | null; response: string | null; reference: string | null }>(
        'SELECT prompt, response, reference FROM results WHERE run_id = $1 AND sample_id = $2',
        [runId, sampleId],
      );
      if (!row || row.response === null) return undefined;
      return {
        ...(row.prompt !== null && { prompt: parseJsonColumn(row.prompt) as SampleText['prompt'] }),
        response: row.response,
        ...(row.reference !== null && {
          reference: parseJsonColumn(row.reference) as SampleText['reference'],
        }),
      };
    },
    async dataSources(runId) {
      const rows = await query<{ data_source: string }>(
        `SELECT DISTINCT data_source FROM results WHERE run_id = $1 AND data_source IS NOT NULL
         ORDER BY data_source LIMIT $2`,
        [runId, DATA_SOURCE_CHOICES],
      );
      return rows.map((row) => row.data_source);
    },
    async dataSourceBreakdown(runId) {
      return memo.get(runId, 'data-source-breakdown', async () => {
        const rows = await query<DataSourceRow>(
          `SELECT data_source, COUNT(*)::float8 AS results,
                  (COUNT(*) FILTER (WHERE status = 'failed'))::float8 AS failed, AVG(reward)::float8 AS mean_reward
           FROM results WHERE run_id = $1 GROUP BY data_source
           ORDER BY results DESC, data_source IS NULL, data_source LIMIT $2`,
          [runId, DATA_SOURCE_CHOICES + 1],
        );
        return dataSourceBreakdownFromRows(rows, DATA_SOURCE_CHOICES);
      });
    },
    async querySamples(runId, q) {
      const read = sampleReader(runId, q);
      if (read.scans) {
        // No index serves the filter: one scan lists the matching positions in order, kept under
        // the run's version, and every page after is a slice of it read by seq.
        const positions = await lists.get(runId, `sample-positions:${read.key}`, async () =>
          read.positions(),
        );
        return {
          total: positions.length,
          rows: await read.byPosition(positions.slice(q.offset, q.offset + q.limit)),
        };
      }
      const total = await memo.get(runId, `sample-count:${read.key}`, async () => read.count(null));
      return { total, rows: await pageByOffset(read.parts.length, read, q) };
    },
    async *streamSamples(runId, q, pageRows) {
      const read = sampleReader(runId, q);
      if (!read.scans) {
        yield* pagesByKey(read.parts.length, read, pageRows);
        return;
      }
      const positions = await lists.get(runId, `sample-positions:${read.key}`, async () => read.positions());
      for (let at = 0; at < positions.length; at += pageRows)
        yield await read.byPosition(positions.slice(at, at + pageRows));
    },
    async runTotals(runId) {
      // Each count from an index alone where the table's visibility map allows (the failed ones
      // from the partial results_failed), rather than one pass over every row of the run.
      const [row] = await query<{ results: number; failed: number; mean_reward: number | null }>(
        `SELECT (SELECT COUNT(*) FROM results WHERE run_id = $1)::float8 AS results,
                (SELECT COUNT(*) FROM results WHERE run_id = $1 AND status = 'failed')::float8 AS failed,
                (SELECT AVG(reward) FROM results WHERE run_id = $1) AS mean_reward`,
        [runId],
      );
      return { results: row?.results ?? 0, failed: row?.failed ?? 0, mean_reward: row?.mean_reward ?? null };
    },
    async compareRuns(a, b, page) {
      const changed = await lists.get([a, b], 'changed-ids', async () => {
        const [counts] = await query<{ inA: number; inB: number; common: number }>(
          `SELECT (SELECT COUNT(*) FROM results WHERE run_id = $1)::float8 AS "inA",
                  (SELECT COUNT(*) FROM results WHERE run_id = $2)::float8 AS "inB",
                  COUNT(*)::float8 AS common
           FROM results x JOIN results y ON y.run_id = $2 AND y.sample_id = x.sample_id WHERE x.run_id = $1`,
          [a, b],
        );
        const rows = await query<{ sample_id: string; flags: number }>(
          `SELECT x.sample_id,
                  (CASE WHEN y.reward > x.reward THEN ${IMPROVED} ELSE 0 END)
                  | (CASE WHEN y.reward < x.reward THEN ${REGRESSED} ELSE 0 END)
                  | (CASE WHEN x.status <> y.status THEN ${STATUS_CHANGED} ELSE 0 END) AS flags
           FROM results x JOIN results y ON y.run_id = $2 AND y.sample_id = x.sample_id
           WHERE x.run_id = $1 AND (x.status <> y.status OR x.reward IS DISTINCT FROM y.reward)
           ORDER BY (x.reward IS NULL) <> (y.reward IS NULL) DESC,
                    ABS(COALESCE(y.reward, 0) - COALESCE(x.reward, 0)) DESC, x.sample_id`,
          [a, b],
        );
        return changedIdsOf(
          counts ?? { inA: 0, inB: 0, common: 0 },
          rows.map((row) => [row.sample_id, row.flags] as const),
        );
      });
      const ids = changedPage(changed, page.filter ?? 'changed', page);
      const rows =
        ids.length === 0
          ? []
          : await query<ComparedRow>(
              `SELECT x.sample_id, x.status AS a_status, x.reward AS a_reward, x.components::text AS a_components,
                      left(x.response, $4) AS a_excerpt,
                      y.status AS b_status, y.reward AS b_reward, y.components::text AS b_components,
                      left(y.response, $4) AS b_excerpt
               FROM unnest($3::text[]) WITH ORDINALITY AS k(id, n)
               JOIN results x ON x.run_id = $1 AND x.sample_id = k.id
               JOIN results y ON y.run_id = $2 AND y.sample_id = k.id
               ORDER BY k.n`,
              [a, b, ids, COMPARE_EXCERPT_CHARS],
            );
      return comparisonOf(
        changed,
        rows.map((row) => changedSample(row, parseJsonColumn)),
      );
    },
    async rewardHistograms(runId, bins) {
      return memo.get(runId, `histograms:${bins}`, async () => histograms(runId, bins));
    },
    async rewardSeries(runId, buckets) {
      return memo.get(runId, `reward-series:${buckets}`, async () => rewardSeries(runId, buckets));
    },
    async costSeries(runId, buckets) {
      return memo.get(runId, `cost-series:${buckets}`, async () => costSeries(runId, buckets));
    },
  };

  async function histograms(runId: string, bins: number) {
    const rows = await query<HistogramBinRow>(
      `WITH v AS (
           SELECT 0 AS k, '' AS source, reward AS x FROM results WHERE run_id = $1 AND reward IS NOT NULL
           UNION ALL
           SELECT 1, c.key, (c.value)::float8 FROM results, jsonb_each(results.components) AS c
           WHERE results.run_id = $1 AND jsonb_typeof(c.value) = 'number'),
         r AS (SELECT k, source, MIN(x) AS lo, MAX(x) AS hi FROM v GROUP BY k, source)
         SELECT v.k, v.source, r.lo, r.hi,
                CASE WHEN r.hi = r.lo THEN 0
                     ELSE LEAST(FLOOR((v.x - r.lo) * $2::int / (r.hi - r.lo))::int, $2::int - 1) END AS bin,
                COUNT(*)::float8 AS n
         FROM v JOIN r ON r.k = v.k AND r.source = v.source
         GROUP BY v.k, v.source, r.lo, r.hi, bin ORDER BY v.k, v.source, bin`,
      [runId, bins],
    );
    return histogramsFromBins(rows, bins);
  }

  async function rewardSeries(runId: string, buckets: number) {
    const rows = await query<RewardSeriesRow>(
      `WITH ${SPAN}
         SELECT ${POSTGRES_BUCKET} AS bucket, COUNT(*)::float8 AS results, COUNT(reward)::float8 AS rewarded,
                AVG(reward) AS mean_reward, MIN(reward) AS min_reward, MAX(reward) AS max_reward
         FROM results r, span WHERE r.run_id = $1
         GROUP BY bucket ORDER BY bucket`,
      [runId, buckets],
    );
    return rewardSeriesFromRows(rows);
  }

  async function costSeries(runId: string, buckets: number) {
    const rows = await query<CostSeriesRow>(
      `WITH ${SPAN}
         SELECT ${POSTGRES_BUCKET} AS bucket, COUNT(DISTINCT r.seq)::float8 AS results,
                MIN(r.created_at) AS first_saved_at, MAX(r.created_at) AS last_saved_at,
                MIN(e.value -> 'usage' ->> 'first_call_at') AS first_call_at,
                MAX(e.value -> 'usage' ->> 'last_call_at') AS last_call_at,
                SUM((e.value -> 'usage' ->> 'calls')::float8) AS calls,
                SUM((e.value -> 'usage' ->> 'prompt_tokens')::float8) AS prompt_tokens,
                SUM((e.value -> 'usage' ->> 'completion_tokens')::float8) AS completion_tokens,
                SUM((e.value -> 'usage' ->> 'cache_hits')::float8) AS cache_hits
         FROM results r CROSS JOIN span LEFT JOIN LATERAL jsonb_array_elements(r.evidence) AS e(value) ON true
         WHERE r.run_id = $1
         GROUP BY bucket ORDER BY bucket`,
      [runId, buckets],
    );
    return costSeriesFromRows(rows);
  }
}
