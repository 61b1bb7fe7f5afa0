import { describe, expect, test } from 'vitest';
import {
  changedIdsOf,
  changedPage,
  comparisonOf,
  IMPROVED,
  REGRESSED,
  STATUS_CHANGED,
} from './changed-ids.js';

describe('changed ids', () => {
  const changed = changedIdsOf({ inA: 6, inB: 5, common: 5 }, [
    ['broke', STATUS_CHANGED],
    ['up', IMPROVED],
    ['down', REGRESSED],
    ['up-too', IMPROVED],
  ]);

  test('should count each kind of change and the ids in one run only', () => {
    expect(comparisonOf(changed, [])).toEqual({
      common: 5,
      only_a: 1,
      only_b: 0,
      changed: 4,
      improved: 2,
      regressed: 1,
      status_changed: 1,
      rows: [],
    });
  });

  test("should page a filter's ids in the list's order", () => {
    expect(changedPage(changed, 'changed', { limit: 2, offset: 1 })).toEqual(['up', 'down']);
    expect(changedPage(changed, 'improved', { limit: 5, offset: 0 })).toEqual(['up', 'up-too']);
    expect(changedPage(changed, 'improved', { limit: 1, offset: 1 })).toEqual(['up-too']);
    expect(changedPage(changed, 'regressed', { limit: 5, offset: 1 })).toEqual([]);
    expect(changedPage(changed, 'status', { limit: 5, offset: 0 })).toEqual(['broke']);
  });
});
