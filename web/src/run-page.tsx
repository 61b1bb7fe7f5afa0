import { useEffect, useState } from 'react';
import { formatUsd } from '../../src/core/format-usd.js';
import { costOverTimeChart, rewardOverResultsChart } from '../../src/view/run-series-charts.js';
import type { CostSeriesBucket, Histogram, RewardSeriesBucket, RunDetail } from './api';
import { CriteriaPanel } from './criteria-panel';
import { DataSourceTable } from './data-source-table';
import { ExportLinks } from './export-links';
import { duration, num, tokens } from './format';
import { HistogramChart } from './histogram-chart';
import { LineChart } from './line-chart';
import { filterProblem, filterQuery, filtersFromQuery, SampleFilters } from './sample-filters';
import { SamplesTable } from './samples-table';
import { StatusLine } from './status-line';
import { BenchSummaryPanel } from './summaries/bench-summary-panel';
import { JudgeSummaryPanel } from './summaries/judge-summary-panel';
import { TableHead } from './table-head';
import { type Loaded, type Polled, useApi } from './use-api';
import { hrefWith, useHashQuery } from './use-hash-route';
import { useKey } from './use-key';

/** Buckets of the reward-over-results and cost-over-time series. */
const BUCKETS = 60;
/** How often a live run's statistics are asked for at most (the slow ones less often: use-api.ts). */
const LIVE_MS = 3000;

/**
 * One run: its numbers, per-source statistics and histograms, the reward over its results (for a
 * `serve` run, over requests) and, when a judge ran, its tokens and calls over time, and its samples.
 */
export function RunPage({ runId }: { runId: string }) {
  const path = `runs/${encodeURIComponent(runId)}`;
  // Statistics of a million rows take seconds: asked again only while the run is still going.
  const [live, setLive] = useState(true);
  // The samples table never waits for the statistics: it asks for its first page on its own, and
  // the statistics are asked for once that page has answered (and each poll waits while a page is
  // in flight: use-api.ts), so on a store that answers one query at a time the table comes first.
  const [samplesAnswered, setSamplesAnswered] = useState(false);
  const detail = useApi<RunDetail>(samplesAnswered ? path : undefined, live ? LIVE_MS : undefined);
  const histograms = useApi<{ histograms: Histogram[] }>(
    samplesAnswered ? `${path}/histograms?bins=20` : undefined,
  );
  // The reward series reads one index, so it follows a live run; the cost series reads every
  // result's evidence, so it is asked only for a run whose sources called a model.
  const rewardSeries = useApi<{ buckets: RewardSeriesBucket[] }>(
    samplesAnswered ? `${path}/reward-series?buckets=${BUCKETS}` : undefined,
    live ? LIVE_MS : undefined,
  );
  const dataSources = useApi<{ data_sources: string[] }>(
    samplesAnswered ? `${path}/data-sources` : undefined,
  );
  const judged = detail.state === 'ok' && detail.data.sources.some((s) => s.usage !== undefined);
  const costSeries = useApi<{ buckets: CostSeriesBucket[] }>(
    judged ? `${path}/cost-series?buckets=${BUCKETS}` : undefined,
    live ? LIVE_MS : undefined,
  );
  // The filters and sort live in the hash: applying them is a new history entry, so Back undoes it.
  const hashQuery = useHashQuery();
  const filters = filtersFromQuery(hashQuery);
  const query = filterQuery(filters);
  const problem = filterProblem(filters);
  const row = Number(hashQuery.get('row') ?? 0);
  useKey('/', () => document.getElementById('sample-search')?.focus());
  useEffect(() => {
    if (detail.state === 'ok' && detail.data.run.status !== 'running') setLive(false);
  }, [detail]);
  const run = detail.state === 'ok' ? detail.data.run : undefined;
  if (detail.state === 'error' && detail.code === 'run_not_found') {
    return (
      <section>
        <h1>Run {runId}</h1>
        <p className="error" role="alert" id="run-missing">
          No run {runId} in this store.
        </p>
      </section>
    );
  }
  // The table keeps its place in the page whatever the statistics are doing, so it is never drawn
  // afresh (scrolled to the top, its pages asked again) when they answer.
  return (
    <section>
      <h1>
        Run <span id="run-id">{run?.id ?? runId}</span>{' '}
        {live && run?.status === 'running' && <LiveStatus polled={detail} />}
      </h1>
      {detail.state === 'ok' ? (
        <RunStatistics
          detail={detail.data}
          histograms={histograms}
          rewardSeries={rewardSeries}
          costSeries={judged ? costSeries : undefined}
        />
      ) : (
        <div id="run-statistics">
          {detail.state === 'loading' ? (
            <p className="muted">Loading the statistics…</p>
          ) : (
            <StatusLine loaded={detail} />
          )}
        </div>
      )}
      {samplesAnswered && <DataSourceTable runId={runId} />}
      {judged && <CriteriaPanel runId={runId} />}
      <h2>Samples</h2>
      <SampleFilters
        // A new hash (Back, a link) shows its own filters in the form.
        key={query}
        initial={filters}
        sources={detail.state === 'ok' ? detail.data.sources.map((s) => s.source) : []}
        dataSources={dataSources.state === 'ok' ? dataSources.data.data_sources : []}
        onApply={(f) => {
          window.location.hash = hrefWith(['runs', runId], filterQuery(f));
        }}
      />
      {!problem && <ExportLinks runId={runId} query={query} />}
      {problem ? (
        // A link with a bad bound: said once, rather than a table of rows that never come.
        <p className="error" role="alert" id="filter-problem">
          {problem}
        </p>
      ) : (
        <SamplesTable
          runId={runId}
          query={query}
          initialRow={Number.isInteger(row) && row > 0 ? row : 0}
          // A live run's table asks for the rows in view again as results arrive.
          refresh={live ? run?.results : undefined}
          onFirstAnswer={() => setSamplesAnswered(true)}
        />
      )}
    </section>
  );
}

/** Where a live run's statistics stand: being asked for, or how long ago they answered. */
function LiveStatus({ polled }: { polled: Polled<unknown> }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  const text =
    polled.updating || polled.updatedAt === undefined
      ? 'live · updating…'
      : `live · updated ${Math.max(0, Math.round((now - polled.updatedAt) / 1000))} s ago`;
  return (
    <span className="live muted" id="live-status" aria-live="off">
      {text}
    </span>
  );
}

function RunStatistics({
  detail,
  histograms,
  rewardSeries,
  costSeries,
}: {
  detail: RunDetail;
  histograms: Loaded<{ histograms: Histogram[] }>;
  rewardSeries: Loaded<{ buckets: RewardSeriesBucket[] }>;
  costSeries: Loaded<{ buckets: CostSeriesBucket[] }> | undefined;
}) {
  const { run, sources } = detail;
  // A cost column only where some source's model had a price: otherwise it would be all dashes.
  const priced = sources.filter((s) => s.usage?.cost_usd !== undefined);
  const totalUsd = priced.reduce((n, s) => n + (s.usage?.cost_usd ?? 0), 0);
  return (
    <div id="run-statistics">
      <p>
        <b>{run.spec_name}</b> · <span className={`status-${run.status}`}>{run.status}</span> · {run.results}{' '}
        results · {run.failed} failed · mean reward {num(run.mean_reward)} · {duration(run.duration_ms)}
        {run.input && ` · input ${run.input}`}
        {priced.length > 0 && <span id="run-cost"> · judge cost {formatUsd(totalUsd)}</span>}
      </p>
      {run.kind !== 'score' && (
        // An analysis run (redteam, bench, …) keeps a report of its own; a judge command's run none.
        <p id="analysis-report">
          {run.kind}: {run.headline}
          {run.kind !== 'judge' && (
            <>
              {' '}
              · <a href={`api/runs/${run.id}/report`}>open its report</a>
            </>
          )}
        </p>
      )}
      {run.kind === 'bench' && <BenchSummaryPanel summary={detail.summary} />}
      {run.kind === 'judge' && <JudgeSummaryPanel summary={detail.summary} />}
      <table className="grid">
        <TableHead
          columns={[
            'source',
            'scored',
            'mean',
            'invalid',
            'calls',
            'tokens in/out',
            'cache hits',
            ...(priced.length > 0 ? ['cost'] : []),
          ]}
        />
        <tbody>
          {sources.map((s) => (
            <tr key={s.source}>
              <td>{s.source}</td>
              <td className="n">{s.count}</td>
              <td className="n">{num(s.mean)}</td>
              <td className="n">{s.invalid}</td>
              <td className="n">{s.usage?.calls ?? '—'}</td>
              <td className="n">
                {s.usage ? `${tokens(s.usage.prompt_tokens)}/${tokens(s.usage.completion_tokens)}` : '—'}
              </td>
              <td className="n">{s.usage?.cache_hits ?? '—'}</td>
              {priced.length > 0 && (
                <td className="n">{s.usage?.cost_usd !== undefined ? formatUsd(s.usage.cost_usd) : '—'}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="histograms">
        {histograms.state === 'ok' ? (
          histograms.data.histograms.map((h) => <HistogramChart key={h.source ?? ''} histogram={h} />)
        ) : (
          <StatusLine loaded={histograms} />
        )}
      </div>
      <div className="charts">
        {rewardSeries.state === 'ok' ? (
          rewardSeries.data.buckets.some((b) => b.mean_reward !== null) && (
            <LineChart
              id="reward-series"
              caption={run.status === 'running' ? 'reward over results (live)' : 'reward over results'}
              input={rewardOverResultsChart(rewardSeries.data.buckets)}
            />
          )
        ) : (
          <StatusLine loaded={rewardSeries} />
        )}
        {costSeries?.state === 'ok' && costSeries.data.buckets.some((b) => b.calls > 0) && (
          <>
            <LineChart
              id="tokens-series"
              caption="tokens over time"
              input={costOverTimeChart(costSeries.data.buckets, 'tokens')}
            />
            <LineChart
              id="calls-series"
              caption="calls over time"
              input={costOverTimeChart(costSeries.data.buckets, 'calls')}
            />
          </>
        )}
        {costSeries && costSeries.state !== 'ok' && <StatusLine loaded={costSeries} />}
      </div>
    </div>
  );
}
