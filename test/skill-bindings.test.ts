import { describe, expect, test } from 'vitest';
import { RESOURCE_BINDINGS } from '../src/skills/skill-resource.js';
import { sourceKinds } from '../src/spec/index.js';

// skills sits below spec (spec will build skill_rm sources from it), so the closed list of bindings
// is its own; this test keeps it from naming a source kind rewardkit does not have.
describe('resource bindings', () => {
  test('should each name a built-in source kind', () => {
    expect(RESOURCE_BINDINGS.filter((binding) => !sourceKinds.has(binding))).toEqual([]);
  });
});
