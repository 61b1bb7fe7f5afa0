import { describe, expect, test } from 'vitest';
import type { BenchJudgment, BenchRecord } from '../bench/index.js';
import type { CallTrace } from '../llm/index.js';
import { benchRecordResult } from './bench-record-result.js';

const call = (latencyMs: number): CallTrace => ({
  messages: [{ role: 'user', content: 'which is better?' }],
  raw: '{"score_1": 9, "score_2": 2}',
  finishReason: 'stop',
  latencyMs,
  promptTokens: 10,
  completionTokens: 5,
  retries: 0,
  cached: false,
  answeredAt: Date.UTC(2026, 10, 27, 19, 0, 0),
});

const judgment = (key: string, outcome: BenchJudgment['outcome'], extra: Partial<BenchJudgment> = {}) => ({
  key,
  kind: 'pairwise' as const,
  outcome,
  verdict: outcome === 'correct' ? ('first' as const) : ('second' as const),
  better: 'first' as const,
  usage: { calls: 1, prompt_tokens: 10, completion_tokens: 5 },
  calls: [call(4)],
  ...extra,
});

const record = (judgments: ReturnType<typeof judgment>[]): BenchRecord => ({
  id: 'item-1',
  dataset: 'rm-bench',
  status: 'ok',
  group: 'chat',
  judgments,
});

describe('benchRecordResult', () => {
  test.each([
    { outcomes: ['correct'], reward: 1 },
    { outcomes: ['wrong'], reward: 0 },
    { outcomes: ['tie'], reward: 0.5 },
    { outcomes: ['correct', 'wrong', 'tie', 'correct'], reward: 2.5 / 4 },
    // An invalid judgment is left out of the mean, never counted as 0.
    { outcomes: ['correct', 'invalid'], reward: 1 },
  ] as const)('should reward $outcomes with the mean credit $reward', ({ outcomes, reward }) => {
    const result = benchRecordResult(record(outcomes.map((o, i) => judgment(`cell-${i}`, o))), 'genrm');
    expect(result.status).toBe('ok');
    expect(result.reward).toBe(reward);
    expect(result.data_source).toBe('chat');
    expect(result.evidence.map((e) => e.source)).toEqual(outcomes.map((_, i) => `cell-${i}`));
  });

  test('should keep each judgment as bench evidence with its detail, calls, usage and credit', () => {
    const result = benchRecordResult(
      record([judgment('pair', 'correct'), judgment('pair-2', 'invalid', { reason: 'unreadable' })]),
      'genrm',
    );
    expect(result.components).toEqual({ pair: 1, 'pair-2': null });
    const [right, invalid] = result.evidence;
    expect(right).toMatchObject({
      kind: 'bench',
      score: 1,
      verdict: 'pass',
      invalid: false,
      detail: { judge: 'genrm', key: 'pair', outcome: 'correct', verdict: 'first', better: 'first' },
      usage: { calls: 1, prompt_tokens: 10, completion_tokens: 5 },
      elapsed_ms: 4,
    });
    expect(right?.calls).toEqual([
      expect.objectContaining({ raw: '{"score_1": 9, "score_2": 2}', latency_ms: 4 }),
    ]);
    expect(right?.detail).not.toHaveProperty('calls');
    expect(invalid).toMatchObject({
      verdict: 'error',
      invalid: true,
      reason: 'no readable judgment: unreadable',
    });
    expect(invalid).not.toHaveProperty('score');
    expect(result.timings.total_ms).toBe(8);
  });

  test('should fail an item whose every judgment is invalid, with each reason, its evidence kept', () => {
    const result = benchRecordResult(record([judgment('pair', 'invalid', { reason: 'HTTP 500' })]), 'genrm');
    expect(result).toMatchObject({
      status: 'failed',
      reward: null,
      errors: ['pair: no readable judgment: HTTP 500'],
    });
    expect(result.evidence).toHaveLength(1);
  });

  test('should fail a row that could not be read, with its error and group', () => {
    const result = benchRecordResult(
      {
        id: 'row:4',
        dataset: 'pairwise',
        status: 'failed',
        group: 'poems',
        error: 'in.jsonl:4: field "chosen"',
      },
      'genrm',
    );
    expect(result).toMatchObject({
      id: 'row:4',
      status: 'failed',
      reward: null,
      errors: ['in.jsonl:4: field "chosen"'],
      data_source: 'poems',
      evidence: [],
    });
  });
});
