import type { Hono } from 'hono';
import { issuesOf } from '../core/index.js';
import { ApiError } from '../server/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { LabelBodySchema } from './label-body.js';
import { requireSameOriginJson } from './same-origin-json.js';

/** Large enough for a long note; a bigger body is refused before it is parsed. */
const MAX_BODY_BYTES = 16_384;

interface LabelRouteOptions {
  readonly store: Store;
  /** `--allow-labels`: without it the write route answers 403 and the inspector stays read-only. */
  readonly allowLabels: boolean;
  readonly requireRun: (id: string) => Promise<RunRecord>;
}

/** The inspector's label routes: a run's labels, one sample's, and (opt-in) writing one. */
export function registerLabelRoutes(app: Hono, options: LabelRouteOptions): void {
  const { store, allowLabels, requireRun } = options;

  app.get('/api/runs/:run/labels', async (c) => {
    const run = await requireRun(c.req.param('run'));
    return c.json({ labels: await store.listLabels(run.id) });
  });
  app.get('/api/runs/:run/samples/:sample/label', async (c) => {
    const run = await requireRun(c.req.param('run'));
    const [label] = await store.listLabels(run.id, { sampleId: c.req.param('sample') });
    return c.json({ label: label ?? null });
  });
  app.put('/api/runs/:run/samples/:sample/label', async (c) => {
    if (!allowLabels) {
      throw new ApiError(
        403,
        'labels_disabled',
        'the inspector is read-only; start it with rewardkit view --allow-labels to write labels',
      );
    }
    requireSameOriginJson(c.req);
    const text = await c.req.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
      throw new ApiError(413, 'body_too_large', `a label body holds at most ${MAX_BODY_BYTES} bytes`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'invalid_json', 'the label body is not JSON');
    }
    const parsed = LabelBodySchema.safeParse(json);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error.issues, 'body');
      throw new ApiError(
        400,
        'invalid_request',
        `invalid label ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        { issues },
      );
    }
    const run = await requireRun(c.req.param('run'));
    const sampleId = c.req.param('sample');
    if (!(await store.getResult(run.id, sampleId))) {
      throw new ApiError(404, 'sample_not_found', `no sample "${sampleId}" in run "${run.id}"`);
    }
    return c.json({ label: await store.putLabel(run.id, sampleId, parsed.data) });
  });
}
