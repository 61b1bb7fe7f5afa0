import { z } from 'zod';
import { type RewardResult, SampleSchema } from '../../core/index.js';
import { clientSignal } from '../client-signal.js';
import { readJsonBody } from '../read-json-body.js';
import { DEADLINE_HEADER, requestDeadline } from '../request-deadline.js';
import type { RewardService } from '../reward-service.js';
import { scoreUnits, unitsOf } from '../score-units.js';
import type { ServerApp } from '../server-env.js';
import { specComponentNames } from '../spec-components.js';
import { assertUniqueIds } from '../unique-ids.js';

export const RewardsRequestSchema = z.object({
  samples: z.array(SampleSchema).min(1, 'expected at least one sample'),
  /** Lowers the server's deadline for this request (ms). */
  deadline_ms: z.number().positive().optional(),
});

/**
 * `POST /v1/rewards`: one RewardResult per sample, in request order, and every component name the
 * spec can produce — a result carries only its own route's, and a client that logs per-sample
 * extras (the verl shim) needs the same keys on every sample.
 */
export function registerRewardsRoute(app: ServerApp, service: RewardService): void {
  app.post('/v1/rewards', async (c) => {
    const requested = requestDeadline(service.deadlineMs, c.req.header(DEADLINE_HEADER));
    const body = await readJsonBody(c, RewardsRequestSchema, service.body, requested);
    const deadline = requested.lowered(body.deadline_ms);
    assertUniqueIds(body.samples, (i) => `samples.${i}`);
    const requestId = c.get('requestId');
    const units = await scoreUnits(service, {
      units: unitsOf(body.samples, service.evaluator.needsGroups),
      requestId,
      signal: clientSignal(c),
      deadlineMs: deadline.ms,
      startedAt: deadline.startedAt,
    });
    const byId = new Map<string, RewardResult>(units.flat().map((r) => [r.id, r]));
    return c.json({
      request_id: requestId,
      results: body.samples.map((s) => byId.get(s.id) as RewardResult),
      components: specComponentNames(service.evaluator.spec),
    });
  });
}
