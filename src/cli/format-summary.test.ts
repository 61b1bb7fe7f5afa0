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
