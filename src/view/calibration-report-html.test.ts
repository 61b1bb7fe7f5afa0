import { describe, expect, test } from 'vitest';
import { calibrationSummary } from '../calibration/index.js';
import { miscalibratedFixture } from '../calibration/test-utils/miscalibrated-fixture.js';
import { calibrationReportHtml } from './calibration-report-html.js';
import { reliabilityDiagramSvg } from './reliability-diagram-svg.js';
import { expectSelfContained } from './test-utils/expect-self-contained.js';

const summary = calibrationSummary(miscalibratedFixture(400, 5), {
  method: 'isotonic',
  bins: 10,
  folds: 5,
  seed: 0,
});

describe('calibrationReportHtml', () => {
  const html = calibrationReportHtml({
    scores: 'scores<1>.jsonl',
    source: 'judge',
    labels: 'labels.jsonl',
    map: 'map.json',
    summary,
    problems: ['labels.jsonl:3:label: "<b>yes</b>" is not a label'],
    problemCount: 4,
  });

  test('is self-contained and escapes what came from the data', () => {
    expectSelfContained(html);
    expect(html).toContain('scores&lt;1&gt;.jsonl');
    expect(html).not.toContain('<b>yes</b>');
    expect(html).toContain('… and 3 more.');
  });

  test('has the metrics table and a diagram before, cross-fitted and in-sample', () => {
    expect(html).toContain('after, cross-fitted (5 folds, seed 0)');
    expect(html.match(/aria-label="reliability diagram/g)).toHaveLength(3);
    expect(html).toContain(summary.after.cross_fitted.ece.toFixed(4).replace(/0+$/, ''));
  });

  test('says why there is no "before" diagram for scores that are not probabilities', () => {
    const unscaled = calibrationSummary(
      miscalibratedFixture(100, 5).map((p) => ({ ...p, score: 5 * p.score })),
      { method: 'platt', bins: 10, folds: 5, seed: 0 },
    );
    const page = calibrationReportHtml({
      scores: 's',
      labels: 'l',
      map: 'm',
      summary: unscaled,
      problems: [],
      problemCount: 0,
    });
    expect(page.match(/aria-label="reliability diagram/g)).toHaveLength(2);
    expect(page).toContain('No “before” figures');
    expect(page).not.toContain('Rows left out');
  });
});

describe('reliabilityDiagramSvg', () => {
  test('draws the diagonal, a point and a count bar per non-empty bin, nothing for an empty one', () => {
    const svg = reliabilityDiagramSvg({
      title: 't',
      bins: [
        { lo: 0, hi: 0.5, count: 3, mean_score: 0.2, observed: 0 },
        { lo: 0.5, hi: 1, count: 0, mean_score: null, observed: null },
      ],
    });
    expect(svg).toContain('perfect calibration');
    expect(svg.match(/<circle/g)).toHaveLength(1);
    expect(svg).toContain('[0, 0.5): 3 points, mean score 0.2, observed 0');
    expect(svg.match(/fill="#8a9bb0"/g)).toHaveLength(1);
  });
});
