import { describe, expect, test } from 'vitest';
import { createRunMemo } from './run-memo.js';

describe('createRunMemo', () => {
  test('should answer from memory while the run version stays, and aggregate again once it moves', async () => {
    const versions = new Map([['r', '1:1']]);
    const memo = createRunMemo(async (runId) => versions.get(runId) ?? '0:0');
    let computed = 0;
    const stats = () => memo.get('r', 'sources', async (version) => `${version} #${++computed}`);
    expect(await stats()).toBe('1:1 #1');
    expect(await stats()).toBe('1:1 #1');
    versions.set('r', '2:3');
    expect(await stats()).toBe('2:3 #2');
    // Another aggregate of the same run is kept apart.
    expect(await memo.get('r', 'histograms:20', async () => 'h')).toBe('h');
    expect(await stats()).toBe('2:3 #2');
  });

  test('should forget the least recently used aggregate past 128', async () => {
    const memo = createRunMemo(async () => '1:1');
    let computed = 0;
    const of = (runId: string) => memo.get(runId, 'sources', async () => ++computed);
    for (let i = 0; i < 128; i++) await of(`r${i}`);
    await of('r0');
    await of('r128');
    expect(computed).toBe(129);
    expect(await of('r0')).toBe(1);
    expect(await of('r1')).toBe(130);
  });

  test('should keep an aggregate of several runs while every one of their versions stays', async () => {
    const versions = new Map([
      ['a', '1'],
      ['b', '1'],
    ]);
    const memo = createRunMemo(async (runId) => versions.get(runId) ?? '0');
    let computed = 0;
    const compare = () => memo.get(['a', 'b'], 'changed-ids', async () => ++computed);
    expect(await compare()).toBe(1);
    expect(await compare()).toBe(1);
    versions.set('b', '2');
    expect(await compare()).toBe(2);
    versions.set('a', '2');
    expect(await compare()).toBe(3);
    // The same runs the other way round are another comparison.
    expect(await memo.get(['b', 'a'], 'changed-ids', async () => 'ba')).toBe('ba');
  });

  test('should keep at most the entries it was given', async () => {
    const memo = createRunMemo(async () => '1', 2);
    let computed = 0;
    const of = (runId: string) => memo.get(runId, 'list', async () => ++computed);
    await of('r0');
    await of('r1');
    await of('r2');
    expect(await of('r0')).toBe(4);
  });
});
