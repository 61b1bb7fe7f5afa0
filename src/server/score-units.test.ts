import { describe, expect, test } from 'vitest';
import { failedResult, type RewardResult, type Sample, SampleSchema } from '../core/index.js';
import type { Evaluator } from '../spec/index.js';
import { ApiError } from './api-error.js';
import type { RewardService } from './reward-service.js';
import { scoreUnits, unitsOf } from './score-units.js';
import { createServerMetrics } from './server-metrics.js';
import { createWorkQueue } from './work-queue.js';

const s = (id: string, group?: string) => SampleSchema.parse({ id, response: 'r', ...(group && { group }) });

describe('unitsOf', () => {
  test('should score every sample alone when the spec compares nothing', () => {
    expect(unitsOf([s('a', 'g'), s('b', 'g')], false).map((u) => u.map((x) => x.id))).toEqual([['a'], ['b']]);
  });

  test('should put samples sharing a group together, in first-seen order, and leave ungrouped ones alone', () => {
    const units = unitsOf([s('a', 'g1'), s('b'), s('c', 'g2'), s('d', 'g1')], true);
    expect(units.map((u) => u.map((x) => x.id))).toEqual([['a', 'd'], ['b'], ['c']]);
  });
});

describe('scoreUnits', () => {
  test('should score nothing, record every sample as not scored and answer 504 when reading the body spent the deadline', async () => {
    const evaluated: string[] = [];
    const recorded: RewardResult[] = [];
    const service: RewardService = {
      evaluator: {
        needsGroups: false,
        evaluateGroup: async (samples: readonly Sample[]) => {
          evaluated.push(...samples.map((x) => String(x.id)));
          return [];
        },
      } as unknown as Evaluator,
      queue: createWorkQueue({ concurrency: 2, maxQueue: 8 }),
      metrics: createServerMetrics(),
      record: async (results) => {
        recorded.push(...results);
      },
      deadlineMs: 50,
      body: { maxBytes: 1024, timeoutMs: 1000 },
    };
    const request = scoreUnits(service, {
      units: [[s('a')], [s('b')]],
      requestId: 'r1',
      signal: new AbortController().signal,
      deadlineMs: 50,
      startedAt: performance.now() - 80,
    });
    await expect(request).rejects.toMatchObject({ status: 504, apiCode: 'deadline_exceeded' });
    await expect(request).rejects.toBeInstanceOf(ApiError);
    expect(evaluated).toEqual([]);
    expect(recorded.map((r) => [r.id, r.status, r.errors])).toEqual([
      ['a', 'failed', ['not scored: request deadline of 50 ms exceeded']],
      ['b', 'failed', ['not scored: request deadline of 50 ms exceeded']],
    ]);
  });
});

test('should stop starting jobs at the deadline even when every job finishes without yielding', async () => {
  let evaluated = 0;
  const service: RewardService = {
    evaluator: {
      needsGroups: false,
      // A synchronous verifier: 5 ms of work and an already-settled promise, no timer turn between jobs.
      evaluateGroup: async (samples: readonly Sample[]) => {
        const until = performance.now() + 5;
        while (performance.now() < until) {}
        evaluated++;
        return samples.map((x) => failedResult(x.id, ['a stand-in result'], {}));
      },
    } as unknown as Evaluator,
    queue: createWorkQueue({ concurrency: 1, maxQueue: 100 }),
    metrics: createServerMetrics(),
    record: async () => {},
    deadlineMs: 20,
    body: { maxBytes: 1024, timeoutMs: 1000 },
  };
  const units = Array.from({ length: 50 }, (_, i) => [s(`u${i}`)]);
  const request = scoreUnits(service, {
    units,
    requestId: 'r2',
    signal: new AbortController().signal,
    deadlineMs: 20,
  });
  await expect(request).rejects.toMatchObject({ status: 504, apiCode: 'deadline_exceeded' });
  expect(evaluated).toBeLessThan(50);
});
