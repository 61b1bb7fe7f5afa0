import { describe, expect, test } from 'vitest';
import { SampleSchema } from '../core/index.js';
import { unitsOf } from './score-units.js';

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
