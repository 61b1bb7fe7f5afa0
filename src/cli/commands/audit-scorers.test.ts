import { describe, expect, test } from 'vitest';
import type { ShownPair } from '../../skills/evolve-judge/index.js';
import { pairScoring, stopIfBackendDown } from './audit-scorers.js';

const shown: ShownPair = { id: 'p', prompt: 'Q?', first: 'worse', second: 'better', better: 'second' };

describe('the audit of a pairwise judge', () => {
  test.each([
    ['second', { reward: 1 }],
    ['first', { reward: 0 }],
    ['tie', { reward: 0.5 }],
    ['inconsistent', { reward: 0.5 }],
  ])('a verdict "%s" on a pair whose better answer stood second scores %j', async (verdict, expected) => {
    expect(await pairScoring(async () => ({ verdict }), shown)).toEqual(expected);
  });

  test('an unreadable verdict is a failed row with the judge’s reason, never a reward', async () => {
    expect(await pairScoring(async () => ({ verdict: 'invalid', reason: 'no JSON' }), shown)).toEqual({
      reasons: ['no readable verdict: no JSON'],
    });
  });

  test('the judge never sees the label', async () => {
    let seen: object | undefined;
    await pairScoring(async (pair) => {
      seen = pair;
      return { verdict: 'tie' };
    }, shown);
    expect(seen).toEqual({ prompt: 'Q?', first: 'worse', second: 'better' });
  });
});

describe('stopIfBackendDown', () => {
  const failed = { reasons: ['HTTP 503'] };
  test('passes a failed row on while the breaker is closed, and a reward always', () => {
    expect(stopIfBackendDown({}, failed)).toBe(failed);
    const opened = { breaker: { opened: new Error('down') } } as never;
    expect(stopIfBackendDown(opened, { reward: 1 })).toEqual({ reward: 1 });
  });

  test('stops the run on a failed row once the breaker has opened', () => {
    const opened = { breaker: { opened: new Error('the backend is down') } } as never;
    expect(() => stopIfBackendDown(opened, failed)).toThrow(/backend down: the backend is down/);
  });
});
