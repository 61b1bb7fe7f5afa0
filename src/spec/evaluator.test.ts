import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type JudgeCall, SampleSchema } from '../core/index.js';
import { createEvaluator } from './evaluator.js';
import { parseSpec } from './parse-spec.js';
import { SourceFailedError } from './source-failed-error.js';
import { defineSourceKind, type SourceKind } from './source-kind.js';

const constKind = defineSourceKind({
  kind: 'const',
  description: 'scores a fixed value',
  params: z.strictObject({ score: z.number(), warn: z.string().optional() }),
  create: (p) => () => ({
    score: p.score,
    verdict: p.score >= 1 ? 'pass' : 'fail',
    ...(p.warn && { warnings: [p.warn] }),
  }),
});
const slowKind = defineSourceKind({
  kind: 'slow',
  description: 'never finishes, but notices the abort',
  params: z.strictObject({}),
  create:
    () =>
    (_sample, { signal }) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
});
const boomKind = defineSourceKind({
  kind: 'boom',
  description: 'throws',
  params: z.strictObject({}),
  create: () => () => {
    throw new Error('backend unreachable');
  },
});
const nanKind = defineSourceKind({
  kind: 'nan',
  description: 'computes a score that is not a number',
  params: z.strictObject({}),
  create: () => () => ({ score: Number.NaN, verdict: 'pass' }),
});
const judgeCall = (raw: string): JudgeCall => ({
  role: 'grader',
  messages: [{ role: 'user', content: 'Grade it.' }],
  raw,
  finish_reason: 'stop',
  latency_ms: 3,
  retries: 0,
  cached: false,
});
const tracedKind = defineSourceKind({
  kind: 'traced',
  description: 'a judge that calls a model, and fails when asked to after the calls were made',
  params: z.strictObject({ fail: z.boolean().default(false) }),
  create: (p) => () => {
    const calls = [judgeCall('unreadable'), judgeCall('{"grade": 1}')];
    if (p.fail) throw new SourceFailedError('never readable', { detail: { tries: 2 }, calls });
    return { score: 1, verdict: 'pass', calls };
  },
});
const registry = new Map<string, SourceKind>(
  [constKind, slowKind, boomKind, nanKind, tracedKind].map((k) => [k.kind, k as unknown as SourceKind]),
);
const sample = (extra: Record<string, unknown> = {}) =>
  SampleSchema.parse({ id: 's1', response: 'r', ...extra });
const evaluatorFor = (yaml: string) => createEvaluator(parseSpec(yaml, 't.yaml', registry), { registry });

describe('createEvaluator', () => {
  test('should aggregate the sources and keep their evidence and warnings', async () => {
    const ev = evaluatorFor(
      'sources:\n  - {kind: const, name: a, params: {score: 1, warn: "truncated"}}\n  - {kind: const, name: b, params: {score: 0}}\n',
    );
    const result = await ev.evaluate(sample({ group: 7 }));
    expect(result).toMatchObject({
      spec: 'rk/v1',
      id: 's1',
      status: 'ok',
      reward: 0.5,
      components: { a: 1, b: 0 },
      group: '7',
      warnings: ['a: truncated'],
      errors: [],
    });
    expect(result.evidence.map((e) => [e.source, e.verdict])).toEqual([
      ['a', 'pass'],
      ['b', 'fail'],
    ]);
  });

  test('should record a timed-out source as invalid and fail the row, never 0', async () => {
    const ev = evaluatorFor(
      'sources:\n  - {kind: const, params: {score: 1}}\n  - {kind: slow, timeout_ms: 30}\n',
    );
    const result = await ev.evaluate(sample());
    expect(result.status).toBe('failed');
    expect(result.reward).toBeNull();
    expect(result.evidence[1]).toMatchObject({
      verdict: 'error',
      invalid: true,
      reason: 'timed out after 30 ms',
    });
    expect(result.errors).toEqual(['source "slow" could not be checked: timed out after 30 ms']);
  });

  test('should fail a source whose score is not a finite number, never report the row ok', async () => {
    const ev = evaluatorFor('sources:\n  - {kind: const, params: {score: 1}}\n  - {kind: nan}\n');
    const result = await ev.evaluate(sample());
    expect(result.status).toBe('failed');
    expect(result.reward).toBeNull();
    expect(result.evidence[1]).toMatchObject({ verdict: 'error', invalid: true });
    expect(result.errors).toEqual([
      'source "nan" could not be checked: the source returned a score that is not a finite number (NaN)',
    ]);
  });

  test('should record a throwing source with its message', async () => {
    const ev = evaluatorFor(
      'sources:\n  - {kind: const, params: {score: 1}}\n  - {kind: boom}\non_error: exclude\n',
    );
    const result = await ev.evaluate(sample());
    expect(result).toMatchObject({ status: 'ok', reward: 1, components: { const: 1, boom: null } });
    expect(result.evidence[1]?.reason).toBe('backend unreachable');
  });

  test("should keep a judge's calls on its evidence, a failed judgment's too, and none with traces off", async () => {
    const yaml =
      'sources:\n  - {kind: traced, name: ok}\n  - {kind: traced, name: bad, params: {fail: true}}\n';
    const result = await evaluatorFor(yaml).evaluate(sample());
    expect(result.evidence.map((e) => e.calls?.map((c) => c.raw))).toEqual([
      ['unreadable', '{"grade": 1}'],
      ['unreadable', '{"grade": 1}'],
    ]);
    expect(result.evidence[1]).toMatchObject({
      invalid: true,
      reason: 'never readable',
      detail: { tries: 2 },
    });
    const untraced = createEvaluator(parseSpec(yaml, 't.yaml', registry), { registry, traces: false });
    const lean = await untraced.evaluate(sample());
    expect(lean.evidence.map((e) => 'calls' in e)).toEqual([false, false]);
    expect(lean.evidence[1]?.detail).toEqual({ tries: 2 });
  });

  test('should mark a failing veto source and apply its reward', async () => {
    const ev = evaluatorFor(
      'sources:\n  - {kind: const, params: {score: 1}}\n  - {kind: boom, name: b, veto: true}\n',
    );
    // An erroring veto source is an error, not a failed check: the row fails instead of being vetoed.
    expect((await ev.evaluate(sample())).status).toBe('failed');
    const ev2 = evaluatorFor(
      'sources:\n  - {kind: const, name: a, params: {score: 1}}\n  - {kind: const, name: v, veto: {reward: -1}, params: {score: 0}}\n',
    );
    const result = await ev2.evaluate(sample());
    expect(result.reward).toBe(-1);
    expect(result.evidence[1]?.veto).toBe(true);
  });

  test('should route by data_source with globs and fall back to the default', async () => {
    const ev = evaluatorFor(
      [
        'routes:',
        '  - data_source: ["math*", gsm8k]',
        '    spec: {sources: [{kind: const, params: {score: 1}}]}',
        'default: {sources: [{kind: const, params: {score: 0.25}}]}',
      ].join('\n'),
    );
    expect((await ev.evaluate(sample({ data_source: 'math500' }))).reward).toBe(1);
    expect((await ev.evaluate(sample({ data_source: 'gsm8k' }))).reward).toBe(1);
    expect((await ev.evaluate(sample({ data_source: 'nq' }))).reward).toBe(0.25);
    expect((await ev.evaluate(sample())).reward).toBe(0.25);
  });

  test('should mark a sample its routes miss as routed to the default, with a warning', async () => {
    const ev = evaluatorFor(
      [
        'name: mixed',
        'routes:',
        '  - data_source: gsm8k',
        '    spec: {sources: [{kind: const, params: {score: 1}}]}',
        'default: {name: fallback, sources: [{kind: const, params: {score: 0.25}}]}',
      ].join('\n'),
    );
    const routed = await ev.evaluate(sample({ data_source: 'OpenAI/GSM8K' }));
    expect(routed.routed_default).toBeUndefined();
    expect(routed.warnings).toEqual([]);
    const missed = await ev.evaluate(sample({ data_source: 'hellaswag' }));
    expect(missed).toMatchObject({ status: 'ok', reward: 0.25, routed_default: true });
    expect(missed.warnings).toEqual([
      'data_source "hellaswag" matches no route: scored by the default route of spec "mixed" (fallback)',
    ]);
    const [none] = await ev.evaluateGroup([sample()]);
    expect(none?.routed_default).toBe(true);
    expect(none?.warnings).toEqual([
      'the sample has no data_source: scored by the default route of spec "mixed" (fallback)',
    ]);
  });

  test('should not mark the samples of a spec without routes', async () => {
    const result = await evaluatorFor('sources:\n  - {kind: const, params: {score: 1}}\n').evaluate(sample());
    expect(result.routed_default).toBeUndefined();
    expect(result.warnings).toEqual([]);
  });

  test('should fail a sample no route takes, naming the routes', async () => {
    const ev = evaluatorFor(
      'routes:\n  - data_source: gsm8k\n    spec: {sources: [{kind: const, params: {score: 1}}]}\n',
    );
    const result = await ev.evaluate(sample({ data_source: 'nq' }));
    expect(result.status).toBe('failed');
    expect(result.errors[0]).toBe(
      'data_source "nq" matches no route of spec "spec" and there is no default (routes: gsm8k)',
    );
  });
});
