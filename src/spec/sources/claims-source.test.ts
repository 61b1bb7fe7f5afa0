import { describe, expect, test } from 'vitest';
import { RewardKitError, SampleSchema } from '../../core/index.js';
import type { ChatModel } from '../../llm/index.js';
import type { SourceContext } from '../source-kind.js';
import { claimsSource } from './claims-source.js';

const asked: string[] = [];
const unreachable: ChatModel = {
  name: 'unreachable',
  complete: async () => {
    throw new Error('no model call was expected');
  },
};
const context: SourceContext = {
  services: {
    codeSandbox: () => {
      throw new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in this test');
    },
    model: (name) => {
      asked.push(name);
      return unreachable;
    },
  },
  signal: new AbortController().signal,
};
const sample = (metadata: Record<string, unknown>) =>
  SampleSchema.parse({ id: 's', prompt: 'How big is Acme?', response: 'Acme has 5 staff.', metadata });

describe('claims source', () => {
  test('should fill MARCH defaults and need a model for the Proposer and the Checker', () => {
    expect(claimsSource.params.parse({ model: 'judge' })).toMatchObject({
      mode: 'numeric',
      k: 3,
      reward: 'zero_tolerance',
      tie: 'fault',
      safe_k: 64,
      checker_temperature: 0.7,
    });
    expect(claimsSource.params.safeParse({ proposer: 'a', checker: 'b' }).success).toBe(true);
    const missing = claimsSource.params.safeParse({ proposer: 'a' });
    expect(missing.error?.issues[0]?.message).toMatch(/name the models/);
  });

  test('should fail a sample without documents before any model call', async () => {
    asked.length = 0;
    const check = claimsSource.create(
      claimsSource.params.parse({ proposer: 'p', checker: 'c', matcher: 'm' }),
    );
    await expect(check(sample({}), context)).rejects.toThrow(/could not be made \(documents\): no documents/);
    expect(asked.sort()).toEqual(['c', 'm', 'p']);
  });

  test('should name the field of a malformed document', async () => {
    const check = claimsSource.create(claimsSource.params.parse({ model: 'judge' }));
    await expect(check(sample({ documents: ['ok', { title: 'T' }] }), context)).rejects.toThrow(
      /metadata\.documents\[1\]/,
    );
  });
});
