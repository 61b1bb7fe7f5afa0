import { describe, expect, test } from 'vitest';
import { ruleBasedPremiseAuditor } from './rule-premise-audit.js';

const constraints = {
  caption: 'A table with fruit.',
  key_facts: ['apples: 3', 'cup relative to plate: left of', 'cat present: yes', 'ball colour: red'],
  uncertain: ['pears: 2'],
};

describe('ruleBasedPremiseAuditor', () => {
  test.each<[string, string[], number, Array<'High' | 'Low'>]>([
    ['no checklist', [], 1, []],
    [
      'agreeing claims (numbers compared as numbers, case and spaces ignored)',
      ['Apples: 3.0', 'cup  relative to plate: Left of'],
      1,
      [],
    ],
    ['an omission is not a contradiction', ['dogs: 2'], 1, []],
    ['an uncertain item never contradicts', ['pears: 5'], 1, []],
    ['a wrong count is High', ['apples: 4'], 0.5, ['High']],
    ['a swapped relation is High', ['cup relative to plate: right of'], 0.5, ['High']],
    ['a wrong presence is High', ['cat present: no'], 0.5, ['High']],
    ['a wrong attribute is Low', ['ball colour: blue'], 0.8, ['Low']],
    ['one High + one Low (methods vector)', ['apples: 2', 'ball colour: blue'], 0.3, ['High', 'Low']],
    [
      'two High + one Low (methods vector)',
      ['apples: 2', 'cat present: no', 'ball colour: blue'],
      0,
      ['High', 'High', 'Low'],
    ],
    ['free text it cannot read', ['there are three apples'], 1, []],
  ])('%s', async (_, checklist, p, severities) => {
    const audit = await ruleBasedPremiseAuditor(checklist, constraints);
    expect(audit.status).toBe('ok');
    expect(audit.p).toBeCloseTo(p, 12);
    if (audit.status === 'ok') expect(audit.contradictions.map((c) => c.severity)).toEqual(severities);
  });
});
