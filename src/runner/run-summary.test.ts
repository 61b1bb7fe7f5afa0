import { describe, expect, test } from 'vitest';
import type { RewardResult } from '../core/index.js';
import { createSummaryAccumulator, mergeRunSummaries, OTHER_SOURCES, summarized } from './run-summary.js';

const result = (id: string, reward: number | null, score?: number, usage = false): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: reward === null ? 'failed' : 'ok',
  reward,
  components: {},
  evidence: [
    {
      source: 'math',
      kind: 'math',
      verdict: score === undefined ? 'error' : score === 1 ? 'pass' : 'fail',
      ...(score !== undefined && { score }),
      veto: false,
      invalid: score === undefined,
      elapsed_ms: 1,
      ...(usage && {
        usage: {
          calls: 2,
          prompt_tokens: 10,
          completion_tokens: 3,
          latency_ms: 5,
          retries: 0,
          cache_hits: 1,
        },
      }),
    },
  ],
  errors: reward === null ? [`${id} failed`] : [],
  warnings: [],
  timings: { total_ms: 1 },
});

describe('mergeRunSummaries', () => {
  test('should equal the summary of every row scored in one accumulator', () => {
    const rows = [
      result('a', 1, 1, true),
      result('b', 0, 0),
      result('c', null),
      result('d', 1, 1),
      result('e', 0.5, 0.5, true),
    ];
    const whole = createSummaryAccumulator();
    for (const r of rows) whole.add(r);
    const left = createSummaryAccumulator();
    const right = createSummaryAccumulator();
    for (const r of rows.slice(0, 2)) left.add(r);
    for (const r of rows.slice(2)) right.add(r);
    right.skip();
    whole.skip();
    const merged = mergeRunSummaries([left.summary(10), right.summary(20)], 40);
    const expected = whole.summary(40);
    expect(merged.rows).toBe(5);
    expect(merged.failed).toBe(1);
    expect(merged.skipped).toBe(1);
    expect(merged.mean_reward).toBeCloseTo(expected.mean_reward as number, 12);
    expect(merged.failures).toEqual(expected.failures);
    expect(merged.rows_per_s).toBe(125);
    const [math] = merged.sources;
    const [wholeMath] = expected.sources;
    expect(math?.scored).toBe(wholeMath?.scored);
    expect(math?.invalid).toBe(1);
    expect(math?.mean).toBeCloseTo(wholeMath?.mean as number, 12);
    expect(math?.pass_rate).toBeCloseTo(wholeMath?.pass_rate as number, 12);
    expect(math?.llm).toEqual({ calls: 4, prompt_tokens: 20, completion_tokens: 6, cache_hits: 2 });
  });

  test('should give no means when nothing was scored', () => {
    const merged = mergeRunSummaries([createSummaryAccumulator().summary(0)], 0);
    expect(merged).toMatchObject({ rows: 0, mean_reward: null, sources: [], rows_per_s: 0 });
  });
});

describe('default-route counts', () => {
  const routed = (id: string, dataSource?: string): RewardResult => ({
    ...result(id, 1, 1),
    routed_default: true,
    ...(dataSource !== undefined && { data_source: dataSource }),
  });

  test('should count the rows per data_source and tell of each source once, when first seen', () => {
    const heard: (string | null)[] = [];
    const acc = createSummaryAccumulator({ onDefaultRoute: (source) => heard.push(source) });
    acc.add({ ...result('r', 1, 1), data_source: 'gsm8k' });
    for (const [id, source] of [
      ['a', 'hellaswag'],
      ['b', undefined],
      ['c', 'hellaswag'],
      ['d', 'piqa'],
      ['e', 'hellaswag'],
    ] as const) {
      acc.add(summarized(routed(id, source)));
    }
    expect(heard).toEqual(['hellaswag', null, 'piqa']);
    expect(acc.summary(1).routed_default).toEqual([
      { data_source: 'hellaswag', rows: 3 },
      { data_source: null, rows: 1 },
      { data_source: 'piqa', rows: 1 },
    ]);
  });

  test('should leave the field out when every row was routed', () => {
    const acc = createSummaryAccumulator();
    acc.add(result('a', 1, 1));
    expect(acc.summary(1)).not.toHaveProperty('routed_default');
  });

  test('should count the sources past the bound together, and add up across merged parts', () => {
    const heard: (string | null)[] = [];
    const acc = createSummaryAccumulator({ onDefaultRoute: (source) => heard.push(source) });
    for (let i = 0; i < 203; i++) acc.add(routed(`r${i}`, `set${i}`));
    acc.add(routed('again', 'set0'));
    const summary = acc.summary(1);
    expect(summary.routed_default).toHaveLength(201);
    expect(summary.routed_default?.[0]).toEqual({ data_source: OTHER_SOURCES, rows: 3 });
    expect(summary.routed_default?.[1]).toEqual({ data_source: 'set0', rows: 2 });
    expect(heard.at(-1)).toBe(OTHER_SOURCES);
    expect(heard).toHaveLength(201);
    const other = createSummaryAccumulator();
    other.add(routed('x', 'set0'));
    const merged = mergeRunSummaries([summary, other.summary(1)], 2);
    expect(merged.routed_default?.find((c) => c.data_source === 'set0')?.rows).toBe(3);
  });
});

describe('panel agreement in the summary', () => {
  const panelResult = (id: string, verdicts: ('pass' | 'fail' | 'error')[]): RewardResult => ({
    ...result(id, 1, 1),
    evidence: [
      {
        source: 'judges',
        kind: 'panel',
        verdict: 'pass',
        score: 1,
        veto: false,
        invalid: false,
        elapsed_ms: 1,
        detail: {
          decide: 'majority',
          quorum: 2,
          answered: verdicts.filter((v) => v !== 'error').length,
          escalated: false,
          members: verdicts.map((verdict, i) => ({
            name: `m${i}`,
            kind: 'genrm',
            verdict,
            ...(verdict !== 'error' && { score: verdict === 'pass' ? 1 : 0 }),
          })),
        },
        usage: {
          calls: 3,
          prompt_tokens: 20,
          completion_tokens: 10,
          latency_ms: 1,
          retries: 0,
          cache_hits: 0,
        },
      },
    ],
  });
  const rows = [
    panelResult('a', ['pass', 'pass', 'fail']),
    panelResult('b', ['fail', 'fail', 'fail']),
    panelResult('c', ['pass', 'error', 'pass']),
  ];

  test('should be the same from whole results as from what worker threads send', () => {
    const whole = createSummaryAccumulator();
    const sent = createSummaryAccumulator();
    for (const row of rows) {
      whole.add(row);
      sent.add(JSON.parse(JSON.stringify(summarized(row))));
    }
    const panels = whole.summary(1).panels;
    expect(panels).toEqual(sent.summary(1).panels);
    expect(panels).toMatchObject([
      {
        source: 'judges',
        members: ['m0', 'm1', 'm2'],
        judgments: 3,
        calls_per_judgment: 3,
        tokens_per_judgment: 30,
      },
    ]);
    expect(panels?.[0]?.fleiss_kappa.units).toBe(2);
  });

  test('should be absent without a panel source', () => {
    const accumulator = createSummaryAccumulator();
    accumulator.add(result('a', 1, 1));
    expect(accumulator.summary(1)).not.toHaveProperty('panels');
  });
});
