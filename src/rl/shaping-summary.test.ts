import { describe, expect, it } from 'vitest';
import { createShapingSummary } from './shaping-summary.js';

describe('createShapingSummary', () => {
  it('should gather counts, zero-signal groups and stats over scored rollouts only', () => {
    const summary = createShapingSummary({ keepGroups: 2 });
    summary.add(
      { group: 'a', rewards: [1, 0, null] },
      { group: 'a', method: 'grpo', advantages: [1, -1, 0], failed: [2] },
    );
    summary.add(
      { group: 'b', rewards: [1, 1] },
      { group: 'b', method: 'grpo', advantages: [0, 0], failed: [] },
    );
    summary.add(
      { group: 'c', responses: ['x', 'y'] },
      { group: 'c', method: 'brpo', advantages: [0, 0], filtered: true, shaped_rewards: [0.5, 0.5] },
    );
    summary.addFailed({ line: 4, errors: ['groups.jsonl:4: field "rewards": expected an array'] });
    const got = summary.summary();
    expect(got).toMatchObject({
      groups: 4,
      ok: 3,
      failed: 1,
      rollouts: 7,
      failed_rollouts: 1,
      zero_signal_groups: 2,
      filtered_groups: 1,
    });
    expect(got.advantages).toEqual({ count: 6, mean: 0, std: Math.sqrt(2 / 6), min: -1, max: 1 });
    expect(got.rewards).toMatchObject({ count: 6, min: 0, max: 1 });
    expect(got.clip_low.count).toBe(0);
    expect(got.shown.map((g) => [g.group, g.shaped, g.rewards])).toEqual([
      ['a', false, [1, 0, null]],
      ['b', false, [1, 1]],
    ]);
    expect(got.failures).toHaveLength(1);
  });

  it('should keep ETR clip bounds per scored rollout', () => {
    const summary = createShapingSummary();
    summary.add(
      { group: 'g', rewards: [1, 0] },
      {
        group: 'g',
        method: 'etr',
        advantages: [1, -1],
        clip_bounds: [
          { low: 0.8, high: 1.3 },
          { low: 0.7, high: 1.2 },
        ],
      },
    );
    const got = summary.summary();
    expect(got.clip_low).toMatchObject({ count: 2, min: 0.7, max: 0.8 });
    expect(got.clip_high).toMatchObject({ count: 2, min: 1.2, max: 1.3 });
    expect(got.shown[0]?.clip_bounds).toHaveLength(2);
  });
});
