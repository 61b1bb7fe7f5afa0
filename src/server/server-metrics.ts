import type { RewardResult } from '../core/index.js';

/** Distinct data_source labels of `rewardkit_routed_default`; further names count under `*`. */
const ROUTED_DEFAULT_LABELS = 200;
const OTHER_SOURCES = '*';

/** Upper bounds (seconds) of the request latency histogram: judge-backed requests take minutes. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Live figures read at scrape time (queue depth, requests in flight). */
export interface MetricGauges {
  queueDepth(): number;
  jobsInFlight(): number;
  requestsInFlight(): number;
}

/**
 * The server's counters, rendered in the Prometheus text exposition format (version 0.0.4).
 * Written by hand: a handful of series does not need a client library.
 */
export interface ServerMetrics {
  observeRequest(route: string, status: number, seconds: number): void;
  /** Counts the judge calls, cache hits and failures behind scored results. */
  observeResults(results: readonly RewardResult[]): void;
  /** A failure that produced no result of its own (deadline, disconnect, queue full). */
  countFailure(kind: string, n?: number): void;
  render(gauges: MetricGauges): string;
}

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function createServerMetrics(): ServerMetrics {
  const requests = new Map<string, number>();
  const latency = new Map<string, Histogram>();
  const failures = new Map<string, number>();
  let llmCalls = 0;
  let cacheHits = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let samplesOk = 0;
  let samplesFailed = 0;
  // Labelled by the data_source the sample named: bounded, since the names are the client's.
  const routedDefault = new Map<string, number>();

  const bump = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

  return {
    observeRequest(route, status, seconds) {
      bump(requests, `route="${escapeLabel(route)}",status="${status}"`);
      const h = latency.get(route) ?? { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      LATENCY_BUCKETS.forEach((bound, i) => {
        if (seconds <= bound) h.counts[i] = (h.counts[i] ?? 0) + 1;
      });
      h.sum += seconds;
      h.count++;
      latency.set(route, h);
    },
    observeResults(results) {
      for (const result of results) {
        if (result.status === 'ok') samplesOk++;
        else samplesFailed++;
        if (result.routed_default) {
          const named = result.data_source ?? '';
          const label =
            routedDefault.has(named) || routedDefault.size < ROUTED_DEFAULT_LABELS ? named : OTHER_SOURCES;
          bump(routedDefault, label);
        }
        for (const evidence of result.evidence) {
          if (evidence.invalid) bump(failures, `source:${evidence.kind}`);
          if (evidence.usage) {
            llmCalls += evidence.usage.calls;
            cacheHits += evidence.usage.cache_hits;
            promptTokens += evidence.usage.prompt_tokens;
            completionTokens += evidence.usage.completion_tokens;
          }
        }
      }
    },
    countFailure(kind, n = 1) {
      bump(failures, kind, n);
    },
    render(gauges) {
      const lines: string[] = [];
      const metric = (name: string, type: string, help: string) =>
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      metric('rewardkit_http_requests_total', 'counter', 'HTTP requests answered, by route and status.');
      for (const [labels, n] of requests) lines.push(`rewardkit_http_requests_total{${labels}} ${n}`);
      metric('rewardkit_http_request_duration_seconds', 'histogram', 'Time to answer a request, by route.');
      for (const [route, h] of latency) {
        const r = `route="${escapeLabel(route)}"`;
        LATENCY_BUCKETS.forEach((bound, i) => {
          lines.push(`rewardkit_http_request_duration_seconds_bucket{${r},le="${bound}"} ${h.counts[i]}`);
        });
        lines.push(`rewardkit_http_request_duration_seconds_bucket{${r},le="+Inf"} ${h.count}`);
        lines.push(`rewardkit_http_request_duration_seconds_sum{${r}} ${h.sum}`);
        lines.push(`rewardkit_http_request_duration_seconds_count{${r}} ${h.count}`);
      }
      metric('rewardkit_queue_depth', 'gauge', 'Jobs (samples or groups) waiting for a worker.');
      lines.push(`rewardkit_queue_depth ${gauges.queueDepth()}`);
      metric('rewardkit_jobs_in_flight', 'gauge', 'Jobs being scored now.');
      lines.push(`rewardkit_jobs_in_flight ${gauges.jobsInFlight()}`);
      metric('rewardkit_requests_in_flight', 'gauge', 'HTTP requests being answered now.');
      lines.push(`rewardkit_requests_in_flight ${gauges.requestsInFlight()}`);
      metric('rewardkit_samples_total', 'counter', 'Samples scored, by outcome.');
      lines.push(`rewardkit_samples_total{status="ok"} ${samplesOk}`);
      lines.push(`rewardkit_samples_total{status="failed"} ${samplesFailed}`);
      metric('rewardkit_llm_calls_total', 'counter', 'Judge (LLM) calls made or answered from the cache.');
      lines.push(`rewardkit_llm_calls_total ${llmCalls}`);
      metric('rewardkit_llm_cache_hits_total', 'counter', 'Judge calls answered from the response cache.');
      lines.push(`rewardkit_llm_cache_hits_total ${cacheHits}`);
      metric('rewardkit_llm_tokens_total', 'counter', 'Judge tokens, by kind.');
      lines.push(`rewardkit_llm_tokens_total{kind="prompt"} ${promptTokens}`);
      lines.push(`rewardkit_llm_tokens_total{kind="completion"} ${completionTokens}`);
      metric(
        'rewardkit_routed_default',
        'counter',
        'Samples a spec with routes scored by its default route, by data_source ("" for none, "*" past the first 200 names).',
      );
      for (const [dataSource, n] of routedDefault)
        lines.push(`rewardkit_routed_default{data_source="${escapeLabel(dataSource)}"} ${n}`);
      metric(
        'rewardkit_failures_total',
        'counter',
        'Failures by kind: source:<kind> (a check that could not run), deadline, disconnect, queue_full, store_unavailable, internal.',
      );
      for (const [kind, n] of failures)
        lines.push(`rewardkit_failures_total{kind="${escapeLabel(kind)}"} ${n}`);
      return `${lines.join('\n')}\n`;
    },
  };
}
