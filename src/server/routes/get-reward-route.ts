import type { RewardResult } from '../../core/index.js';
import { clientSignal } from '../client-signal.js';
import { OpenRlhfRequestSchema, openRlhfSamples } from '../openrlhf-request.js';
import { openRlhfResponse } from '../openrlhf-response.js';
import { readJsonBody } from '../read-json-body.js';
import { DEADLINE_HEADER, requestDeadline } from '../request-deadline.js';
import type { RewardService } from '../reward-service.js';
import { scoreUnits, unitsOf } from '../score-units.js';
import type { ServerApp } from '../server-env.js';

/** `POST /get_reward`: OpenRLHF's remote reward contract, drop-in. */
export function registerGetRewardRoute(app: ServerApp, service: RewardService, failedReward: number): void {
  app.post('/get_reward', async (c) => {
    const deadline = requestDeadline(service.deadlineMs, c.req.header(DEADLINE_HEADER));
    const body = await readJsonBody(c, OpenRlhfRequestSchema, service.body, deadline);
    const requestId = c.get('requestId');
    const needsGroups = service.evaluator.needsGroups;
    const { samples, warnings } = openRlhfSamples(body, requestId, needsGroups);
    // The prompt-prefix warning is part of the stored result, so `runs show` explains the odd ones.
    const annotate = (results: RewardResult[]) =>
      results.map((r) => {
        const warning = warnings.get(r.id);
        return warning ? { ...r, warnings: [warning, ...r.warnings] } : r;
      });
    const units = await scoreUnits(
      { ...service, record: (results, id, scored) => service.record(annotate([...results]), id, scored) },
      {
        units: unitsOf(samples, needsGroups),
        requestId,
        signal: clientSignal(c),
        deadlineMs: deadline.ms,
        startedAt: deadline.startedAt,
      },
    );
    const byId = new Map(units.flat().map((r) => [r.id, r]));
    const ordered = annotate(samples.map((s) => byId.get(s.id) as RewardResult));
    return c.json(openRlhfResponse(ordered, service.evaluator.spec, failedReward));
  });
}
