import { describe, expect, test, vi } from 'vitest';
import { RewardKitError } from '../../core/index.js';
import { createGenrmJudge, createOpenrsJudge, type PairwiseJudgment } from '../../judges/index.js';
import type { ChatModel } from '../../llm/index.js';
import { createSkillRmJudge } from '../../skills/skill-rm/index.js';
import { pairwiseJudgeKinds } from '../judge-kind.js';
import type { SourceServices } from '../source-kind.js';
import { sourceKinds } from '../source-kinds.js';
import { lazyPairwiseJudge } from './lazy-pairwise-judge.js';
import { loadJudgeSkill } from './skill-rm-source.js';

const model: ChatModel = {
  name: 'never-called',
  complete: () => Promise.reject(new Error('not in this test')),
};

const services: SourceServices = {
  model: () => model,
  codeSandbox: () => {
    throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in this test');
  },
};

describe('lazyPairwiseJudge', () => {
  test('should make the judge on the first judgment, once, and hand it every pair and signal', async () => {
    const judgment: PairwiseJudgment = { verdict: 'tie', comparisons: [], calls: [] };
    const judge = vi.fn(async () => judgment);
    const make = vi.fn(async () => ({ name: 'fake', judge }));
    const lazy = lazyPairwiseJudge('fake', make);
    expect(lazy.name).toBe('fake');
    expect(make).not.toHaveBeenCalled();
    const pair = { prompt: 'p', first: 'a', second: 'b' };
    const signal = new AbortController().signal;
    await expect(Promise.all([lazy.judge(pair, { signal }), lazy.judge(pair)])).resolves.toEqual([
      judgment,
      judgment,
    ]);
    expect(make).toHaveBeenCalledTimes(1);
    expect(judge.mock.calls).toEqual([
      [pair, { signal }],
      [pair, undefined],
    ]);
  });
});

// The kinds name their judge before loading it; the name must stay the one the judge gives itself.
const made: Record<string, () => { name: string }> = {
  genrm: () => createGenrmJudge({ model }),
  openrs: () => createOpenrsJudge({ model }),
  skill_rm: () => createSkillRmJudge({ model, skill: loadJudgeSkill(undefined) }),
};

describe('pairwise judge kinds', () => {
  test('should all be covered here', () => {
    expect([...pairwiseJudgeKinds(sourceKinds).keys()]).toEqual(Object.keys(made));
  });

  test.each(Object.entries(made))('should name the %s judge as the judge it makes', (name, make) => {
    const kind = pairwiseJudgeKinds(sourceKinds).get(name);
    if (kind === undefined) throw new Error(`no pairwise kind ${name}`);
    expect(kind.pairwise(kind.params.parse({ model: 'judge' }), services).name).toBe(make().name);
  });
});
