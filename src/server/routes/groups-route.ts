import { z } from 'zod';
import { type RewardResult, SampleSchema } from '../../core/index.js';
import type { GroupShaping } from '../../rl/index.js';
import { ApiError } from '../api-error.js';
import { clientSignal } from '../client-signal.js';
import type { GroupShaper } from '../group-shaper.js';
import { readJsonBody } from '../read-json-body.js';
import { DEADLINE_HEADER, requestDeadline } from '../request-deadline.js';
import type { RewardService } from '../reward-service.js';
import { scoreUnits } from '../score-units.js';
import type { ServerApp } from '../server-env.js';
import { assertUniqueIds } from '../unique-ids.js';

export const GroupsRequestSchema = z.object({
  groups: z
    .array(
      z
        .looseObject({
          group: z.union([z.string().min(1), z.number()]).transform(String),
          samples: z.array(SampleSchema).min(1, 'expected at least one sample'),
          /** Mean-pooled final hidden state per sample, for CLIPO. */
          hidden_states: z.array(z.array(z.number().finite()).min(1)).optional(),
        })
        .superRefine((g, ctx) => {
          if (g.hidden_states && g.hidden_states.length !== g.samples.length) {
            ctx.addIssue({
              code: 'custom',
              path: ['hidden_states'],
              message: `expected one hidden state per sample (${g.samples.length}), got ${g.hidden_states.length}`,
            });
          }
        }),
    )
    .min(1, 'expected at least one group'),
  /** Group method; default: the server's `--group-method`. */
  method: z.string().min(1).optional(),
  /** The method's options (see docs/rl.md); unknown keys are errors. */
  options: z.record(z.string(), z.unknown()).optional(),
  /** Names the training run whose state (CLIPO head, Tri-Factor EMA) this request continues. */
  run: z.string().min(1).optional(),
  /** Seeds the method's random draws (BRPO reference, CLIPO positives). */
  seed: z.number().int().nonnegative().optional(),
  deadline_ms: z.number().positive().optional(),
});

export interface GroupsRouteOptions {
  readonly shaper: GroupShaper;
  readonly defaultMethod: string;
  /** The state key prefix when a request names no `run`: the server's own store run. */
  readonly defaultRun: string;
}

/**
 * `POST /v1/groups`: scores each group's rollouts together (group sources such as pairwise judges
 * compare them), then shapes each group's rewards into advantages with the group method.
 */
export function registerGroupsRoute(
  app: ServerApp,
  service: RewardService,
  options: GroupsRouteOptions,
): void {
  app.post('/v1/groups', async (c) => {
    const requested = requestDeadline(service.deadlineMs, c.req.header(DEADLINE_HEADER));
    const body = await readJsonBody(c, GroupsRequestSchema, service.body, requested);
    const method = body.method ?? options.defaultMethod;
    const prepared = options.shaper.prepare(method, body.options ?? {});
    if (!prepared.ok) {
      const first = prepared.issues[0];
      throw new ApiError(400, 'invalid_request', `invalid request body: ${first?.path}: ${first?.message}`, {
        issues: prepared.issues,
      });
    }
    const flat = body.groups.flatMap((g, gi) =>
      g.samples.map((s, si) => ({ s, path: `groups.${gi}.samples.${si}` })),
    );
    assertUniqueIds(
      flat.map((f) => f.s),
      (i) => flat[i]?.path ?? '',
    );
    const requestId = c.get('requestId');
    const { ms: deadlineMs, startedAt } = requested.lowered(body.deadline_ms);
    const deadline = startedAt + deadlineMs;
    const client = clientSignal(c);
    const scored = await scoreUnits(service, {
      units: body.groups.map((g) => g.samples.map((s) => ({ ...s, group: g.group }))),
      requestId,
      signal: client,
      deadlineMs,
      startedAt,
    });
    // Shaping may call a judge (BRPO): it runs under what is left of the same deadline.
    const shapeSignal = AbortSignal.any([
      client,
      AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))),
    ]);
    const groups = [];
    for (const [gi, g] of body.groups.entries()) {
      const results = scored[gi] as RewardResult[];
      const { group, samples, hidden_states, ...extras } = g;
      let shaping: GroupShaping;
      try {
        shaping = await prepared.shape(
          { group, samples, results, extras, ...(hidden_states && { hidden_states }) },
          { run: body.run ?? options.defaultRun, seed: body.seed ?? 0, signal: shapeSignal },
        );
      } catch (error) {
        if (!shapeSignal.aborted || client.aborted) throw error;
        service.metrics.countFailure('deadline');
        throw new ApiError(
          504,
          'deadline_exceeded',
          `request deadline of ${deadlineMs} ms exceeded while shaping group "${group}"; the scored results are recorded under request ${requestId}`,
          { details: { finished: gi, total: body.groups.length } },
        );
      }
      groups.push({ ...shaping, group, rewards: results.map((r) => r.reward), results });
    }
    return c.json({ request_id: requestId, method, groups });
  });
}
