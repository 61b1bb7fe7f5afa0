import { describe, expect, test } from 'vitest';
import { OTHER_SOURCES, type RunSummary } from '../runner/index.js';
import { formatSummary } from './format-summary.js';

const summary: RunSummary = {
  rows: 6,
  scored: 6,
  failed: 0,
  skipped: 0,
  mean_reward: 0.5,
  sources: [],
  failures: [],
  routed_default: [
    { data_source: 'Rowan/hellaswag', rows: 3 },
    { data_source: null, rows: 2 },
    { data_source: OTHER_SOURCES, rows: 1 },
  ],
  elapsed_ms: 1000,
  rows_per_s: 6,
};

describe('formatSummary', () => {
  test('should list the rows that reached the default route per data_source', () => {
    const text = formatSummary(summary, { output: 'out.jsonl' });
    expect(text).toContain(
      [
        '  routed to default  6 rows matched no route of the spec:',
        '    Rowan/hellaswag  3',
        '    (no data_source)  2',
        '    (further data_sources)  1',
      ].join('\n'),
    );
  });

  test('should say nothing of the default route when every row was routed', () => {
    const { routed_default: _, ...routed } = summary;
    expect(formatSummary(routed, { output: 'out.jsonl' })).not.toContain('routed to default');
  });
});

describe('formatSummary of a panel', () => {
  test("should print each panel's agreement and its cost per judgment, and why a statistic is missing", () => {
    const text = formatSummary(
      {
        ...summary,
        panels: [
          {
            source: 'judges',
            members: ['genrm:a', 'genrm:b'],
            judgments: 4,
            cohen_kappa: { value: 0.5, units: 4 },
            fleiss_kappa: { value: 0.4667, units: 4 },
            alpha_nominal: { value: 0.5333, units: 4 },
            alpha_interval: { value: null, units: 0, reason: 'no unit has two ratings' },
            escalation_rate: 0.25,
            calls_per_judgment: 2.25,
            tokens_per_judgment: 33.75,
          },
        ],
      },
      { output: 'out.jsonl' },
    );
    expect(text).toContain(
      [
        '  panel judges: 2 members (genrm:a, genrm:b), 4 judgments',
        "    Cohen's kappa         0.500  (4 samples)",
        "    Fleiss' kappa         0.467  (4 samples)",
        '    Krippendorff alpha    0.533  (4 samples) nominal, verdicts',
        '                          —  (no unit has two ratings) interval, scores',
        '    per judgment          2.25 calls, 33.8 tokens; escalated 25.0%',
      ].join('\n'),
    );
  });
});
