import { RewardKitError } from '../../core/index.js';
import type { ServerApp } from '../server-env.js';
import type { MetricGauges, ServerMetrics } from '../server-metrics.js';
import type { StoreOutage } from '../store-outage.js';

/**
 * `GET /healthz`: registered before auth, so load balancers can probe without a token. Liveness:
 * 200 while the process answers, with the store's state as last seen (no query is made).
 */
export function registerHealthRoute(app: ServerApp, health: () => Record<string, unknown>): void {
  app.get('/healthz', (c) => c.json({ status: 'ok', ...health() }));
}

/**
 * `GET /readyz`, also before auth: readiness for a load balancer. Asks the store now (within
 * `timeoutMs`): 200 when it answers, else 503 `store_unavailable` with `Retry-After`. An answer
 * ends an outage the server saw; no answer begins one.
 */
export function registerReadyRoute(
  app: ServerApp,
  store: { readonly ping: () => Promise<void> } | undefined,
  outage: StoreOutage,
  timeoutMs: number,
): void {
  app.get('/readyz', async (c) => {
    if (store) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new RewardKitError('RK_STORE_UNAVAILABLE', `the store did not answer within ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
      });
      try {
        await Promise.race([store.ping(), timeout]);
        outage.answered();
      } catch (error) {
        if (!RewardKitError.isInstance(error) || error.code !== 'RK_STORE_UNAVAILABLE') throw error;
        throw outage.failed(error);
      } finally {
        clearTimeout(timer);
      }
    }
    return c.json({ status: 'ready', store: outage.state() });
  });
}

/** `GET /metrics`: Prometheus text exposition (behind auth when tokens are set). */
export function registerMetricsRoute(app: ServerApp, metrics: ServerMetrics, gauges: MetricGauges): void {
  app.get('/metrics', (c) =>
    c.text(metrics.render(gauges), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
}
