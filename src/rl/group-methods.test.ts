import { describe, expect, test } from 'vitest';
import type { OrderedComparison, PairInput, PairwiseJudge, PairwiseJudgment } from '../judges/index.js';
import { pickBrpoReference } from './brpo-reference.js';
import { GROUP_METHOD_NAMES, parseGroupOptions, shapeGroup } from './group-methods.js';
import { groupSeed } from './group-seed.js';
import { storeRfnReference } from './rfn-reference-document.js';
import type { StateAccess } from './state-access.js';

/** A state store in memory, as a Store would be. */
function memoryState(initial: Record<string, unknown> = {}): StateAccess & { docs: Map<string, unknown> } {
  const docs = new Map(Object.entries(initial));
  return {
    docs,
    getState: async (key) => structuredClone(docs.get(key)),
    putState: async (key, value) => {
      docs.set(key, structuredClone(value));
    },
  };
}

const closeTo = (
  got: readonly (number | null)[] | undefined,
  want: readonly (number | null)[],
  digits: number,
) => {
  expect(got).toHaveLength(want.length);
  want.forEach((w, i) => {
    if (w === null) expect(got?.[i]).toBeNull();
    else expect(got?.[i]).toBeCloseTo(w, digits);
  });
};

describe('shapeGroup: grpo', () => {
  test.each([
    { rewards: [1, 0, 0, 1], std: 'unbiased', want: [0.866025, -0.866025, -0.866025, 0.866025] },
    { rewards: [1, 0, 0, 1], std: 'population', want: [0.999998, -0.999998, -0.999998, 0.999998] },
    { rewards: [1, 0, 0, 0], std: 'unbiased', want: [1.5, -0.5, -0.5, -0.5] },
    { rewards: [1, 0, 0, 0], std: 'population', want: [1.732051, -0.57735, -0.57735, -0.57735] },
    { rewards: [1, 0, 0, 0], std: 'none', want: [0.75, -0.25, -0.25, -0.25] },
    { rewards: [0.5, 0.5, 0.5], std: 'unbiased', want: [0, 0, 0] },
    { rewards: [1], std: 'unbiased', want: [0] },
  ])('should give $want for $rewards with std $std', async ({ rewards, std, want }) => {
    const got = await shapeGroup('grpo', { group: 'g', rewards }, { std });
    closeTo(got.advantages, want, 5);
    expect(got.failed).toEqual([]);
  });

  test('should leave a null reward out of the statistics, give it 0 and list it as failed', async () => {
    const got = await shapeGroup('grpo', { group: 'g', rewards: [1, null, 0, 0, 1] }, {});
    closeTo(got.advantages, [0.866025, 0, -0.866025, -0.866025, 0.866025], 5);
    expect(got.failed).toEqual([1]);
  });

  test('should give all zeros when every rollout failed', async () => {
    const got = await shapeGroup('grpo', { group: 7, rewards: [null, null] }, {});
    expect(got).toEqual({ group: '7', method: 'grpo', advantages: [0, 0], failed: [0, 1] });
  });

  test('should reject an unknown option key, naming it', async () => {
    await expect(shapeGroup('grpo', { group: 'g', rewards: [1, 0] }, { stdd: 'none' })).rejects.toThrow(
      'grpo options: Unrecognized key: "stdd"',
    );
  });

  test('should reject a malformed row, naming the field', async () => {
    await expect(shapeGroup('grpo', { group: 'g', rewards: [1, 'x'] }, {})).rejects.toThrow(
      /field "rewards.1"/,
    );
  });

  test('should reject an unknown method, listing the known ones', async () => {
    await expect(shapeGroup('ppo', { group: 'g', rewards: [1] }, {})).rejects.toThrow(
      `unknown group method "ppo" (known: ${GROUP_METHOD_NAMES.join(', ')})`,
    );
  });

  test('should apply the defaults of the methods note', () => {
    expect(parseGroupOptions('grpo', undefined)).toEqual({ std: 'unbiased', eps: 1e-6 });
    expect(parseGroupOptions('etr', {})).toMatchObject({
      eps_low: 0.2,
      eps_high: 0.2,
      alpha: 0.5,
      beta: 0.5,
      std: 'population',
    });
    expect(parseGroupOptions('brpo', {})).toEqual({ votes: 1, skew_threshold: 0.6 });
    expect(parseGroupOptions('clipo', {})).toMatchObject({ tau: 0.05, lambda: 0.2, floor: -0.5, lr: 1e-3 });
  });
});

describe('shapeGroup: etr', () => {
  test.each([
    { beta: 0, want: [0.3732, 0.2577, 0.2577, 0.2577] },
    { beta: 0.5, want: [0.3266, 0.2255, 0.2255, 0.2255] },
  ])('should give eps $want for [1,0,0,0] with alpha 0.5, beta $beta', async ({ beta, want }) => {
    const got = await shapeGroup('etr', { group: 'g', rewards: [1, 0, 0, 0] }, { alpha: 0.5, beta });
    closeTo(
      got.clip_bounds?.map((b) => 1 - b.low),
      want,
      4,
    );
    closeTo(
      got.clip_bounds?.map((b) => b.high - 1),
      want,
      4,
    );
    closeTo(got.advantages, [1.732051, -0.57735, -0.57735, -0.57735], 5);
  });

  test('should reproduce GRPO clipping with alpha = beta = 0', async () => {
    const got = await shapeGroup('etr', { group: 'g', rewards: [1, 0, 0, 0] }, { alpha: 0, beta: 0 });
    for (const b of got.clip_bounds ?? []) {
      expect(b.low).toBeCloseTo(0.8, 12);
      expect(b.high).toBeCloseTo(1.2, 12);
    }
  });

  test('should give a failed rollout advantage 0 and the bounds of A = 0', async () => {
    const got = await shapeGroup('etr', { group: 'g', rewards: [1, 0, null, 0, 0] }, { alpha: 0.5, beta: 0 });
    closeTo(got.advantages, [1.732051, -0.57735, 0, -0.57735, -0.57735], 5);
    expect(got.failed).toEqual([2]);
    expect(got.clip_bounds?.[2]?.low).toBeCloseTo(0.8, 12);
  });
});

type Scripted = (pair: PairInput) => OrderedComparison[];

function fakeJudge(script: Scripted): PairwiseJudge & { seen: PairInput[] } {
  const seen: PairInput[] = [];
  return {
    name: 'fake',
    seen,
    async judge(pair): Promise<PairwiseJudgment> {
      seen.push(pair);
      return { verdict: 'inconsistent', comparisons: script(pair), calls: [] };
    },
  };
}

/** Responses say how they fare against the reference: WIN both orders, SPLIT, LOSE, or BROKEN output. */
const scripted: Scripted = (pair) => {
  const w = (forward: 'first' | 'second' | undefined, backward: 'first' | 'second' | undefined) => [
    { order: 'forward' as const, vote: 0, ...(forward ? { winner: forward } : { invalid: 'no JSON' }) },
    { order: 'backward' as const, vote: 0, ...(backward ? { winner: backward } : { invalid: 'no JSON' }) },
  ];
  if (pair.first.startsWith('WIN')) return w('first', 'first');
  if (pair.first.startsWith('SPLIT')) return w('first', 'second');
  if (pair.first.startsWith('BROKEN')) return w('first', undefined);
  return w('second', 'second');
};

/** A seed whose reference for this group and size is `index`. */
const seedFor = (group: string, size: number, index: number) => {
  for (let s = 0; ; s++) if (pickBrpoReference(size, groupSeed(s, group)) === index) return s;
};

describe('shapeGroup: brpo', () => {
  test('should give [+1, -1, 0, -1] for [wins all, split, reference, loses]', async () => {
    const seed = seedFor('g4', 4, 2);
    const judge = fakeJudge(scripted);
    const got = await shapeGroup(
      'brpo',
      { group: 'g4', prompt: 'Write a poem.', responses: ['WIN a', 'SPLIT b', 'REF', 'LOSE d'] },
      {},
      { judge, seed },
    );
    expect(got.advantages).toEqual([1, -1, 0, -1]);
    expect(got.shaped_rewards).toEqual([1, -1, 0, -1]);
    expect(got.filtered).toBe(false);
    expect(got.detail).toMatchObject({ reference_index: 2, skew: 0.25 });
    expect(judge.seen.map((p) => [p.first, p.second])).toEqual([
      ['WIN a', 'REF'],
      ['SPLIT b', 'REF'],
      ['LOSE d', 'REF'],
    ]);
  });

  test.each([
    { wins: 11, sum: 7, filtered: false },
    { wins: 14, sum: 13, filtered: true },
  ])('should keep or drop a group of 16 with sum R = $sum', async ({ wins, sum, filtered }) => {
    const seed = 3;
    const reference = pickBrpoReference(16, groupSeed(seed, 'g16'));
    let others = 0;
    const responses = Array.from({ length: 16 }, (_, i) => {
      if (i === reference) return 'REF';
      return others++ < wins ? 'WIN' : 'LOSE';
    });
    const got = await shapeGroup(
      'brpo',
      { group: 'g16', prompt: 'p', responses },
      {},
      { judge: fakeJudge(scripted), seed },
    );
    expect((got.shaped_rewards as number[]).reduce((a, b) => a + b, 0)).toBe(sum);
    expect(got.filtered).toBe(filtered);
    if (filtered) expect(got.advantages.every((a) => a === 0)).toBe(true);
    else expect(got.advantages).toEqual(got.shaped_rewards);
  });

  test('should count an unreadable comparison as a loss and record why', async () => {
    const seed = seedFor('gb', 3, 0);
    const got = await shapeGroup(
      'brpo',
      { group: 'gb', prompt: 'p', responses: ['REF', 'BROKEN', 'WIN'] },
      { skew_threshold: 1 },
      { judge: fakeJudge(scripted), seed },
    );
    expect(got.shaped_rewards).toEqual([0, -1, 1]);
    expect(got.detail).toMatchObject({ invalid: [{ index: 1, order: 'backward', reason: 'no JSON' }] });
  });

  test('should neither judge nor pick a failed rollout', async () => {
    const judge = fakeJudge(scripted);
    const got = await shapeGroup(
      'brpo',
      { group: 'gf', prompt: 'p', responses: ['WIN', null, 'LOSE'], rewards: [0, 0, null] },
      { skew_threshold: 1 },
      { judge, seed: 1 },
    );
    expect(got.failed).toEqual([1, 2]);
    expect(got.advantages[1]).toBe(0);
    expect(got.advantages[2]).toBe(0);
    expect(judge.seen.flatMap((p) => [p.first, p.second]).every((t) => t === 'WIN')).toBe(true);
  });

  test('should fail the group when no comparison at all was readable', async () => {
    const broken = fakeJudge((pair) =>
      scripted({ ...pair, first: 'BROKEN' }).map(({ winner: _, ...c }) => ({ ...c, invalid: 'HTTP 500' })),
    );
    await expect(
      shapeGroup('brpo', { group: 'g', prompt: 'p', responses: ['a', 'b', 'c'] }, {}, { judge: broken }),
    ).rejects.toThrow(/brpo: no comparison in the group was readable \(2 judgments\): HTTP 500/);
  });

  test('should fail the group when the judge throws, and without a judge', async () => {
    const throwing: PairwiseJudge = {
      name: 'down',
      judge: async () => {
        throw new Error('connection refused');
      },
    };
    const row = { group: 'g', prompt: 'p', responses: ['a', 'b'] };
    await expect(shapeGroup('brpo', row, {}, { judge: throwing })).rejects.toThrow('connection refused');
    await expect(shapeGroup('brpo', row, {}, {})).rejects.toThrow(/brpo needs a pairwise judge/);
  });
});

/** The identity head on 2-d states, past warm-up: z is the unit hidden state. */
const identityHead = {
  version: 'rk-clipo-head/v1',
  inputDim: 2,
  outputDim: 2,
  weights: [1, 0, 0, 1],
  firstMoment: [0, 0, 0, 0],
  secondMoment: [0, 0, 0, 0],
  step: 0,
  warmupRemaining: 0,
};

describe('shapeGroup: clipo', () => {
  test.each([
    {
      name: 'close positives, far negatives',
      tau: 1,
      hidden: [
        [1, 0],
        [1, 0],
        [0, 1],
        [0, -1],
      ],
      rewards: [1, 1, 0, 0],
      totals: [0.889711, 0.889711, 0, 0],
      losses: [0.551445, 0.551445, null, null],
      advantages: [0.866025, 0.866025, -0.866025, -0.866025],
    },
    {
      name: 'correct rollouts on top of incorrect ones, clamped',
      tau: 0.05,
      hidden: [
        [1, 0],
        [0, 1],
        [1, 0],
        [0, 1],
      ],
      rewards: [1, 1, 0, 0],
      totals: [0.5, 0.5, 0, 0],
      losses: [20, 20, null, null],
      advantages: [0.866025, 0.866025, -0.866025, -0.866025],
    },
    {
      name: 'one correct rollout on an incorrect one',
      tau: 1,
      hidden: [
        [1, 0],
        [0, 1],
        [1, 0],
        [-1, 0],
      ],
      rewards: [1, 1, 0, 0],
      totals: [0.718479, 0.780278, 0, 0],
      losses: [1.407606, 1.098612, null, null],
      advantages: null,
    },
  ])(
    'should shape $name as the methods note says',
    async ({ tau, hidden, rewards, totals, losses, advantages }) => {
      const state = memoryState({ 'clipo-head/run': identityHead });
      const got = await shapeGroup(
        'clipo',
        { group: 'g', rewards, hidden_states: hidden },
        { tau, lambda: 0.2 },
        { state, stateKey: 'run' },
      );
      closeTo(got.shaped_rewards, totals, tau === 0.05 ? 4 : 5);
      closeTo((got.detail as { losses: (number | null)[] }).losses, losses, tau === 0.05 ? 0 : 5);
      if (advantages) closeTo(got.advantages, advantages, 5);
      expect(got.detail).toMatchObject({ shaped: true, counted: 2, head_step: 1 });
      expect((state.docs.get('clipo-head/run') as { step: number }).step).toBe(1);
    },
  );

  test('should give l = log(2e + 1) - 1 to each of three identical correct anchors', async () => {
    const state = memoryState({ 'clipo-head/run': identityHead });
    const got = await shapeGroup(
      'clipo',
      {
        group: 'g',
        rewards: [1, 1, 1, 0],
        hidden_states: [
          [1, 0],
          [1, 0],
          [1, 0],
          [0, 1],
        ],
      },
      { tau: 1 },
      { state, stateKey: 'run', seed: 9 },
    );
    closeTo((got.detail as { losses: (number | null)[] }).losses, [0.861995, 0.861995, 0.861995, null], 5);
  });

  test('should create the head on first use, count warm-up down across calls and skip failed rollouts', async () => {
    const state = memoryState();
    const row = {
      group: 'g',
      rewards: [1, 1, null, 0],
      hidden_states: [[0.3, 0.1, -0.2], [0.2, 0.4, 0.1], null, [-0.5, 0.1, 0.3]],
    };
    const first = await shapeGroup('clipo', row, { warmup_steps: 2, output_dim: 4 }, { state });
    expect(first.failed).toEqual([2]);
    expect(first.advantages[2]).toBe(0);
    expect(first.shaped_rewards).toEqual([1, 1, null, 0]);
    expect(first.detail).toMatchObject({ shaped: false, warmup_remaining: 1, head_step: 1 });
    const head = state.docs.get('clipo-head/default') as { inputDim: number; outputDim: number };
    expect([head.inputDim, head.outputDim]).toEqual([3, 4]);
    const second = await shapeGroup('clipo', row, { warmup_steps: 2 }, { state });
    expect(second.detail).toMatchObject({ shaped: false, warmup_remaining: 0, head_step: 2 });
    const third = await shapeGroup('clipo', row, {}, { state });
    expect(third.detail).toMatchObject({ shaped: true, head_step: 3 });
  });

  test('should run concurrent groups of one run one after the other, losing no head step', async () => {
    const state = memoryState({ 'clipo-head/run': identityHead });
    const row = {
      group: 'g',
      rewards: [1, 1, 0],
      hidden_states: [
        [1, 0],
        [0.9, 0.1],
        [0, 1],
      ],
    };
    await Promise.all(
      [1, 2, 3].map((seed) => shapeGroup('clipo', row, { tau: 1 }, { state, stateKey: 'run', seed })),
    );
    expect((state.docs.get('clipo-head/run') as { step: number }).step).toBe(3);
  });

  test('should refuse to run without state, or on a head of another width', async () => {
    const row = {
      group: 'g',
      rewards: [1, 0],
      hidden_states: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    };
    await expect(shapeGroup('clipo', row, {}, {})).rejects.toThrow(/clipo keeps state between calls/);
    const state = memoryState({ 'clipo-head/run': identityHead });
    await expect(shapeGroup('clipo', row, {}, { state, stateKey: 'run' })).rejects.toThrow(
      /hidden_states have 3 numbers, the head in "clipo-head\/run" expects 2/,
    );
  });

  test('should name the field of a row whose hidden states do not match its rewards', async () => {
    await expect(
      shapeGroup(
        'clipo',
        { group: 'g', rewards: [1, 0], hidden_states: [[1, 0]] },
        {},
        { state: memoryState() },
      ),
    ).rejects.toThrow(/field "hidden_states": has 1 entries for 2 rewards/);
  });
});

describe('shapeGroup: rfn', () => {
  const reference = { mu: [0.6, 3.0], sigma: [0.2, 1.5], delta: 1e-12 };

  test.each([
    { dims: [0.8, 4.5], normalized: [1.0, 1.0] },
    { dims: [0.5, 1.5], normalized: [-0.5, -1.0] },
  ])('should normalize $dims to $normalized', async ({ dims, normalized }) => {
    const got = await shapeGroup('rfn', { group: 'g', dims: [dims, [0.6, 3.0]] }, { reference });
    closeTo((got.detail as { normalized: number[][] }).normalized[0] as number[], normalized, 9);
  });

  test('should weigh the normalized dimensions equally by default, then GRPO', async () => {
    const got = await shapeGroup('rfn', { group: 'g', dims: [[0.8, 4.5], null, [0.5, 1.5]] }, { reference });
    closeTo(got.shaped_rewards, [1, null, -0.75], 9);
    closeTo(got.advantages, [Math.SQRT1_2, 0, -Math.SQRT1_2], 5);
    expect(got.weights).toEqual([0.5, 0.5]);
    expect(got.failed).toEqual([1]);
  });

  test('should read statistics fitted once into the state, and refuse to refit them', async () => {
    const state = memoryState();
    await storeRfnReference(state, 'run', [
      [0.4, 1.5],
      [0.8, 4.5],
    ]);
    const got = await shapeGroup(
      'rfn',
      { group: 'g', dims: [[0.8, 4.5]] },
      { weights: [1, 0] },
      { state, stateKey: 'run' },
    );
    closeTo(got.shaped_rewards, [1], 5);
    await expect(storeRfnReference(state, 'run', [[1, 1]])).rejects.toThrow(/already fitted/);
    await expect(
      shapeGroup('rfn', { group: 'g', dims: [[1, 1]] }, {}, { state, stateKey: 'other' }),
    ).rejects.toThrow(/no reference statistics under "rfn-reference\/other"/);
  });
});

describe('shapeGroup: tri_factor', () => {
  // Column means 0.7, 0.9, 0.95; dimension 2 constant; corr(1, 3) = 0.5 exactly.
  const r3 = Math.sqrt(3);
  const dims = [
    [0.8, 0.9, 0.96],
    [0.6, 0.9, 0.94],
    [0.7, 0.9, 0.95 + 0.01 * r3],
    [0.7, 0.9, 0.95 - 0.01 * r3],
  ];
  // Maps rollout 0 to r~ = [1, -0.5, 2].
  const reference = { mu: [0.7, 0.95, 0.94], sigma: [0.1, 0.1, 0.01], delta: 1e-12 };
  const options = { priorities: [1.5, 2, 1], reference };

  test('should give w = [0.4884, 0.4186, 0.0930] and R = 0.46512 for r~ = [1, -0.5, 2]', async () => {
    const state = memoryState();
    const got = await shapeGroup('tri_factor', { group: 'g', dims }, options, { state });
    closeTo(got.weights, [0.4884, 0.4186, 0.093], 4);
    closeTo((got.detail as { weakness: number[] }).weakness, [0.35, 0.15, 0.1], 9);
    closeTo((got.detail as { redundancy: number[] }).redundancy, [0.666667, 1, 0.666667], 5);
    closeTo((got.detail as { normalized: number[][] }).normalized[0] as number[], [1, -0.5, 2], 6);
    expect(got.shaped_rewards?.[0]).toBeCloseTo(0.46512, 4);
    expect(state.docs.get('tri-factor/default')).toMatchObject({ steps: 1, weights: got.weights });
  });

  test('should smooth the weights and the recent means against the last call', async () => {
    const state = memoryState();
    const first = await shapeGroup('tri_factor', { group: 'a', dims }, options, { state });
    const shifted = dims.map(([a, b, c]) => [a as number, (b as number) - 0.5, c as number]);
    const fresh = await shapeGroup('tri_factor', { group: 'b', dims: shifted }, options, {
      state: memoryState(),
    });
    const second = await shapeGroup('tri_factor', { group: 'b', dims: shifted }, options, { state });
    expect((second.detail as { recent_means: number[] }).recent_means[1]).toBeCloseTo(
      0.9 * 0.9 + 0.1 * 0.4,
      12,
    );
    expect((second.detail as { step: number }).step).toBe(2);
    // Not the weights of this group alone: pulled towards the last call's.
    const w1 = (second.weights as number[])[1] as number;
    expect(w1).toBeGreaterThan((first.weights as number[])[1] as number);
    expect(w1).toBeLessThan((fresh.weights as number[])[1] as number);
  });

  test('should combine raw dimensions with normalize none, and need priorities', async () => {
    const got = await shapeGroup(
      'tri_factor',
      { group: 'g', dims },
      { priorities: [1.5, 2, 1], normalize: 'none' },
      {
        state: memoryState(),
      },
    );
    const w = got.weights as number[];
    expect(got.shaped_rewards?.[0]).toBeCloseTo(
      w.reduce((a, x, k) => a + x * ((dims[0] as number[])[k] as number), 0),
      12,
    );
    await expect(
      shapeGroup('tri_factor', { group: 'g', dims }, {}, { state: memoryState() }),
    ).rejects.toThrow(/tri_factor options: field "priorities"/);
  });
});

describe('shapeGroup: afrl_stepwise', () => {
  test('should normalize each step across the group on its own', async () => {
    const got = await shapeGroup(
      'afrl_stepwise',
      {
        group: 'g',
        step_rewards: [
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 1],
        ],
      },
      {},
    );
    const steps = got.step_advantages as number[][];
    closeTo(
      steps.map((s) => s[0] as number),
      [0.866025, 0.866025, -0.866025, -0.866025],
      5,
    );
    closeTo(
      steps.map((s) => s[1] as number),
      [0.5, -1.5, 0.5, 0.5],
      5,
    );
    expect(got.advantages).toEqual(steps.map((s) => s[0]));
  });

  test('should give a failed rollout zeros at every step', async () => {
    const got = await shapeGroup('afrl_stepwise', { group: 'g', step_rewards: [[1, 1], null, [0, 0]] }, {});
    expect(got.step_advantages?.[1]).toEqual([0, 0]);
    expect(got.failed).toEqual([1]);
  });
});
