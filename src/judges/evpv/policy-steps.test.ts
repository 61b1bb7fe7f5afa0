import { describe, expect, test } from 'vitest';
import { isEmptyDependency, parsePolicyOutput, visualChecklist, visualStepIndices } from './policy-steps.js';

const parsed = (output: unknown) => {
  const r = parsePolicyOutput(output);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('parsePolicyOutput', () => {
  test('should read the tagged text form', () => {
    const out = parsed(`<step>Count the apples.<visual_dependency>apples: 3</visual_dependency></step>
<step>3 + 2 = 5</step>
<answer>5</answer>`);
    expect(out).toEqual({
      steps: [{ text: 'Count the apples.', visualDependency: 'apples: 3' }, { text: '3 + 2 = 5' }],
      finalAnswer: '5',
    });
  });

  test('should read the JSON form, as text and as an object, with bare-string steps', () => {
    const value = {
      steps: [
        { text: 'The cup is left of the plate.', visual_dependency: 'cup: left of plate' },
        'So: left.',
      ],
      final_answer: 7,
    };
    const expected = {
      steps: [
        { text: 'The cup is left of the plate.', visualDependency: 'cup: left of plate' },
        { text: 'So: left.' },
      ],
      finalAnswer: '7',
    };
    expect(parsed(JSON.stringify(value))).toEqual(expected);
    expect(parsed(value)).toEqual(expected);
  });

  test.each([
    ['""', ''],
    ['"null"', 'null'],
    ['" NULL "', ' NULL '],
    ['JSON null', null],
  ])('should treat %s as no visual dependency', (_, dependency) => {
    const out = parsed({ steps: [{ text: 's', visual_dependency: dependency }] });
    expect(out.steps[0]).toEqual({ text: 's' });
    expect(visualChecklist(out.steps)).toEqual([]);
  });

  test('should treat empty and "null" tagged dependencies as none', () => {
    const out = parsed(
      '<step>a<visual_dependency>null</visual_dependency></step><step>b<visual_dependency> </visual_dependency></step>',
    );
    expect(visualStepIndices(out.steps)).toEqual([]);
  });

  test('should take the last answer and allow none', () => {
    expect(parsed('<step>x</step><answer>1</answer><answer>2</answer>').finalAnswer).toBe('2');
    expect(parsed('<step>x</step>').finalAnswer).toBeUndefined();
  });

  test.each([
    ['no steps at all', 'The answer is 5.', /no <step>/],
    ['broken JSON', '{"steps": [', /not JSON/],
    ['JSON without steps', '{"final_answer": 3}', /steps/],
    ['empty steps', '{"steps": []}', /steps/],
    [
      'two dependencies in one step',
      '<step>a<visual_dependency>x</visual_dependency><visual_dependency>y</visual_dependency></step>',
      /step 1 has 2/,
    ],
  ])('should refuse %s with a reason', (_, output, error) => {
    const r = parsePolicyOutput(output);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });
});

describe('visualChecklist', () => {
  test('should list unique non-empty dependencies in first-use order', () => {
    const { steps } = parsed({
      steps: [
        { text: 'a', visual_dependency: 'apples: 3' },
        { text: 'b', visual_dependency: '' },
        { text: 'c', visual_dependency: 'pears: 2' },
        { text: 'd', visual_dependency: ' apples: 3 ' },
        { text: 'e', visual_dependency: 'null' },
      ],
    });
    expect(visualChecklist(steps)).toEqual(['apples: 3', 'pears: 2']);
    expect(visualStepIndices(steps)).toEqual([0, 2, 3]);
  });
});

test('isEmptyDependency', () => {
  expect([undefined, null, '', '  ', 'null', 'Null'].every(isEmptyDependency)).toBe(true);
  expect(isEmptyDependency('nullable things: 2')).toBe(false);
});
