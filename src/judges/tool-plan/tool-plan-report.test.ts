import { describe, expect, test } from 'vitest';
import { type ToolPlanRecord, toolPlanReport } from './tool-plan-report.js';

const row = (id: string, extra: Partial<ToolPlanRecord>): ToolPlanRecord => ({ id, ...extra });
const records: ToolPlanRecord[] = [
  row('a', {
    category: 'recipe',
    intent: 'steps',
    score: 0.8,
    precision: 1,
    recall: 0.5,
    overall: 0.9,
    calls_planned: [{ tool: 'image_generation' }, { tool: 'image_search' }],
    missed: [{ importance: 'minor' }],
  }),
  row('b', {
    category: 'recipe',
    intent: 'identify',
    score: 0.4,
    precision: null,
    recall: 0,
    overall: 0.8,
    calls_planned: [],
    missed: [],
  }),
  row('c', { category: 'travel', intent: 'steps', error: 'no readable judgment', score: null }),
  row('d', {
    score: 0.6,
    precision: 0.5,
    recall: null,
    overall: 0.7,
    calls_planned: [{ tool: 'code_rendering' }],
    missed: [],
  }),
];

describe('toolPlanReport', () => {
  test('should average each component over the rows where it applies, per category and intent', () => {
    const report = toolPlanReport(records);
    expect(report.all).toEqual({
      rows: 4,
      judged: 3,
      failed: 1,
      score: expect.closeTo(0.6, 12),
      precision: 0.75,
      recall: 0.25,
      overall: expect.closeTo(0.8, 12),
      calls_per_row: 1,
      missed_per_row: 1 / 3,
    });
    expect(Object.keys(report.by_category)).toEqual(['(none)', 'recipe', 'travel']);
    expect(report.by_category.recipe).toMatchObject({
      rows: 2,
      judged: 2,
      score: expect.closeTo(0.6, 12),
      precision: 1,
      recall: 0.25,
    });
    // A failed row is counted, never averaged in as 0.
    expect(report.by_category.travel).toMatchObject({
      rows: 1,
      judged: 0,
      failed: 1,
      score: null,
      precision: null,
    });
    expect(report.by_intent.steps).toMatchObject({ rows: 2, judged: 1, failed: 1, score: 0.8 });
    expect(report.by_intent['(none)']).toMatchObject({ rows: 1, score: 0.6 });
    expect(report.tools).toEqual({
      image_search: 1,
      image_generation: 1,
      image_editing: 0,
      code_rendering: 1,
      image_reference: 0,
    });
  });

  test('should report nothing as null, not 0', () => {
    expect(toolPlanReport([]).all).toMatchObject({ rows: 0, score: null, calls_per_row: null });
  });
});
