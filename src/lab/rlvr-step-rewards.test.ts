import { describe, expect, it } from 'vitest';
import type { BatchReward, Scored } from './rlvr-rewards.js';
import { rewardShares, scoreStep } from './rlvr-step-rewards.js';
import { rlvrTasks } from './rlvr-tasks.js';

const fixed = (scores: Scored[]): BatchReward => ({
  scoreBatch: async (items) => items.map((_, i) => scores[i] as Scored),
  close: async () => {},
});
const items = rlvrTasks('addition', 3, 0).map((task, i) => ({ task, response: `r${i}`, id: `x-${i}` }));
const pair = (naive: Scored[], verifier: Scored[]) => ({ naive: fixed(naive), verifier: fixed(verifier) });
const r = (reward: number): Scored => ({ reward });

describe('scoreStep', () => {
  it('should train on the in-process rewards and count hacks (naive 1, verifier not)', async () => {
    const local = pair([r(1), r(1), r(0)], [r(1), r(0), r(0)]);
    const out = await scoreStep(items, { inProcess: local, http: local }, 'verifier');
    expect(out.rewards).toEqual([1, 0, 0]);
    expect(out.hacks).toBe(1);
    expect(out.failures).toEqual([]);
    expect(out.disagreements).toEqual([]);
    expect(Object.keys(out.ms).sort()).toEqual(['http', 'in_process']);
  });

  it('should record every reward the two transports disagree on, for either spec', async () => {
    const out = await scoreStep(
      items,
      {
        inProcess: pair([r(1), r(0), r(0)], [r(1), r(0), r(0)]),
        http: pair([r(1), r(1), r(0)], [r(1), r(0), r(0.5)]),
      },
      'naive',
    );
    expect(out.rewards).toEqual([1, 0, 0]);
    expect(out.disagreements).toEqual([
      { index: 1, spec: 'naive', in_process: 0, http: 1 },
      { index: 2, spec: 'verifier', in_process: 0, http: 0.5 },
    ]);
  });

  it('should leave a rollout the HTTP source failed on out of the update with the reason, never 0', async () => {
    const down: Scored = { failed: 'http: 503 server overloaded' };
    const local = pair([r(1), r(0), r(0)], [r(1), r(0), r(1)]);
    const both = await scoreStep(
      items,
      { inProcess: local, http: pair([down, down, down], [r(1), down, r(1)]) },
      'verifier',
    );
    expect(both.rewards).toEqual([1, undefined, 1]);
    expect(both.failures).toEqual([{ index: 1, why: 'http: 503 server overloaded' }]);
    const httpOnly = await scoreStep(
      items,
      { http: pair([down, down, down], [down, down, down]) },
      'verifier',
    );
    expect(httpOnly.rewards).toEqual([undefined, undefined, undefined]);
    expect(httpOnly.failures.map((f) => f.why)).toEqual(Array(3).fill('http: 503 server overloaded'));
    expect(httpOnly.hacks).toBe(0);
  });
});

describe('rewardShares', () => {
  it('should give each transport its share of a step that used it alone', () => {
    // 100 ms in all, 20 in process, 30 over HTTP: 50 ms of policy work.
    expect(rewardShares(100, { in_process: 20, http: 30 })).toEqual({
      reward_share_in_process: 20 / 70,
      reward_share_http: 30 / 80,
    });
    expect(rewardShares(40, { in_process: 10 })).toEqual({ reward_share_in_process: 0.25 });
  });
});
