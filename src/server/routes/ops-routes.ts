import type { ServerApp } from '../server-env.js';
import type { MetricGauges, ServerMetrics } from '../server-metrics.js';

/** `GET /healthz`: registered before auth, so load balancers can probe without a token. */
export function registerHealthRoute(app: ServerApp, health: () => Record<string, unknown>): void {
  app.get('/healthz', (c) => c.json({ status: 'ok', ...health() }));
}

/** `GET /metrics`: Prometheus text exposition (behind auth when tokens are set). */
export function registerMetricsRoute(app: ServerApp, metrics: ServerMetrics, gauges: MetricGauges): void {
  app.get('/metrics', (c) =>
    c.text(metrics.render(gauges), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
}
