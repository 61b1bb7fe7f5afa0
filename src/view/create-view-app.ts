import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorMessage, RewardKitError } from '../core/index.js';
import { ApiError } from '../server/index.js';
import { reportStateKey } from '../store/analysis-summary.js';
import type { Store } from '../store/index.js';
import { compareSample } from './compare-sample.js';
import { exportRows } from './export-rows.js';
import { judgeCallText } from './judge-call-preview.js';
import { registerLabelRoutes } from './label-routes.js';
import { NOT_BUILT_PAGE } from './not-built-page.js';
import { parseQuery } from './parse-query.js';
import { runCriteria } from './run-criteria.js';
import { runOverview } from './run-overview.js';
import { sampleDetail, sampleJudgeCall } from './sample-detail.js';
import { sampleQueryOf } from './sample-query-of.js';
import { defaultViewAppDir, readViewAsset } from './view-app-assets.js';
import {
  CallTextQuerySchema,
  CompareQuerySchema,
  ExportQuerySchema,
  HistogramQuerySchema,
  RunsQuerySchema,
  SamplesQuerySchema,
  SampleTextQuerySchema,
  SeriesQuerySchema,
} from './view-queries.js';

export interface ViewAppOptions {
  /** Read only unless `allowLabels`: then `putLabel` is the one method that writes. */
  readonly store: Store;
  /** The built web app (default: `dist/view-app/` of this package). */
  readonly assetsDir?: string;
  /**
   * `--allow-labels`: the one write the inspector can make, a person's label of a sample (the
   * store must then be open for writing). Off, the label route answers 403.
   */
  readonly allowLabels?: boolean;
}

/**
 * Content Security Policy of every answer: scripts only from the app itself, so text from a sample
 * that somehow reached the page as markup still could not run.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The inspector: a read-only JSON API over a store under `/api/`, and the web app that reads it.
 * Every route is a GET but the opt-in label write; a mounted app (`serve --ui`) works under any prefix, as the web app asks for
 * `api/…` relative to its page.
 */
export function createViewApp(options: ViewAppOptions): Hono {
  const { store } = options;
  const assetsDir = options.assetsDir ?? defaultViewAppDir();
  const app = new Hono();

  const requireRun = async (id: string) => {
    const run = await store.getRun(id);
    if (!run) throw new ApiError(404, 'run_not_found', `No run ${id} in this store`);
    return run;
  };

  app.use(async function securityHeaders(c, next) {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'no-store');
  });
  app.onError((error, c) => {
    const apiError =
      error instanceof ApiError
        ? error
        : RewardKitError.isInstance(error)
          ? new ApiError(500, error.code, error.message)
          : new ApiError(500, 'internal', `internal error: ${errorMessage(error)}`);
    return c.json(
      {
        error: {
          code: apiError.apiCode,
          message: apiError.message,
          ...(apiError.issues && { issues: apiError.issues.map(({ path, message }) => ({ path, message })) }),
        },
      },
      apiError.status as ContentfulStatusCode,
    );
  });

  app.get('/api/store', (c) => c.json({ kind: store.kind, labels: options.allowLabels === true }));
  app.get('/api/runs', async (c) => {
    const { limit } = parseQuery(RunsQuerySchema, c.req.query());
    const runs = await store.listRuns({ limit });
    const now = Date.now();
    return c.json({ runs: await Promise.all(runs.map((run) => runOverview(store, run, { now }))) });
  });
  app.get('/api/runs/:run', async (c) => {
    const run = await requireRun(c.req.param('run'));
    // One pass over the evidence serves both the per-source table and, for a run without a
    // summary, its cost.
    const sources = await store.sourceStats(run.id);
    return c.json({
      run: await runOverview(store, run, { sources }),
      spec: run.spec,
      summary: run.summary,
      sources,
    });
  });
  // An analysis run's self-contained HTML report (redteam, audit, …), as its command wrote it.
  app.get('/api/runs/:run/report', async (c) => {
    const run = await requireRun(c.req.param('run'));
    const html = await store.getState(reportStateKey(run.id));
    if (typeof html !== 'string')
      throw new ApiError(404, 'report_not_found', `run "${run.id}" stored no report`);
    return c.html(html);
  });
  app.get('/api/runs/:run/samples', async (c) => {
    const q = parseQuery(SamplesQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    return c.json(await store.querySamples(run.id, sampleQueryOf(q, q)));
  });
  // Every row the table shows for the same filters and sort, streamed as JSONL or CSV.
  app.get('/api/runs/:run/export', async (c) => {
    const { format, ...filters } = parseQuery(ExportQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    const sources = (await store.sourceStats(run.id)).map((s) => s.source);
    const chunks = exportRows(store, run.id, filters, format, sources);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new TextEncoder().encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return c.body(body, 200, {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="${run.id}.${format}"`,
    });
  });
  app.get('/api/runs/:run/samples/:sample', async (c) => {
    const run = await requireRun(c.req.param('run'));
    return c.json(await sampleDetail(store, run.id, c.req.param('sample')));
  });
  app.get('/api/runs/:run/samples/:sample/text', async (c) => {
    const { field } = parseQuery(SampleTextQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    const text = await store.getSampleText(run.id, c.req.param('sample'));
    if (!text)
      throw new ApiError(404, 'text_not_found', `no text saved for sample "${c.req.param('sample')}"`);
    const value = field === 'response' ? text.response : text[field];
    return c.text(typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2));
  });
  app.get('/api/runs/:run/samples/:sample/call', async (c) => {
    const q = parseQuery(CallTextQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    const call = await sampleJudgeCall(store, run.id, c.req.param('sample'), q);
    const text = judgeCallText(call, q.field, q.message);
    if (text === undefined) {
      throw new ApiError(
        404,
        'text_not_found',
        `the judge call has no ${q.field === 'message' ? `message ${q.message}` : q.field}`,
      );
    }
    return c.text(text);
  });
  // Apart from the run's numbers, which a live run polls: this one reads every row of the run once.
  app.get('/api/runs/:run/data-sources', async (c) => {
    const run = await requireRun(c.req.param('run'));
    return c.json({ data_sources: await store.dataSources(run.id) });
  });
  // Reads every row of the run once; kept under the run's version like the charts.
  app.get('/api/runs/:run/by-source', async (c) => {
    const run = await requireRun(c.req.param('run'));
    return c.json(await store.dataSourceBreakdown(run.id));
  });
  app.get('/api/runs/:run/criteria', async (c) => {
    const run = await requireRun(c.req.param('run'));
    return c.json({ criteria: await runCriteria(store, run.id) });
  });
  app.get('/api/runs/:run/histograms', async (c) => {
    const { bins } = parseQuery(HistogramQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    return c.json({ histograms: await store.rewardHistograms(run.id, bins) });
  });
  app.get('/api/runs/:run/reward-series', async (c) => {
    const { buckets } = parseQuery(SeriesQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    return c.json({ buckets: await store.rewardSeries(run.id, buckets) });
  });
  app.get('/api/runs/:run/cost-series', async (c) => {
    const { buckets } = parseQuery(SeriesQuerySchema, c.req.query());
    const run = await requireRun(c.req.param('run'));
    return c.json({ buckets: await store.costSeries(run.id, buckets) });
  });
  app.get('/api/compare', async (c) => {
    const q = parseQuery(CompareQuerySchema, c.req.query());
    const [a, b] = await Promise.all([requireRun(q.a), requireRun(q.b)]);
    return c.json({
      a: await runOverview(store, a),
      b: await runOverview(store, b),
      ...(await store.compareRuns(a.id, b.id, { limit: q.limit, offset: q.offset, filter: q.filter })),
    });
  });
  app.get('/api/compare/:a/:b/:sample', async (c) => {
    const [a, b] = await Promise.all([requireRun(c.req.param('a')), requireRun(c.req.param('b'))]);
    return c.json(await compareSample(store, a.id, b.id, c.req.param('sample')));
  });
  registerLabelRoutes(app, { store, allowLabels: options.allowLabels === true, requireRun });
  app.all('/api/*', (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      throw new ApiError(405, 'read_only', `the inspector is read-only: ${c.req.method} is not served`);
    }
    throw new ApiError(404, 'not_found', `no route GET ${c.req.path}`);
  });

  // The web app is flat (index.html beside its scripts): a file is named by the last segment.
  app.get('/*', async (c) => {
    const name = c.req.path.slice(c.req.path.lastIndexOf('/') + 1);
    if (name !== '' && !name.includes('.')) return c.redirect(`${c.req.path}/`);
    const asset = await readViewAsset(assetsDir, name === '' ? 'index.html' : name);
    if (asset) return c.body(new Uint8Array(asset.body), 200, { 'Content-Type': asset.contentType });
    if (name === '') return c.html(NOT_BUILT_PAGE, 200);
    return c.text('not found', 404);
  });
  return app;
}
