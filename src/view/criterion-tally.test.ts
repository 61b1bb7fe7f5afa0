import { describe, expect, test } from 'vitest';
import { CLAIMS_CRITERION, criterionOutcomes } from './criterion-outcomes.js';
import { createCriterionTally, MISSED_SAMPLE_IDS } from './criterion-tally.js';

const rubric = (values: Record<string, number>) => ({
  source: 'rubric',
  kind: 'rubric',
  detail: {
    rubric_from: 'spec',
    status: 'ok',
    mode: 'criteria',
    criteria: Object.entries(values).map(([name, value], i) => ({ id: `c${i + 1}`, name, value, votes: [] })),
  },
});
const medical = (grades: [string, string][]) => ({
  source: 'med',
  kind: 'medical_rubric',
  detail: { score: 0, grades: grades.map(([id, grade]) => ({ id, section: 'essential', grade })) },
});
const claims = (verdicts: (string | undefined)[]) => ({
  source: 'facts',
  kind: 'claims',
  detail: { claims: verdicts.map((verdict, i) => ({ id: `q${i}`, question: '?', expected: 'x', verdict })) },
});

describe('criterionOutcomes', () => {
  test('should read rubric values at 0.5, medical grades, and checked claims only', () => {
    expect(
      criterionOutcomes([
        rubric({ cites: 0.5, brief: 0.25 }),
        medical([
          ['e1', 'fully_met'],
          ['e2', 'partially_met'],
          ['p1', 'no_pitfall'],
          ['p2', 'minor_error'],
        ]),
        claims(['supported', 'fault', undefined]),
        { source: 'math', kind: 'math', detail: { criteria: [{ name: 'x', value: 1 }] } },
        { source: 'odd', kind: 'rubric', detail: 'not an object' },
      ]).map((o) => [o.source, o.criterion, o.passed]),
    ).toEqual([
      ['rubric', 'cites', true],
      ['rubric', 'brief', false],
      ['med', 'e1', true],
      ['med', 'e2', false],
      ['med', 'p1', true],
      ['med', 'p2', false],
      ['facts', CLAIMS_CRITERION, true],
      ['facts', CLAIMS_CRITERION, false],
    ]);
  });
});

describe('createCriterionTally', () => {
  test('should count grades, samples and the samples that missed each criterion', () => {
    const tally = createCriterionTally();
    tally.add('a', [rubric({ cites: 1, brief: 0 }), claims(['supported', 'fault'])]);
    tally.add('b', [rubric({ cites: 0, brief: 1 }), claims(['supported'])]);
    tally.add('c', [rubric({ cites: 1, brief: 1 })]);
    tally.add('d', [{ source: 'math', kind: 'math', detail: {} }]);
    expect(tally.stats()).toEqual([
      {
        source: 'rubric',
        kind: 'rubric',
        criterion: 'cites',
        graded: 3,
        passed: 2,
        pass_rate: 2 / 3,
        samples: 3,
        missed_samples: 1,
        missed_sample_ids: ['b'],
      },
      {
        source: 'rubric',
        kind: 'rubric',
        criterion: 'brief',
        graded: 3,
        passed: 2,
        pass_rate: 2 / 3,
        samples: 3,
        missed_samples: 1,
        missed_sample_ids: ['a'],
      },
      {
        source: 'facts',
        kind: 'claims',
        criterion: CLAIMS_CRITERION,
        graded: 3,
        passed: 2,
        pass_rate: 2 / 3,
        samples: 2,
        missed_samples: 1,
        missed_sample_ids: ['a'],
      },
    ]);
  });

  test('should keep at most MISSED_SAMPLE_IDS ids while counting every missed sample', () => {
    const tally = createCriterionTally();
    for (let i = 0; i < MISSED_SAMPLE_IDS + 5; i++) tally.add(`s${i}`, [rubric({ cites: 0 })]);
    const [stat] = tally.stats();
    expect(stat?.missed_samples).toBe(MISSED_SAMPLE_IDS + 5);
    expect(stat?.missed_sample_ids).toHaveLength(MISSED_SAMPLE_IDS);
    expect(stat?.missed_sample_ids[0]).toBe('s0');
  });
});
