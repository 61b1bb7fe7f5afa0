import { describe, expect, test } from 'vitest';
import { RewardKitError, SampleSchema } from '../core/index.js';
import type { SourceContext } from './source-kind.js';
import { sourceKinds } from './source-kinds.js';

/** Params that make each kind runnable; kinds without required params run on `{}`. */
const minimalParams: Record<string, Record<string, unknown>> = {
  regex: { pattern: 'answer' },
  genrm: { model: 'judge' },
  openrs: { model: 'judge' },
  length: { max: 100 },
  medical_rubric: { model: 'judge' },
  rubric: { model: 'judge' },
  tool_plan: { model: 'judge' },
  claims: { model: 'judge' },
  evpv: { model: 'judge' },
  skill_rm: { model: 'judge' },
  proxy_grm: { proxy_model: 'judge' },
  panel: { judge: { kind: 'genrm' }, models: ['judge', 'other'] },
};

const context: SourceContext = {
  services: {
    codeSandbox: () => {
      throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in this test');
    },
    model: (name) => {
      throw new RewardKitError('RK_UNKNOWN_MODEL', `no model named "${name}" in this test`);
    },
  },
  signal: new AbortController().signal,
};

// A conformance suite every source kind must pass: described, params validated by a schema,
// and a check that either scores within [0, 1] or throws a RewardKitError explaining why.
describe.each([...sourceKinds.values()])('source kind $kind', (kind) => {
  test('should describe itself', () => {
    expect(kind.description.length).toBeGreaterThan(10);
    expect(sourceKinds.get(kind.kind)).toBe(kind);
  });

  test('should reject unknown params', () => {
    expect(kind.params.safeParse({ ...minimalParams[kind.kind], not_a_param: 1 }).success).toBe(false);
  });

  test.each([
    ['with nothing to check against', { id: 'x', response: 'the answer is 4' }],
    ['with a reference', { id: 'y', response: 'the answer is 4', reference: '4' }],
  ])('should score in [0, 1] or explain why it cannot, %s', async (_, row) => {
    const check = kind.create(kind.params.parse(minimalParams[kind.kind] ?? {}));
    try {
      const outcome = await check(SampleSchema.parse(row), context);
      expect(outcome.score).toBeGreaterThanOrEqual(0);
      expect(outcome.score).toBeLessThanOrEqual(1);
      expect(['pass', 'fail', 'abstain']).toContain(outcome.verdict);
    } catch (error) {
      expect(RewardKitError.isInstance(error)).toBe(true);
      expect((error as Error).message.length).toBeGreaterThan(10);
    }
  });
});
