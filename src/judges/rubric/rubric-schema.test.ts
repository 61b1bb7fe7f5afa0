import { describe, expect, test } from 'vitest';
import { RubricSchema } from './rubric-schema.js';

const c = (name: string, weight?: number) => ({
  name,
  description: `checks ${name}`,
  ...(weight !== undefined && { weight }),
});
const problems = (rubric: unknown) => {
  const parsed = RubricSchema.safeParse(rubric);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('RubricSchema', () => {
  test('should accept each mode with its defaults', () => {
    expect(RubricSchema.parse({ mode: 'criteria', criteria: [c('a')] })).toMatchObject({
      points: 10,
      aggregate: 'weighted_mean',
      criterion_pass_at: 0.5,
    });
    expect(RubricSchema.parse({ mode: 'checklist', items: [c('a')] })).toMatchObject({
      aggregate: 'all_must_pass',
    });
    expect(
      RubricSchema.parse({ mode: 'likert', criteria: [c('a')], anchors: { 1: 'bad', 2: 'ok', 3: 'good' } }),
    ).toMatchObject({ aggregate: 'weighted_mean' });
    expect(RubricSchema.parse({ mode: 'reference', criteria: [c('a')] }).mode).toBe('reference');
  });

  test.each([
    [
      'an unknown mode',
      { mode: 'vibes', criteria: [c('a')] },
      "mode: Invalid discriminator value. Expected 'criteria' | 'checklist' | 'likert' | 'reference'",
    ],
    ['no criteria', { mode: 'criteria', criteria: [] }, 'criteria: a rubric needs at least one criterion'],
    ['an empty checklist', { mode: 'checklist', items: [] }, 'items: a checklist needs at least one item'],
    [
      'a zero weight',
      { mode: 'criteria', criteria: [c('a', 0), c('b', 1)] },
      'criteria.0.weight: Too small: expected number to be >0',
    ],
    [
      'a negative weight',
      { mode: 'checklist', aggregate: 'share', items: [c('a', -1)] },
      'items.0.weight: Too small: expected number to be >0',
    ],
    [
      'weights on some criteria only',
      { mode: 'criteria', criteria: [c('a', 2), c('b')] },
      'criteria.1.weight: give a weight to every criterion or to none (1 of 2 have one)',
    ],
    [
      'weights under min',
      { mode: 'criteria', aggregate: 'min', criteria: [c('a', 2), c('b', 1)] },
      'criteria.0.weight: weights have no effect under aggregate "min"; remove them or use weighted_mean',
    ],
    [
      'weights under all_must_pass',
      { mode: 'checklist', items: [c('a', 2)] },
      'items.0.weight: weights have no effect under aggregate "all_must_pass"; remove them or use share',
    ],
    [
      'weights that do not add up to total',
      { mode: 'criteria', total: 100, criteria: [c('a', 60), c('b', 30)] },
      'total: the weights add up to 90, not to total 100',
    ],
    [
      'total without weights',
      { mode: 'criteria', total: 100, criteria: [c('a'), c('b')] },
      'total: total needs a weight on every criteria entry and a weighted aggregate',
    ],
    [
      'a repeated name',
      { mode: 'criteria', criteria: [c('a'), c('a')] },
      'criteria.1.name: name "a" is used twice (also criteria.0); names must be unique',
    ],
    [
      'a Likert scale with a gap',
      { mode: 'likert', criteria: [c('a')], anchors: { 1: 'x', 2: 'y', 4: 'z' } },
      'anchors: every point from 1 to 4 needs an anchor; missing 3',
    ],
    [
      'a Likert scale of one point',
      { mode: 'likert', criteria: [c('a')], anchors: { 1: 'x' } },
      'anchors: a Likert scale needs anchors for at least two points',
    ],
    ['an unknown field', { mode: 'criteria', criteria: [c('a')], scale: 5 }, ': Unrecognized key: "scale"'],
  ])('should reject %s, naming the field', (_name, rubric, expected) => {
    expect(problems(rubric)).toEqual([expected]);
  });

  test('should accept weights that add up to total', () => {
    expect(problems({ mode: 'criteria', total: 100, criteria: [c('a', 70), c('b', 30)] })).toEqual([]);
  });
});
