import { useEffect, useState } from 'react';
import { costOverTimeChart, rewardOverResultsChart } from '../../src/view/run-series-charts.js';
import type { CostSeriesBucket, Histogram, RewardSeriesBucket, RunDetail } from './api';
import { duration, num, tokens } from './format';
import { HistogramChart } from './histogram-chart';
import { LineChart } from './line-chart';
import { filterQuery, NO_FILTERS, SampleFilters } from './sample-filters';
import { SamplesTable } from './samples-table';
import { StatusLine } from './status-line';
import { useApi } from './use-api';

/** Buckets of the reward-over-results and cost-over-time series. */
const BUCKETS = 60;

/**
 * One run: its numbers, per-source statistics and histograms, the reward over its results (for a
 * `serve` run, over requests) and, when a judge ran, its tokens and calls over time, and its samples.
 */
export function RunPage({ runId }: { runId: string }) {
  const path = `runs/${encodeURIComponent(runId)}`;
  // Statistics of a million rows take seconds: asked again only while the run is still going.
  const [live, setLive] = useState(true);
  // The store answers one query at a time, and the statistics of a million rows take seconds: they
  // are asked for once the first page of samples has answered, so the table is drawn first.
  const [samplesAnswered, setSamplesAnswered] = useState(false);
  const detail = useApi<RunDetail>(samplesAnswered ? path : undefined, live ? 3000 : undefined);
  const histograms = useApi<{ histograms: Histogram[] }>(
    samplesAnswered ? `${path}/histograms?bins=20` : undefined,
  );
  // The reward series reads one index, so it follows a live run; the cost series reads every
  // result's evidence, so it is asked only for a run whose sources called a model.
  const rewardSeries = useApi<{ buckets: RewardSeriesBucket[] }>(
    samplesAnswered ? `${path}/reward-series?buckets=${BUCKETS}` : undefined,
    live ? 3000 : undefined,
  );
  const judged = detail.state === 'ok' && detail.data.sources.some((s) => s.usage !== undefined);
  const costSeries = useApi<{ buckets: CostSeriesBucket[] }>(
    judged ? `${path}/cost-series?buckets=${BUCKETS}` : undefined,
    live ? 5000 : undefined,
  );
  const [query, setQuery] = useState(filterQuery(NO_FILTERS));
  useEffect(() => {
    if (detail.state === 'ok' && detail.data.run.status !== 'running') setLive(false);
  }, [detail]);
  // The samples table does not wait for the statistics: it pages the run on its own.
  const samples = (sources: string[]) => (
    <>
      <h2>Samples</h2>
      <SampleFilters sources={sources} onApply={(f) => setQuery(filterQuery(f))} />
      <SamplesTable runId={runId} query={query} onFirstAnswer={() => setSamplesAnswered(true)} />
    </>
  );
  if (detail.state !== 'ok') {
    return (
      <section>
        <h1>Run {runId}</h1>
        <StatusLine loaded={detail} />
        {detail.state === 'loading' && samples([])}
      </section>
    );
  }
  const { run, sources } = detail.data;
  return (
    <section>
      <h1>
        Run <span id="run-id">{run.id}</span>
      </h1>
      <p>
        <b>{run.spec_name}</b> · <span className={`status-${run.status}`}>{run.status}</span> · {run.results}{' '}
        results · {run.failed} failed · mean reward {num(run.mean_reward)} · {duration(run.duration_ms)}
        {run.input && ` · input ${run.input}`}
      </p>
      <table className="grid">
        <thead>
          <tr>
            <th>source</th>
            <th>scored</th>
            <th>mean</th>
            <th>invalid</th>
            <th>calls</th>
            <th>tokens in/out</th>
            <th>cache hits</th>
          </tr>
        </thead>
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
        {judged && costSeries.state === 'ok' && costSeries.data.buckets.some((b) => b.calls > 0) && (
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
        {judged && costSeries.state !== 'ok' && <StatusLine loaded={costSeries} />}
      </div>
      {samples(sources.map((s) => s.source))}
    </section>
  );
}
