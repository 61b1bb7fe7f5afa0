import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { judgmentView } from '../web/src/judgments/judgment-view.js';

/** The view's HTML as the page draws it. */
function drawn(detail: unknown): string {
  const view = judgmentView('genrm', detail);
  if (!view) throw new Error('the genrm view refused the detail');
  return renderToStaticMarkup(view);
}

/** The comparison rows reduced to the text a reader sees. */
function rowsOf(detail: unknown): string[] {
  const html = drawn(detail);
  return [...html.matchAll(/<tr[^>]*data-order[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
    (m[1] as string)
      .replace(/<\/td>/g, ' | ')
      .replace(/<[^>]+>/g, '')
      .trim(),
  );
}

const output = (score_1: number, score_2: number) => ({
  principles: ['vivid'],
  critique: 'ok',
  score_1,
  score_2,
});

describe('the GenRM judgment view', () => {
  test('should say which response held each position, its score, and the winner in the sample terms', () => {
    // The backward order shows the reference first: 4 vs 8 is a win for the response, as stored ("first").
    const rows = rowsOf({
      verdict: 'first',
      comparisons: [
        { order: 'forward', vote: 0, winner: 'first', output: output(8, 3) },
        { order: 'backward', vote: 0, winner: 'first', output: output(4, 8) },
      ],
    });
    expect(rows).toEqual([
      'forward | the response | 8 | the reference | 3 | the response |',
      'backward | the reference | 4 | the response | 8 | the response |',
    ]);
    expect(drawn({ verdict: 'first', comparisons: [] })).toContain('the response wins');
  });

  test('should name ties and votes, and show an unreadable comparison without scores', () => {
    expect(
      rowsOf({
        verdict: 'tie',
        comparisons: [
          { order: 'forward', vote: 1, winner: 'tie', output: output(5, 5) },
          { order: 'backward', vote: 0, invalid: 'no JSON' },
        ],
      }),
    ).toEqual([
      'forward · vote 2 | the response | 5 | the reference | 5 | tie |',
      'backward | the reference | — | the response | — | unreadable |',
    ]);
  });

  test("should show a failed judge's message once, however many comparisons it failed", () => {
    const message = 'backend https://judge.example answered 500 <script>x()</script>';
    const html = drawn({
      verdict: 'invalid',
      reason: `${message}; ${message}`,
      comparisons: [
        { order: 'forward', vote: 0, invalid: message },
        { order: 'backward', vote: 0, invalid: message },
      ],
    });
    const escaped = message.replace('<script>', '&lt;script&gt;').replace('</script>', '&lt;/script&gt;');
    expect(html.split(escaped)).toHaveLength(2);
    expect(html).toContain(`The judge failed: ${escaped}`);
    expect(html).not.toContain('<script>');
  });

  test('should leave a round robin or an unknown shape to the tree', () => {
    expect(judgmentView('genrm', { mode: 'round_robin', record: {}, matches: [] })).toBeUndefined();
    expect(
      judgmentView('genrm', { verdict: 'first', comparisons: [{ order: 'sideways', vote: 0 }] }),
    ).toBeUndefined();
  });
});
