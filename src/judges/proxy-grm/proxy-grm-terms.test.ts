import { describe, expect, test } from 'vitest';
import {
  allProxyGrmRewards,
  COMBINER_RANGES,
  COMBINERS,
  combineProxyGrm,
  type ProxyGrmTerms,
  unitProxyGrmReward,
} from './proxy-grm-combiners.js';
import {
  accTerm,
  answerPositions,
  extractAnswer,
  extractRubric,
  formatTerm,
  proxyTerm,
  type ShownPosition,
} from './proxy-grm-terms.js';

describe('acc', () => {
  test.each<[string, ShownPosition, 1 | -1]>([
    // judges.md: label 1 and answer "1 or 2" -> acc -1.
    ['1 or 2', 1, -1],
    ['1', 1, 1],
    ['Response 1', 1, 1],
    ['Response 2 is better', 1, -1],
    ['2', 2, 1],
    ['neither', 1, -1],
    ['', 2, -1],
    ['12', 1, -1],
    ['1.5', 1, -1],
  ])('answer %j with label %i gives %i', (answer, label, acc) => {
    expect(accTerm(answerPositions(answer), label)).toBe(acc);
  });
});

describe('proxy', () => {
  test.each([
    [1, 1, 1],
    [2, 1, -1],
    ['wrong', 2, -1],
    ['transport', 1, 0],
  ] as const)('prediction %j with label %i gives %i', (prediction, label, term) => {
    expect(proxyTerm(prediction, label)).toBe(term);
  });
});

describe('format', () => {
  const ok = '<rubric>r</rubric>\n<evaluation>e</evaluation>\n<answer>1</answer>';
  test.each([
    [ok, 1],
    ['<rubric>r</rubric><answer>1</answer>', 0],
    [`${ok}<answer>2</answer>`, 0],
    ['<evaluation>e</evaluation><rubric>r</rubric><answer>1</answer>', 0],
    ['<rubric>r<evaluation>e</rubric></evaluation><answer>1</answer>', 0],
    ['<rubric>r</rubric><evaluation>e</evaluation><answer>1', 0],
  ])('%j gives %i', (output, term) => {
    expect(formatTerm(output)).toBe(term);
  });
});

describe('rubric extraction', () => {
  test('keeps only the rubric block and cuts a justification', () => {
    const out =
      '<answer>2</answer><rubric>\n- accuracy\n<justify>2 is right</justify></rubric><evaluation>x</evaluation>';
    expect(extractRubric(out)).toBe('- accuracy');
  });
  test('has no rubric without a closed block or with an empty one', () => {
    expect(extractRubric('<rubric>open')).toBeUndefined();
    expect(extractRubric('<rubric> </rubric>')).toBeUndefined();
  });
  test('reads the answer block', () => {
    expect(extractAnswer('<answer> 1 </answer>')).toBe(' 1 ');
    expect(extractAnswer('no answer')).toBeUndefined();
  });
});

const terms = (acc: 1 | -1, proxy: 1 | 0 | -1, format: 0 | 1): ProxyGrmTerms => ({ acc, proxy, format });

describe('combiners', () => {
  test('judges.md: acc +1, proxy -1, format ok -> 0.5', () => {
    expect(combineProxyGrm(terms(1, -1, 1), 'sum')).toBe(0.5);
  });
  test.each([
    // [acc, proxy, format, sum, gated, gated_mismatch, gated_strict]
    [1, 1, 1, 2.5, 2, 2, 2],
    [1, 1, 0, 2, 1.5, 1.5, 1.5],
    [1, -1, 0, 0, 0.5, 0.5, 0.5],
    [-1, 1, 0, 0, -1, -1.5, -1.5],
    [-1, -1, 0, -2, -1, -1, -2],
    [-1, -1, 1, -1.5, -0.5, -0.5, -1.5],
    // A transport failure is the mean of the proxy-right and proxy-wrong cells.
    [1, 0, 0, 1, 1, 1, 1],
    [-1, 0, 0, -1, -1, -1.25, -1.75],
  ] as const)('acc %i proxy %i format %i', (acc, proxy, format, ...expected) => {
    const rewards = allProxyGrmRewards(terms(acc, proxy, format));
    expect(COMBINERS.map((c) => rewards[c])).toEqual(expected);
  });
  test('the default reward spans [-2, 2.5], and each combiner exactly its stated range', () => {
    expect(COMBINER_RANGES.sum).toEqual([-2, 2.5]);
    for (const combiner of COMBINERS) {
      const all: number[] = [];
      for (const acc of [1, -1] as const)
        for (const proxy of [1, 0, -1] as const)
          for (const format of [0, 1] as const)
            all.push(combineProxyGrm(terms(acc, proxy, format), combiner));
      expect([Math.min(...all), Math.max(...all)]).toEqual(COMBINER_RANGES[combiner]);
      expect(unitProxyGrmReward(Math.min(...all), combiner)).toBe(0);
      expect(unitProxyGrmReward(Math.max(...all), combiner)).toBe(1);
    }
    expect(unitProxyGrmReward(0.5, 'sum')).toBeCloseTo(2.5 / 4.5, 12);
  });
});
