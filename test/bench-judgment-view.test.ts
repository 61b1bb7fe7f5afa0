import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { benchRecordResult } from '../src/cli/bench-record-result.js';
import { isBenchDetail } from '../web/src/judgments/bench-detail.js';
import { judgmentView } from '../web/src/judgments/judgment-view.js';

/** A pair judged in both orders, the labelled better response shown `better`, the judge picking `verdict`. */
const storedDetail = (better: 'first' | 'second', verdict: 'first' | 'second') =>
  benchRecordResult(
    {
      id: 'p-1',
      dataset: 'pairwise',
      status: 'ok',
      group: 'all',
      judgments: [
        {
          key: 'pair',
          kind: 'pairwise',
          outcome: verdict === better ? 'correct' : 'wrong',
          verdict,
          better,
          comparisons: [
            { order: 'forward', vote: 0, winner: verdict },
            { order: 'backward', vote: 0, winner: verdict },
          ],
          lengths: { first: 12, second: 30 },
          usage: { calls: 2, prompt_tokens: 20, completion_tokens: 10 },
        },
      ],
    },
    'genrm',
  ).evidence[0]?.detail;

describe('the bench judgment view', () => {
  test('should accept the detail a bench run stores and name the responses by the label, not the position', () => {
    const shownSecond = storedDetail('second', 'second');
    expect(isBenchDetail(shownSecond)).toBe(true);
    const html = renderToStaticMarkup(judgmentView('bench', shownSecond) as React.ReactElement);
    expect(html).toContain('data-judgment="bench"');
    expect(html).toContain('data-grade="correct"');
    expect(html).toContain('the better response wins');
    // Forward shows the pair's first (here the worse response) at position 1.
    expect(html).toMatch(/<td>forward<\/td><td>the worse response<\/td><td>the better response<\/td>/);
    const wrong = renderToStaticMarkup(
      judgmentView('bench', storedDetail('first', 'second')) as React.ReactElement,
    );
    expect(wrong).toContain('data-grade="wrong"');
    expect(wrong).toContain('the worse response wins');
  });

  test.each([
    ['outcome', 'maybe'],
    ['key', 3],
    ['kind', 'pointwise'],
    ['comparisons', [{ order: 'sideways', vote: 0 }]],
  ])('should refuse a detail whose %s is %j, and leave it to the tree', (field, value) => {
    const broken = { ...(storedDetail('first', 'first') as Record<string, unknown>), [field]: value };
    expect(isBenchDetail(broken)).toBe(false);
    expect(judgmentView('bench', broken)).toBeUndefined();
  });
});
