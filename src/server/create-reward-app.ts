import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { routePath } from 'hono/route';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorMessage, RewardKitError, type RewardResult, type Sample } from '../core/index.js';
import type { PairwiseJudge } from '../judges/index.js';
import type { StateAccess } from '../rl/index.js';
import type { Evaluator } from '../spec/index.js';
import type { CodeSandbox } from '../verify/code/index.js';
import { ApiError, statusOfErrorCode } from './api-error.js';
import { bearerAuth } from './bearer-auth.js';
import { drainUnreadBody } from './drain-unread-body.js';
import type { GroupShaper } from './group-shaper.js';
import { bodyTooLarge, incomingOf } from './read-request-body.js';
import type { RewardService } from './reward-service.js';
import { createRlGroupShaper } from './rl-group-shaper.js';
import { registerGetRewardRoute } from './routes/get-reward-route.js';
import { registerGroupsRoute } from './routes/groups-route.js';
import { registerHealthRoute, registerMetricsRoute, registerReadyRoute } from './routes/ops-routes.js';
import { registerRewardsRoute } from './routes/rewards-route.js';
import { registerRunCodeRoute } from './routes/run-code-route.js';
import type { ServerEnv } from './server-env.js';
import { createServerMetrics, type ServerMetrics } from './server-metrics.js';
import { DEFAULT_SERVER_OPTIONS, type ServerOptions } from './server-options.js';
import { createStoreOutage } from './store-outage.js';
import { createTimeOrderedIds } from './time-ordered-id.js';
import { createWorkQueue, type WorkQueue } from './work-queue.js';

export interface RewardAppDeps {
  readonly evaluator: Evaluator;
  /** Builds the code sandbox for `/run_code` on first use. */
  readonly codeSandbox: () => CodeSandbox;
  /** Saves results under their request id; default: keep nothing. */
  readonly record?: (
    results: readonly RewardResult[],
    requestId: string,
    samples: readonly Sample[],
  ) => Promise<void>;
  /** The store run results go to; names the default state run of group methods. */
  readonly runId?: string;
  /** The store `record` and `state` write to, which `/readyz` asks whether it answers. */
  readonly store?: { readonly ping: () => Promise<void> };
  /** Where the server's own lines go (a store outage, a bug's stack); default stderr. */
  readonly log?: (line: string) => void;
  /** Group methods for `/v1/groups`; default: the rl module's, with `state` and `judge` below. */
  readonly shaper?: GroupShaper;
  /** Where group methods keep state between requests (CLIPO head, Tri-Factor EMA): the store. */
  readonly state?: StateAccess;
  /** BRPO's pairwise judge. */
  readonly judge?: PairwiseJudge;
  readonly options?: Partial<ServerOptions>;
}

export interface RewardApp {
  readonly app: Hono<ServerEnv>;
  readonly metrics: ServerMetrics;
  readonly queue: WorkQueue;
  /** HTTP requests being answered now (graceful shutdown waits for 0). */
  requestsInFlight(): number;
}

/**
 * The reward server as a hono app, testable with `app.request()` without a socket: request ids,
 * metrics, body limit, bearer auth, the native API, OpenRLHF's `/get_reward`, SandboxFusion's
 * `/run_code`, `/healthz` and `/metrics`; every failure answers `{error: {code, message, issues?}}`.
 */
export function createRewardApp(deps: RewardAppDeps): RewardApp {
  const options = { ...DEFAULT_SERVER_OPTIONS, ...deps.options };
  const metrics = createServerMetrics();
  const queue = createWorkQueue({ concurrency: options.concurrency, maxQueue: options.maxQueue });
  const log = deps.log ?? ((line: string) => process.stderr.write(`rewardkit serve: ${line}\n`));
  const outage = createStoreOutage(log);
  const record = deps.record;
  const service: RewardService = {
    evaluator: deps.evaluator,
    queue,
    metrics,
    // A save that commits ends a store outage; one that cannot reach the store is answered by onError.
    record: record
      ? async (results, requestId, samples) => {
          await record(results, requestId, samples);
          outage.answered();
        }
      : async () => {},
    deadlineMs: options.deadlineMs,
    body: { maxBytes: options.maxBodyBytes, timeoutMs: options.bodyTimeoutMs },
  };
  let inFlight = 0;
  const newRequestId = createTimeOrderedIds();
  const app = new Hono<ServerEnv>();

  app.use(async function requestContext(c, next) {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && /^[\w.:-]{1,200}$/.test(given) ? given : newRequestId();
    c.set('requestId', requestId);
    // Set before the answer exists: every answer the context builds (c.json, onError, notFound)
    // carries it. Set after, it would make the node adapter rebuild the answer as a full Web
    // Response (its body re-read as a stream), about a tenth of a fast route's time.
    c.header('X-Request-Id', requestId);
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      metrics.observeRequest(
        routeLabel(routePath(c, -1)),
        c.res.status,
        (performance.now() - started) / 1000,
      );
    }
  });
  app.use(drainUnreadBody(options.bodyTimeoutMs));
  app.onError((error, c) => {
    const apiError =
      error instanceof ApiError
        ? error
        : RewardKitError.isInstance(error)
          ? error.code === 'RK_STORE_UNAVAILABLE'
            ? outage.failed(error)
            : libraryError(error)
          : new ApiError(500, 'internal', `internal error: ${errorMessage(error)}`);
    if (apiError.status === 429) metrics.countFailure('queue_full');
    if (apiError.apiCode === 'store_unavailable') metrics.countFailure('store_unavailable');
    if (apiError.status === 500) {
      metrics.countFailure('internal');
      log((error as Error)?.stack ?? String(error));
    }
    return c.json(
      {
        error: {
          code: apiError.apiCode,
          message: apiError.message,
          // The answer's issues are {path, message}: the zod code stays server-side.
          ...(apiError.issues && { issues: apiError.issues.map(({ path, message }) => ({ path, message })) }),
          ...apiError.details,
        },
        request_id: c.get('requestId'),
      },
      apiError.status as ContentfulStatusCode,
      apiError.headers,
    );
  });
  app.notFound((c) =>
    c.json(
      {
        error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` },
        request_id: c.get('requestId'),
      },
      404,
    ),
  );

  registerHealthRoute(app, () => ({
    spec: deps.evaluator.spec.name,
    // Clients that cannot send groups unasked (the TRL shim) check this before their first request.
    needs_groups: deps.evaluator.needsGroups,
    // Which process answered: with `serve --processes` several share the port.
    pid: process.pid,
    ...(deps.runId !== undefined && { run: deps.runId }),
    ...(deps.store && { store: outage.state() }),
  }));
  registerReadyRoute(app, deps.store, outage, READY_TIMEOUT_MS);
  if (options.tokens.length > 0) app.use('*', bearerAuth(options.tokens));
  registerMetricsRoute(app, metrics, {
    queueDepth: queue.depth,
    jobsInFlight: queue.inFlight,
    requestsInFlight: () => inFlight,
  });
  const tooLarge = () => {
    throw bodyTooLarge(options.maxBodyBytes);
  };
  const streamedLimit = bodyLimit({ maxSize: options.maxBodyBytes, onError: tooLarge });
  app.use('*', async function limitBody(c, next) {
    // A declared length is checked from the header alone: hono's bodyLimit reads `c.req.raw.body`,
    // which makes the node adapter build a full Web Request for every request. Bodies of unknown
    // length (chunked) are counted as they stream in: behind a node socket by the routes' body
    // reader, otherwise by hono's.
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined)
      return incomingOf(c) ? next() : streamedLimit(c, next);
    if (Number(length) > options.maxBodyBytes) tooLarge();
    await next();
  });
  registerRewardsRoute(app, service);
  registerGroupsRoute(app, service, {
    shaper:
      deps.shaper ??
      createRlGroupShaper({
        ...(deps.state && { state: deps.state }),
        ...(deps.judge && { judge: deps.judge }),
      }),
    defaultMethod: options.groupMethod,
    defaultRun: deps.runId ?? 'serve',
  });
  registerGetRewardRoute(app, service, options.failedReward);
  registerRunCodeRoute(app, service, deps.codeSandbox, options.runCode);
  return { app, metrics, queue, requestsInFlight: () => inFlight };
}

// A probe waits this long for the store: load balancers time their probes out after a few seconds.
const READY_TIMEOUT_MS = 2000;

/**
 * A library error escaping a route (a group method refusing its row, `RK_INPUT_SCHEMA`): the
 * client's own mistake answers with the documented `invalid_request`, not the library's code.
 */
function libraryError(error: RewardKitError): ApiError {
  const status = statusOfErrorCode(error.code);
  return new ApiError(status, status === 400 ? 'invalid_request' : error.code, error.message);
}

// The route pattern, not the URL, labels metrics: unknown paths must not grow the series without end.
const routeLabel = (pattern: string) => (pattern.startsWith('/') && pattern !== '/*' ? pattern : 'other');
