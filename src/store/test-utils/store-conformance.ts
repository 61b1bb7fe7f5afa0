import { describe, expect, test } from 'vitest';
import { type Evidence, failedResult, type RewardResult } from '../../core/index.js';
import {
  DATA_SOURCE_CHOICES,
  RESPONSE_PREVIEW_CHARS,
  type SampleFilter,
  type SampleQuery,
} from '../run-views.js';
import { createSourceStatsTally } from '../source-stats-tally.js';
import { specHash } from '../spec-hash.js';
import type { Store } from '../store.js';

/** A scored sample with one passing source and one invalid one. */
export const okResult = (id: string, reward: number, score = reward): RewardResult => ({
  spec: 'rk/v1',
  id,
  status: 'ok',
  reward,
  components: { math: score, fmt: null },
  evidence: [
    {
      source: 'math',
      kind: 'math',
      score,
      verdict: score === 1 ? 'pass' : 'fail',
      detail: { extracted: '4' },
      veto: false,
      invalid: false,
      elapsed_ms: 0.5,
    },
    {
      source: 'fmt',
      kind: 'regex',
      verdict: 'error',
      veto: false,
      invalid: true,
      reason: 'bad',
      elapsed_ms: 0.1,
    },
  ],
  errors: [],
  warnings: ['w'],
  data_source: 'gsm8k',
  group: 'g1',
  timings: { total_ms: 1.25 },
});

/** A sample judged by an LLM source, with its usage. */
export const judgedResult: RewardResult = {
  spec: 'rk/v1',
  id: 'j',
  status: 'ok',
  reward: 1,
  components: { judge: 1 },
  evidence: [
    {
      source: 'judge',
      kind: 'genrm',
      score: 1,
      verdict: 'pass',
      veto: false,
      invalid: false,
      usage: {
        calls: 2,
        prompt_tokens: 300,
        completion_tokens: 40,
        latency_ms: 412.5,
        retries: 1,
        cache_hits: 1,
      },
      elapsed_ms: 420,
    },
  ],
  errors: [],
  warnings: [],
  timings: { total_ms: 421 },
};

/**
 * The behaviour every `Store` backend must share, registered as vitest tests. `open` returns a
 * fresh, empty store for each test.
 */
/** A judged result that kept its calls: one unreadable with odd characters, one read, tokens unknown. */
export const tracedResult: RewardResult = {
  ...judgedResult,
  id: 't',
  evidence: [
    {
      ...(judgedResult.evidence[0] as RewardResult['evidence'][number]),
      calls: [
        {
          role: 'genrm_scores',
          order: 'forward',
          variant: 0,
          messages: [
            { role: 'system', content: 'Judge.' },
            { role: 'user', content: 'Response 1: <script>x()</script> \u0000 \ue000 ☂' },
          ],
          raw: 'no JSON \u0000 here',
          parse_error: 'no JSON object in the output',
          finish_reason: 'length',
          latency_ms: 200.25,
          prompt_tokens: 150,
          completion_tokens: 20,
          retries: 1,
          cached: false,
        },
        {
          role: 'genrm_scores',
          order: 'backward',
          variant: 0,
          messages: [
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'c1', name: 'view', arguments: { a: [1] } }],
            },
            { role: 'tool', content: 'ok', tool_call_id: 'c1' },
          ],
          raw: '{"score_1": 3, "score_2": 8}',
          parsed: { score_1: 3, score_2: 8 },
          finish_reason: 'stop',
          latency_ms: 0,
          retries: 0,
          cached: true,
          warnings: ['seed ignored'],
        },
      ],
    },
  ],
};

export function runStoreConformance(open: () => Promise<Store>): void {
  describe('Store conformance', () => {
    test('should keep one label per sample, the last write winning, listed by sample id', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 'labels', spec: {} });
      const other = await store.createRun({ spec_name: 'other', spec: {} });
      expect(await store.listLabels(run.id)).toEqual([]);
      const first = await store.putLabel(run.id, 'b', { kind: 'correct', note: 'looks right' });
      expect(first).toMatchObject({
        run_id: run.id,
        sample_id: 'b',
        kind: 'correct',
        score: null,
        note: 'looks right',
      });
      await store.putLabel(run.id, 'a', { kind: 'score', score: 0.25 });
      await store.putLabel(run.id, 'b', { kind: 'incorrect', note: 'odd \u00e9 "quoted"\n' });
      await store.putLabel(other.id, 'a', { kind: 'correct' });
      const labels = await store.listLabels(run.id);
      expect(labels.map(({ labeled_at, ...rest }) => rest)).toEqual([
        { run_id: run.id, sample_id: 'a', kind: 'score', score: 0.25, note: null },
        { run_id: run.id, sample_id: 'b', kind: 'incorrect', score: null, note: 'odd \u00e9 "quoted"\n' },
      ]);
      for (const label of labels) expect(new Date(label.labeled_at).toISOString()).toBe(label.labeled_at);
      expect((await store.listLabels(run.id, { sampleId: 'a' })).map((l) => l.score)).toEqual([0.25]);
      expect(await store.listLabels(run.id, { sampleId: 'missing' })).toEqual([]);
      expect((await store.listLabels(other.id)).map((l) => l.kind)).toEqual(['correct']);
      await store.close();
    });

    test("should round-trip a judgment's calls exactly, odd characters and unknown token counts too", async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 'judge', spec: {} });
      await store.saveResults(run.id, [tracedResult, judgedResult]);
      expect(await store.getResult(run.id, 't')).toEqual(tracedResult);
      // Results stored without calls read back without them.
      expect((await store.getResult(run.id, 'j'))?.evidence[0]).not.toHaveProperty('calls');
      expect(await store.listResults(run.id)).toEqual([tracedResult, judgedResult]);
      await store.close();
    });

    test('should round-trip results with their evidence exactly', async () => {
      const store = await open();
      const run = await store.createRun({
        spec_name: 'math',
        spec: { a: 1 },
        input: 'in.jsonl',
        output: 'out.jsonl',
      });
      expect(run).toMatchObject({
        status: 'running',
        spec: { a: 1 },
        spec_hash: specHash({ a: 1 }),
        input: 'in.jsonl',
        finished_at: null,
        summary: null,
      });
      expect(run.id).toMatch(/^run-\d{8}-\d{6}-[0-9a-f]{4}$/);
      expect(new Date(run.created_at).toISOString()).toBe(run.created_at);
      const failed = failedResult('line:3', ['in.jsonl:3: invalid JSON', 'second reason']);
      const nullDetail: RewardResult = {
        ...okResult('n', 0.25),
        evidence: [
          {
            source: 'x',
            kind: 'x',
            verdict: 'abstain',
            detail: null,
            veto: true,
            invalid: false,
            elapsed_ms: 0,
          },
        ],
        components: { x: 0.25 },
        warnings: [],
      };
      await store.saveResults(run.id, [okResult('a', 1), okResult('b', 0), failed, nullDetail]);
      expect(await store.getResult(run.id, 'a')).toEqual(okResult('a', 1));
      expect(await store.getResult(run.id, 'line:3')).toEqual(failed);
      expect(await store.getResult(run.id, 'n')).toEqual(nullDetail);
      expect((await store.getResult(run.id, 'n'))?.evidence[0]).toHaveProperty('detail', null);
      expect(await store.getResult(run.id, 'zzz')).toBeUndefined();
      expect((await store.listResults(run.id)).map((r) => r.id)).toEqual(['a', 'b', 'line:3', 'n']);
      expect(await store.listResults(run.id)).toEqual([
        okResult('a', 1),
        okResult('b', 0),
        failed,
        nullDetail,
      ]);
      expect((await store.listResults(run.id, { status: 'failed' })).map((r) => r.id)).toEqual(['line:3']);
      expect((await store.listResults(run.id, { limit: 1, offset: 1 })).map((r) => r.id)).toEqual(['b']);
      expect(await store.completedIds(run.id)).toEqual(new Set(['a', 'b', 'line:3', 'n']));
      expect(await store.listFailures(run.id)).toEqual([
        { sample_id: 'line:3', reasons: ['in.jsonl:3: invalid JSON', 'second reason'] },
      ]);
      expect(await store.sourceStats(run.id)).toEqual([
        { source: 'math', count: 2, mean: 0.5, invalid: 0 },
        { source: 'x', count: 0, mean: null, invalid: 0 },
        { source: 'fmt', count: 0, mean: null, invalid: 2 },
      ]);
      await store.close();
    });

    test('should replace a row saved again, with its evidence and failures, and list it last', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [failedResult('a', ['boom']), okResult('b', 0)]);
      await store.saveResults(run.id, [okResult('a', 1)]);
      expect(await store.getResult(run.id, 'a')).toEqual(okResult('a', 1));
      expect(await store.listFailures(run.id)).toEqual([]);
      expect((await store.listResults(run.id)).map((r) => r.id)).toEqual(['b', 'a']);
      await store.close();
    });

    test('should keep the last of an id saved twice in one batch', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('a', 0), okResult('b', 1), okResult('a', 1)]);
      expect((await store.listResults(run.id)).map((r) => [r.id, r.reward])).toEqual([
        ['b', 1],
        ['a', 1],
      ]);
      expect((await store.getResult(run.id, 'a'))?.evidence).toHaveLength(2);
      await store.close();
    });

    test('should replace many rows saved again in one batch, each listed where its last save puts it', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const ids = (prefix: string, from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
      await store.saveResults(
        run.id,
        ids('r', 0, 20).map((id) => okResult(id, 0)),
      );
      // More than one statement's worth of rows saved again, and an id saved twice in the batch.
      await store.saveResults(run.id, [
        ...ids('r', 0, 10).map((id) => okResult(id, 1)),
        okResult('n0', 1),
        okResult('r12', 1),
        okResult('n0', 0),
        ...ids('n', 1, 7).map((id) => okResult(id, 1)),
      ]);
      expect((await store.listResults(run.id)).map((r) => [r.id, r.reward])).toEqual([
        ...[...ids('r', 10, 12), ...ids('r', 13, 20)].map((id) => [id, 0]),
        ...ids('r', 0, 10).map((id) => [id, 1]),
        ['r12', 1],
        ['n0', 0],
        ...ids('n', 1, 7).map((id) => [id, 1]),
      ]);
      expect((await store.runTotals(run.id)).results).toBe(27);
      await store.close();
    });

    test('should refuse results of a run it does not have', async () => {
      const store = await open();
      await expect(store.saveResults('run-missing', [okResult('a', 1)])).rejects.toThrow();
      await store.close();
    });

    test('should finish runs, list them newest first and find one to resume', async () => {
      const store = await open();
      const first = await store.createRun({
        id: 'run-1',
        spec_name: 's',
        spec: { k: 1 },
        input: 'i',
        output: 'o',
      });
      await store.createRun({ id: 'run-2', spec_name: 's', spec: { k: 2 }, input: 'i', output: 'o' });
      await store.createRun({ id: 'run-3', spec_name: 's', spec: { k: 1 } });
      await store.finishRun(first.id, { rows: 3 }, 'interrupted');
      const finished = await store.getRun('run-1');
      expect(finished).toMatchObject({ status: 'interrupted', summary: { rows: 3 } });
      expect(finished?.finished_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await store.listRuns()).map((r) => r.id)).toEqual(['run-3', 'run-2', 'run-1']);
      expect((await store.listRuns({ limit: 1 })).map((r) => r.id)).toEqual(['run-3']);
      const resumed = await store.findResumableRun({
        spec_hash: specHash({ k: 1 }),
        input: 'i',
        output: 'o',
      });
      expect(resumed).toMatchObject({ id: 'run-1', status: 'running', finished_at: null });
      expect(await store.getRun('run-1')).toMatchObject({ status: 'running', finished_at: null });
      // A missing input or output matches only runs without one.
      expect(await store.findResumableRun({ spec_hash: specHash({ k: 1 }) })).toMatchObject({ id: 'run-3' });
      expect(
        await store.findResumableRun({ spec_hash: specHash({ k: 1 }), output: 'other' }),
      ).toBeUndefined();
      expect(await store.getRun('nope')).toBeUndefined();
      await store.close();
    });

    test('should keep LLM usage with each judgment and total it per source', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [judgedResult, { ...judgedResult, id: 'k' }]);
      expect((await store.getResult(run.id, 'j'))?.evidence[0]?.usage).toEqual(
        judgedResult.evidence[0]?.usage,
      );
      expect(await store.sourceStats(run.id)).toEqual([
        {
          source: 'judge',
          count: 2,
          mean: 1,
          invalid: 0,
          usage: { calls: 4, prompt_tokens: 600, completion_tokens: 80, cache_hits: 2 },
        },
      ]);
      await store.close();
    });

    test('should keep the request id of server results and filter by it', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 'serve', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1)], { requestId: 'req-1' });
      await store.saveResults(run.id, [okResult('b', 0), okResult('c', 1)], { requestId: 'req-2' });
      await store.saveResults(run.id, [okResult('d', 1)]);
      expect((await store.listResults(run.id, { requestId: 'req-2' })).map((r) => r.id)).toEqual(['b', 'c']);
      expect(
        (await store.listResults(run.id, { requestId: 'req-2', limit: 1, offset: 1 })).map((r) => r.id),
      ).toEqual(['c']);
      expect((await store.listResults(run.id)).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
      await store.close();
    });

    test('should keep one request id per result when one save gathers several requests', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 'serve', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1), okResult('b', 0), okResult('c', 1)], {
        requestId: ['req-1', 'req-2', 'req-1'],
      });
      expect((await store.listResults(run.id, { requestId: 'req-1' })).map((r) => r.id)).toEqual(['a', 'c']);
      expect((await store.listResults(run.id, { requestId: 'req-2' })).map((r) => r.id)).toEqual(['b']);
      await store.close();
    });

    test('should keep named state documents, replacing them on write', async () => {
      const store = await open();
      expect(await store.getState('clipo-head/run-1')).toBeUndefined();
      await store.putState('clipo-head/run-1', { version: 1, step: 3, w: [0.5, -1] });
      await store.putState('clipo-head/run-1', { version: 1, step: 4, w: [0.25, -1] });
      await store.putState('null-doc', null);
      expect(await store.getState('clipo-head/run-1')).toEqual({ version: 1, step: 4, w: [0.25, -1] });
      expect(await store.getState('null-doc')).toBeNull();
      await store.close();
    });

    test("should keep a finished run's per-source statistics and aggregate again once a result is saved", async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1), okResult('b', 0.5), judgedResult]);
      const live = await store.sourceStats(run.id);
      const histograms = await store.rewardHistograms(run.id, 4);
      const series = await store.rewardSeries(run.id, 2);
      await store.finishRun(run.id, { rows: 3 });
      // Kept exactly as the aggregation answers, under the run's version.
      expect(await store.getState(`source-stats/${run.id}`)).toEqual({
        version: expect.stringMatching(/^3:\d+$/),
        sources: live,
      });
      expect(await store.sourceStats(run.id)).toEqual(live);
      expect(await store.rewardHistograms(run.id, 4)).toEqual(histograms);
      expect(await store.rewardSeries(run.id, 2)).toEqual(series);
      // A result saved after the finish (a new one, then one saved again in place) is counted.
      await store.saveResults(run.id, [okResult('c', 0)]);
      const math = async () => (await store.sourceStats(run.id)).find((s) => s.source === 'math');
      expect(await math()).toEqual({ source: 'math', count: 3, mean: 0.5, invalid: 0 });
      await store.saveResults(run.id, [okResult('c', 1)]);
      expect(await math()).toEqual({ source: 'math', count: 3, mean: 2.5 / 3, invalid: 0 });
      expect((await store.rewardHistograms(run.id, 4))[0]).toEqual({
        source: null,
        min: 0.5,
        max: 1,
        counts: [1, 0, 0, 3],
      });
      expect(await store.rewardSeries(run.id, 1)).toEqual([
        { before: 0, results: 4, rewarded: 4, mean_reward: 3.5 / 4, min_reward: 0.5, max_reward: 1 },
      ]);
      // An interrupted run keeps none: stopping stays quick.
      const stopped = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(stopped.id, [okResult('a', 1)]);
      await store.finishRun(stopped.id, { rows: 1 }, 'interrupted');
      expect(await store.getState(`source-stats/${stopped.id}`)).toBeUndefined();
      expect(await store.sourceStats(stopped.id)).toHaveLength(2);
      await store.close();
    });

    test('should keep the per-source statistics a caller tallied while saving every row, which the aggregation agrees with', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const unscored: RewardResult = {
        ...okResult('u', 0),
        components: { fmt: null, math: null, aaa: null },
        evidence: [
          { source: 'zzz', kind: 'regex', verdict: 'fail', veto: false, invalid: false, elapsed_ms: 0 },
          {
            source: 'aaa',
            kind: 'regex',
            score: 0.25,
            verdict: 'fail',
            veto: false,
            invalid: false,
            elapsed_ms: 0,
          },
          ...(okResult('u', 0).evidence as Evidence[]),
        ],
      };
      const results = [
        okResult('a', 1),
        unscored,
        judgedResult,
        failedResult('f', ['bad row']),
        okResult('b', 0.5),
      ];
      const tally = createSourceStatsTally();
      for (const result of results) tally.add(result.evidence);
      await store.saveResults(run.id, results);
      const live = await store.sourceStats(run.id);
      expect(tally.stats()).toEqual(live);
      await store.finishRun(run.id, { rows: results.length }, 'finished', tally.stats());
      expect(await store.getState(`source-stats/${run.id}`)).toEqual({
        version: expect.stringMatching(/^5:\d+$/),
        sources: live,
      });
      await store.close();
    });

    test('should keep cached responses until they expire or grow too old', async () => {
      const store = await open();
      await store.putCachedResponse('a', '{"content":  "first"}', 1000, 5000);
      expect(await store.getCachedResponse('a', 4999)).toBe('{"content":  "first"}');
      expect(await store.getCachedResponse('a', 5000)).toBeUndefined();
      await store.putCachedResponse('a', 'second', 6000, null);
      expect(await store.getCachedResponse('a', 10 ** 12)).toBe('second');
      expect(await store.getCachedResponse('a', 7000, 1001)).toBe('second');
      expect(await store.getCachedResponse('a', 7000, 1000)).toBeUndefined();
      expect(await store.getCachedResponse('missing', 0)).toBeUndefined();
      await store.close();
    });

    test('should keep text with NUL and private-use characters exactly', async () => {
      const store = await open();
      const odd = 'a\0b \uE000 \\u0000 \uE0000';
      const run = await store.createRun({
        id: `run-${odd}`,
        spec_name: odd,
        spec: { [odd]: odd },
        input: odd,
      });
      const result: RewardResult = {
        ...failedResult(`id-${odd}`, [`reason ${odd}`], { data_source: odd, group: odd, warnings: [odd] }),
        evidence: [
          {
            source: odd,
            kind: odd,
            verdict: 'error',
            detail: { [odd]: [odd] },
            veto: false,
            invalid: true,
            reason: odd,
            elapsed_ms: 1,
          },
        ],
      };
      await store.saveResults(run.id, [result], { requestId: odd });
      expect(await store.getResult(run.id, result.id)).toEqual(result);
      expect(await store.listResults(run.id, { requestId: odd })).toEqual([result]);
      expect(await store.listFailures(run.id)).toEqual([
        { sample_id: result.id, reasons: [`reason ${odd}`] },
      ]);
      expect(await store.completedIds(run.id)).toEqual(new Set([result.id]));
      expect(await store.sourceStats(run.id)).toEqual([{ source: odd, count: 0, mean: null, invalid: 1 }]);
      expect(await store.findResumableRun({ spec_hash: run.spec_hash, input: odd })).toMatchObject({
        id: run.id,
        spec_name: odd,
        spec: { [odd]: odd },
      });
      await store.putState(odd, { [odd]: odd });
      expect(await store.getState(odd)).toEqual({ [odd]: odd });
      await store.putCachedResponse(odd, JSON.stringify({ content: odd }), 0, null);
      expect(await store.getCachedResponse(odd, 1)).toBe(JSON.stringify({ content: odd }));
      await store.close();
    });

    test('should save many results in batches', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      for (let b = 0; b < 40; b++) {
        await store.saveResults(
          run.id,
          Array.from({ length: 250 }, (_, i) => okResult(`r${b * 250 + i}`, i % 2)),
        );
      }
      expect((await store.completedIds(run.id)).size).toBe(10_000);
      expect((await store.sourceStats(run.id))[0]).toMatchObject({ count: 10_000, mean: 0.5 });
      expect((await store.listResults(run.id, { offset: 9_998 })).map((r) => r.id)).toEqual([
        'r9998',
        'r9999',
      ]);
      await store.close();
    });

    test('should keep the sample text with a result and read it back', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const chat = [{ role: 'user' as const, content: 'What is 2+2?\0' }];
      await store.saveResults(run.id, [okResult('a', 1), okResult('b', 0), okResult('c', 0)], {
        samples: [{ prompt: chat, response: '<script>x</script> 4' }, { response: '' }, undefined],
      });
      expect(await store.getSampleText(run.id, 'a')).toEqual({
        prompt: chat,
        response: '<script>x</script> 4',
      });
      expect(await store.getSampleText(run.id, 'b')).toEqual({ response: '' });
      expect(await store.getSampleText(run.id, 'c')).toBeUndefined();
      expect(await store.getSampleText(run.id, 'zzz')).toBeUndefined();
      expect(await store.getResult(run.id, 'a')).toEqual(okResult('a', 1));
      await store.close();
    });

    test('should keep the reference a sample was judged against, one or several, and replace it on a save again', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1), okResult('b', 0), okResult('c', 0)], {
        samples: [
          { prompt: 'Q', response: '4', reference: '<script>alert(1)</script>\0 4' },
          { response: 'x', reference: ['3', 'three'] },
          { response: 'y' },
        ],
      });
      expect(await store.getSampleText(run.id, 'a')).toEqual({
        prompt: 'Q',
        response: '4',
        reference: '<script>alert(1)</script>\0 4',
      });
      expect(await store.getSampleText(run.id, 'b')).toEqual({ response: 'x', reference: ['3', 'three'] });
      expect(await store.getSampleText(run.id, 'c')).toEqual({ response: 'y' });
      await store.saveResults(run.id, [okResult('a', 0)], { samples: [{ response: '5' }] });
      expect(await store.getSampleText(run.id, 'a')).toEqual({ response: '5' });
      await store.close();
    });

    test('should page, filter and sort a run sample rows in the database', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const other = await store.createRun({ spec_name: 's', spec: {} });
      const rows = [
        okResult('r1', 0.5),
        { ...okResult('r2', 1), data_source: 'math' },
        failedResult('r3', ['in.jsonl:3: invalid 100%_JSON']),
        { ...okResult('r4', 0), components: { judge: 0 } },
        okResult('r10', 0.25),
      ];
      await store.saveResults(run.id, rows, {
        samples: [
          { response: `${'x'.repeat(300)} long` },
          { response: 'The answer is FOUR' },
          undefined,
          { response: 'zero' },
          { response: 'quarter' },
        ],
      });
      await store.saveResults(other.id, [okResult('r1', 1)]);
      const ids = async (query: Partial<SampleQuery>) =>
        (await store.querySamples(run.id, { limit: 50, offset: 0, ...query })).rows.map((r) => r.sample_id);
      const page = await store.querySamples(run.id, { limit: 2, offset: 1 });
      expect(page.total).toBe(5);
      expect(page.rows.map((r) => r.sample_id)).toEqual(['r2', 'r3']);
      expect(page.rows[0]).toEqual({
        sample_id: 'r2',
        status: 'ok',
        reward: 1,
        components: { math: 1, fmt: null },
        data_source: 'math',
        group: 'g1',
        total_ms: 1.25,
        errors: 0,
        first_error: null,
        warnings: 1,
        response_preview: 'The answer is FOUR',
        response_chars: 18,
      });
      expect(page.rows[1]).toMatchObject({
        status: 'failed',
        reward: null,
        errors: 1,
        first_error: 'in.jsonl:3: invalid 100%_JSON',
        response_preview: null,
      });
      const first = (await store.querySamples(run.id, { limit: 1, offset: 0 })).rows[0];
      expect(first?.response_preview).toHaveLength(RESPONSE_PREVIEW_CHARS);
      expect(first?.response_chars).toBe(305);
      expect(await ids({ sort: 'reward', order: 'desc' })).toEqual(['r2', 'r1', 'r10', 'r4', 'r3']);
      expect(await ids({ sort: 'reward', order: 'asc' })).toEqual(['r4', 'r10', 'r1', 'r2', 'r3']);
      expect(await ids({ sort: 'sample_id', order: 'desc' })).toEqual(['r4', 'r3', 'r2', 'r10', 'r1']);
      expect(await ids({ status: 'failed' })).toEqual(['r3']);
      expect(await ids({ source: 'judge' })).toEqual(['r4']);
      expect(await ids({ source: 'fmt' })).toEqual([]);
      expect(await ids({ dataSource: 'math' })).toEqual(['r2']);
      // Any part of the name, in any case; LIKE's wildcards taken literally.
      expect(await ids({ dataSource: 'AT' })).toEqual(['r2']);
      expect(await ids({ dataSource: '%' })).toEqual([]);
      expect(await store.dataSources(run.id)).toEqual(['gsm8k', 'math']);
      expect(await store.dataSources('run-none')).toEqual([]);
      expect(await ids({ minReward: 0.25, maxReward: 0.5 })).toEqual(['r1', 'r10']);
      expect(await ids({ text: 'four' })).toEqual(['r2']);
      expect(await ids({ text: '100%_json' })).toEqual(['r3']);
      expect(await ids({ text: '%' })).toEqual(['r3']);
      expect(await ids({ text: 'r1' })).toEqual(['r1', 'r10']);
      const filtered = await store.querySamples(run.id, { limit: 1, offset: 0, minReward: 0.2 });
      expect([filtered.total, filtered.rows.length]).toEqual([3, 1]);
      expect(await store.runTotals(run.id)).toEqual({ results: 5, failed: 1, mean_reward: 0.4375 });
      expect(await store.runTotals('run-none')).toEqual({ results: 0, failed: 0, mean_reward: null });
      await store.close();
    });

    test('should page every sort across ties and unrewarded rows, and stream the same rows by key', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      // Three rewards (many ties), a failure every 7th, two data sources, ties of total_ms too.
      const saved = Array.from({ length: 30 }, (_, i) => {
        const id = `s${String(i).padStart(2, '0')}`;
        const base = i % 7 === 0 ? failedResult(id, ['boom']) : okResult(id, [0, 0.5, 1][i % 3] as number);
        return {
          ...base,
          data_source: i % 2 === 0 ? 'math' : 'code',
          timings: { total_ms: (i * 7) % 5 },
        };
      });
      await store.saveResults(run.id, saved);
      // The order the API promises: the sort key, ties (and every unrewarded row, last) in save order.
      const expected = (query: SampleFilter) => {
        const sign = query.order === 'desc' ? -1 : 1;
        const key = (r: RewardResult): number | string | null =>
          query.sort === 'reward'
            ? r.reward
            : query.sort === 'sample_id'
              ? r.id
              : query.sort === 'total_ms'
                ? (r.timings?.total_ms ?? 0)
                : null;
        return saved
          .map((r, i) => ({ r, i }))
          .filter(
            ({ r }) =>
              (query.dataSource === undefined || (r.data_source ?? '').includes(query.dataSource)) &&
              (query.minReward === undefined || (r.reward !== null && r.reward >= query.minReward)),
          )
          .sort((x, y) => {
            const [kx, ky] = [key(x.r), key(y.r)];
            if (kx === null || ky === null) {
              if (kx !== ky) return kx === null ? 1 : -1;
              return query.sort === undefined || query.sort === 'position' ? sign * (x.i - y.i) : x.i - y.i;
            }
            return kx < ky ? -sign : kx > ky ? sign : x.i - y.i;
          })
          .map(({ r }) => r.id);
      };
      for (const sort of ['position', 'reward', 'sample_id', 'total_ms'] as const)
        for (const order of ['asc', 'desc'] as const)
          for (const filter of [{}, { dataSource: 'at' }, { minReward: 0.5 }]) {
            const query = { ...filter, sort, order };
            const want = expected(query);
            const paged: string[] = [];
            for (let offset = 0; offset < 36; offset += 4) {
              const page = await store.querySamples(run.id, { ...query, limit: 4, offset });
              expect(page.total, JSON.stringify(query)).toBe(want.length);
              paged.push(...page.rows.map((r) => r.sample_id));
            }
            expect(paged, JSON.stringify(query)).toEqual(want);
            const streamed: string[] = [];
            for await (const rows of store.streamSamples(run.id, query, 4))
              streamed.push(...rows.map((r) => r.sample_id));
            expect(streamed, JSON.stringify(query)).toEqual(want);
          }
      await store.close();
    });

    test('should count a filtered page again once the run changes', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [okResult('a', 1), { ...okResult('b', 0), data_source: 'math' }]);
      const page = (query: Partial<SampleQuery>) =>
        store.querySamples(run.id, { limit: 10, offset: 0, ...query });
      expect((await page({ dataSource: 'math' })).total).toBe(1);
      expect((await page({ minReward: 0.5 })).total).toBe(1);
      expect((await store.runTotals(run.id)).results).toBe(2);
      // A new row, and a row saved again (it moves last, as the save order lists it).
      await store.saveResults(run.id, [{ ...okResult('c', 1), data_source: 'math' }, okResult('a', 0.75)]);
      const math = await page({ dataSource: 'math' });
      expect([math.total, math.rows.map((r) => r.sample_id)]).toEqual([2, ['b', 'c']]);
      expect((await page({ minReward: 0.5 })).rows.map((r) => r.sample_id)).toEqual(['c', 'a']);
      expect((await page({})).rows.map((r) => r.sample_id)).toEqual(['b', 'c', 'a']);
      expect(await store.runTotals(run.id)).toEqual({
        results: 3,
        failed: 0,
        mean_reward: 0.5833333333333334,
      });
      await store.close();
    });

    test('should break a run down by data source, most results first, the unnamed ones as null', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const other = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [
        okResult('r1', 0.5),
        { ...okResult('r2', 1), data_source: 'math' },
        failedResult('r3', ['boom']),
        okResult('r4', 0),
        failedResult('r5', ['boom'], { data_source: 'gsm8k' }),
        okResult('r6', 0.25),
        { ...okResult('r7', 0), data_source: 'code' },
      ]);
      await store.saveResults(other.id, [{ ...okResult('o1', 1), data_source: 'other' }]);
      expect(await store.dataSourceBreakdown(run.id)).toEqual({
        data_sources: [
          { data_source: 'gsm8k', results: 4, failed: 1, failure_rate: 0.25, mean_reward: 0.25 },
          { data_source: 'code', results: 1, failed: 0, failure_rate: 0, mean_reward: 0 },
          { data_source: 'math', results: 1, failed: 0, failure_rate: 0, mean_reward: 1 },
          { data_source: null, results: 1, failed: 1, failure_rate: 1, mean_reward: null },
        ],
        truncated: false,
      });
      // Asked again after more rows: the memo follows the run's version.
      await store.saveResults(run.id, [{ ...okResult('r8', 1), data_source: 'math' }]);
      expect((await store.dataSourceBreakdown(run.id)).data_sources[1]).toEqual({
        data_source: 'math',
        results: 2,
        failed: 0,
        failure_rate: 0,
        mean_reward: 1,
      });
      expect(await store.dataSourceBreakdown('run-none')).toEqual({ data_sources: [], truncated: false });
      await store.close();
    });

    test('should list at most DATA_SOURCE_CHOICES data sources and say there are more', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const rows = Array.from({ length: DATA_SOURCE_CHOICES + 1 }, (_, i) => ({
        ...okResult(`s${i}`, 1),
        data_source: `d${String(i).padStart(4, '0')}`,
      }));
      await store.saveResults(run.id, [...rows, { ...okResult('extra', 0), data_source: 'd0200' }]);
      const breakdown = await store.dataSourceBreakdown(run.id);
      expect(breakdown.truncated).toBe(true);
      expect(breakdown.data_sources).toHaveLength(DATA_SOURCE_CHOICES);
      expect(breakdown.data_sources[0]).toMatchObject({ data_source: 'd0200', results: 2, mean_reward: 0.5 });
      expect(breakdown.data_sources[1]?.data_source).toBe('d0000');
      await store.close();
    });

    test('should compare two runs, largest reward change first', async () => {
      const store = await open();
      const a = await store.createRun({ spec_name: 's', spec: {} });
      const b = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(a.id, [
        okResult('same', 1),
        okResult('up', 0),
        okResult('bit', 0.5),
        okResult('gone', 1),
        okResult('only-a', 1),
      ]);
      await store.saveResults(b.id, [
        okResult('same', 1),
        okResult('up', 1),
        okResult('bit', 0.75),
        failedResult('gone', ['boom']),
        okResult('only-b', 0),
      ]);
      const comparison = await store.compareRuns(a.id, b.id, { limit: 10, offset: 0 });
      expect(comparison).toMatchObject({
        common: 4,
        only_a: 1,
        only_b: 1,
        changed: 3,
        improved: 2,
        regressed: 0,
        status_changed: 1,
      });
      expect(comparison.rows.map((r) => r.sample_id)).toEqual(['gone', 'up', 'bit']);
      expect(comparison.rows[1]).toEqual({
        sample_id: 'up',
        a: { status: 'ok', reward: 0, components: { math: 0, fmt: null }, excerpt: null },
        b: { status: 'ok', reward: 1, components: { math: 1, fmt: null }, excerpt: null },
      });
      expect(
        (await store.compareRuns(a.id, b.id, { limit: 1, offset: 2 })).rows.map((r) => r.sample_id),
      ).toEqual(['bit']);
      await store.close();
    });

    test('should filter a comparison by the direction of the change and carry each response excerpt', async () => {
      const store = await open();
      const a = await store.createRun({ spec_name: 's', spec: {} });
      const b = await store.createRun({ spec_name: 's', spec: {} });
      const long = `${'word '.repeat(40)}tail`;
      await store.saveResults(a.id, [okResult('up', 0), okResult('down', 1), okResult('broke', 0.5)], {
        samples: [{ response: 'x = 3' }, { response: long }, undefined],
      });
      await store.saveResults(
        b.id,
        [okResult('up', 1), okResult('down', 0.25), failedResult('broke', ['timeout'])],
        { samples: [{ response: 'x = 4' }, { response: 'short' }, undefined] },
      );
      const ids = async (filter: 'changed' | 'improved' | 'regressed' | 'status') =>
        (await store.compareRuns(a.id, b.id, { limit: 10, offset: 0, filter })).rows.map((r) => r.sample_id);
      expect(await ids('changed')).toEqual(['broke', 'up', 'down']);
      expect(await ids('improved')).toEqual(['up']);
      expect(await ids('regressed')).toEqual(['down']);
      expect(await ids('status')).toEqual(['broke']);
      const comparison = await store.compareRuns(a.id, b.id, { limit: 10, offset: 0 });
      expect(comparison).toMatchObject({ changed: 3, improved: 1, regressed: 1, status_changed: 1 });
      const down = comparison.rows.find((r) => r.sample_id === 'down');
      expect(down?.a.excerpt).toBe(long.slice(0, 160));
      expect(down?.b.excerpt).toBe('short');
      expect(comparison.rows.find((r) => r.sample_id === 'broke')?.a.excerpt).toBeNull();
      const none = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(none.id, [okResult('other', 1)]);
      expect(await store.compareRuns(a.id, none.id, { limit: 10, offset: 0 })).toEqual({
        common: 0,
        only_a: 3,
        only_b: 1,
        changed: 0,
        improved: 0,
        regressed: 0,
        status_changed: 0,
        rows: [],
      });
      await store.close();
    });

    test('should page each comparison filter and count it again once either run changes', async () => {
      const store = await open();
      const a = await store.createRun({ spec_name: 's', spec: {} });
      const b = await store.createRun({ spec_name: 's', spec: {} });
      const ids = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);
      await store.saveResults(
        a.id,
        ids.map((id) => okResult(id, 0.5)),
      );
      // Up by i/20 for even i, down for odd i but every 4th, which fails.
      await store.saveResults(
        b.id,
        ids.map((id, i) =>
          i % 4 === 3 ? failedResult(id, ['boom']) : okResult(id, 0.5 + (i % 2 === 0 ? i : -i) / 40),
        ),
      );
      const page = async (filter: 'changed' | 'improved' | 'regressed' | 'status', offset: number) =>
        (await store.compareRuns(a.id, b.id, { limit: 2, offset, filter })).rows.map((r) => r.sample_id);
      expect([
        ...(await page('changed', 0)),
        ...(await page('changed', 2)),
        ...(await page('changed', 4)),
      ]).toEqual(['c03', 'c07', 'c11', 'c10', 'c09', 'c08']);
      expect([...(await page('improved', 0)), ...(await page('improved', 2))]).toEqual([
        'c10',
        'c08',
        'c06',
        'c04',
      ]);
      expect(await page('regressed', 1)).toEqual(['c05', 'c01']);
      expect(await page('status', 2)).toEqual(['c11']);
      const before = await store.compareRuns(a.id, b.id, { limit: 0, offset: 0 });
      expect(before).toMatchObject({ common: 12, changed: 11, improved: 5, regressed: 3, status_changed: 3 });
      await store.saveResults(b.id, [okResult('c03', 1), okResult('new', 1)]);
      expect(await store.compareRuns(a.id, b.id, { limit: 1, offset: 0, filter: 'improved' })).toMatchObject({
        common: 12,
        only_b: 1,
        changed: 11,
        improved: 6,
        status_changed: 2,
        rows: [{ sample_id: 'c03', b: { reward: 1 } }],
      });
      await store.saveResults(a.id, [okResult('c03', 1)]);
      expect(await store.compareRuns(a.id, b.id, { limit: 10, offset: 0, filter: 'improved' })).toMatchObject(
        {
          changed: 10,
          improved: 5,
        },
      );
      await store.close();
    });

    test('should bin the reward and every source component of a run', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [
        okResult('a', 0),
        okResult('b', 0.5),
        okResult('c', 1),
        okResult('d', 1),
        failedResult('e', ['x']),
      ]);
      expect(await store.rewardHistograms(run.id, 4)).toEqual([
        { source: null, min: 0, max: 1, counts: [1, 0, 1, 2] },
        { source: 'math', min: 0, max: 1, counts: [1, 0, 1, 2] },
      ]);
      const empty = await store.createRun({ spec_name: 's', spec: {} });
      expect(await store.rewardHistograms(empty.id, 4)).toEqual([]);
      await store.close();
    });

    test('should give the reward over a run in saved order, in buckets of consecutive results', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(run.id, [
        okResult('a', 0),
        okResult('b', 1),
        okResult('c', 0.5),
        okResult('d', 0.5),
        failedResult('e', ['x']),
        okResult('f', 1),
        okResult('g', 1),
        okResult('h', 1),
      ]);
      expect(await store.rewardSeries(run.id, 4)).toEqual([
        { before: 0, results: 2, rewarded: 2, mean_reward: 0.5, min_reward: 0, max_reward: 1 },
        { before: 2, results: 2, rewarded: 2, mean_reward: 0.5, min_reward: 0.5, max_reward: 0.5 },
        { before: 4, results: 2, rewarded: 1, mean_reward: 1, min_reward: 1, max_reward: 1 },
        { before: 6, results: 2, rewarded: 2, mean_reward: 1, min_reward: 1, max_reward: 1 },
      ]);
      expect(await store.rewardSeries(run.id, 1)).toEqual([
        { before: 0, results: 8, rewarded: 7, mean_reward: 5 / 7, min_reward: 0, max_reward: 1 },
      ]);
      // Another run saving in between: its saves are gaps in this run's span, never its buckets.
      const other = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(other.id, [okResult('x', 0), okResult('y', 0)]);
      await store.saveResults(run.id, [okResult('i', 0), okResult('j', 0)]);
      const series = await store.rewardSeries(run.id, 5);
      expect(series.length).toBeLessThanOrEqual(5);
      expect(series.reduce((n, b) => n + b.results, 0)).toBe(10);
      expect(series.at(-1)).toMatchObject({ before: 10 - (series.at(-1)?.results ?? 0), mean_reward: 0 });
      expect(await store.rewardSeries(other.id, 3)).toEqual([
        { before: 0, results: 1, rewarded: 1, mean_reward: 0, min_reward: 0, max_reward: 0 },
        { before: 1, results: 1, rewarded: 1, mean_reward: 0, min_reward: 0, max_reward: 0 },
      ]);
      const empty = await store.createRun({ spec_name: 's', spec: {} });
      expect(await store.rewardSeries(empty.id, 4)).toEqual([]);
      await store.close();
    });

    test('should sum judge usage over a run in the reward series buckets, with their save times', async () => {
      const store = await open();
      const run = await store.createRun({ spec_name: 's', spec: {} });
      const judged = (id: string) => ({ ...judgedResult, id });
      await store.saveResults(run.id, [judged('j1'), okResult('a', 1)]);
      await store.saveResults(run.id, [judged('j2'), judged('j3')]);
      const series = await store.costSeries(run.id, 2);
      // Each result counted once, however many pieces of evidence it has.
      expect(series.map(({ first_saved_at, last_saved_at, ...usage }) => usage)).toEqual([
        {
          before: 0,
          results: 2,
          calls: 2,
          prompt_tokens: 300,
          completion_tokens: 40,
          cache_hits: 1,
          first_call_at: null,
          last_call_at: null,
        },
        {
          before: 2,
          results: 2,
          calls: 4,
          prompt_tokens: 600,
          completion_tokens: 80,
          cache_hits: 2,
          first_call_at: null,
          last_call_at: null,
        },
      ]);
      for (const bucket of series) {
        expect(Date.parse(bucket.first_saved_at)).toBeLessThanOrEqual(Date.parse(bucket.last_saved_at));
      }
      expect(
        (series[0] as { last_saved_at: string }).last_saved_at <=
          (series[1] as { first_saved_at: string }).first_saved_at,
      ).toBe(true);
      const plain = await store.createRun({ spec_name: 's', spec: {} });
      await store.saveResults(plain.id, [okResult('a', 1)]);
      expect((await store.costSeries(plain.id, 4)).map((b) => b.calls)).toEqual([0]);
      // Results saved together, whose calls recorded when they were answered: the span per bucket.
      const timed = await store.createRun({ spec_name: 's', spec: {} });
      const calledAt = (id: string, first: string, last: string) => {
        const [evidence] = judgedResult.evidence;
        return {
          ...judgedResult,
          id,
          evidence: [
            { ...evidence, usage: { ...evidence?.usage, first_call_at: first, last_call_at: last } },
          ],
        } as typeof judgedResult;
      };
      await store.saveResults(timed.id, [
        calledAt('t1', '2026-11-27T10:00:03.000Z', '2026-11-27T10:00:04.000Z'),
        calledAt('t2', '2026-11-27T10:00:01.000Z', '2026-11-27T10:00:02.500Z'),
        calledAt('t3', '2026-11-27T10:00:07.000Z', '2026-11-27T10:00:09.000Z'),
      ]);
      expect((await store.costSeries(timed.id, 2)).map((b) => [b.first_call_at, b.last_call_at])).toEqual([
        ['2026-11-27T10:00:01.000Z', '2026-11-27T10:00:04.000Z'],
        ['2026-11-27T10:00:07.000Z', '2026-11-27T10:00:09.000Z'],
      ]);
      await store.close();
    });
  });
}

/**
 * A store opened afresh on `writer`'s data reads a finished run's per-source statistics from the
 * document kept at the finish while the run's version matches it, and aggregates the results when
 * it does not. (A marked document shows which was read.)
 */
export async function expectKeptSourceStatsRead(
  writer: Store,
  openReader: () => Promise<Store>,
): Promise<void> {
  const run = await writer.createRun({ spec_name: 's', spec: {} });
  await writer.saveResults(run.id, [okResult('a', 1), judgedResult]);
  await writer.finishRun(run.id, { rows: 2 });
  const key = `source-stats/${run.id}`;
  const kept = (await writer.getState(key)) as { version: string; sources: unknown[] };
  const marked = [{ source: 'read from the document', count: 1, mean: 1, invalid: 0 }];
  await writer.putState(key, { ...kept, sources: marked });
  const reader = await openReader();
  expect(await reader.sourceStats(run.id)).toEqual(marked);
  await reader.close();
  await writer.putState(key, { version: '1:1', sources: marked });
  const again = await openReader();
  expect(await again.sourceStats(run.id)).toEqual(kept.sources);
  await again.close();
}

/**
 * The run lease: a run whose process stopped renewing its heartbeat (its store closed without
 * finishing the run, as a killed process's never finishes it) is closed as interrupted, with the
 * counts of what was stored, by the next store that looks; a run whose owner still renews is left
 * running, and so is a finished one. `open` opens the same data each time, with this lease.
 */
export async function expectAbandonedRunsClosed(open: (leaseMs: number) => Promise<Store>): Promise<void> {
  // Long enough that an idle event loop renews well within it (four beats per lease).
  const leaseMs = 1000;
  const dead = await open(leaseMs);
  const abandoned = await dead.createRun({ spec_name: 'serve:math', spec: {}, input: 'http' });
  await dead.saveResults(abandoned.id, [okResult('a', 1), okResult('b', 0), failedResult('c', ['boom'])]);
  const done = await dead.createRun({ spec_name: 'done', spec: {} });
  await dead.finishRun(done.id, { rows: 0 });
  // Its heartbeats stop, as a SIGKILL stops them.
  await dead.close();
  const live = await open(leaseMs);
  const owned = await live.createRun({ spec_name: 'live', spec: {} });
  await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));

  const looking = await open(leaseMs);
  const closed = await looking.getRun(abandoned.id);
  expect(closed).toMatchObject({
    status: 'interrupted',
    summary: { rows: 3, scored: 2, failed: 1, mean_reward: 0.5 },
  });
  expect(closed?.finished_at).not.toBeNull();
  expect(closed?.summary).toMatchObject({
    interrupted: expect.stringMatching(/stopped renewing the run's lease/),
  });
  expect(await looking.getRun(owned.id)).toMatchObject({ status: 'running', summary: null });
  expect(await looking.getRun(done.id)).toMatchObject({ status: 'finished', summary: { rows: 0 } });
  expect(await looking.closeStaleRuns()).toEqual([]);
  await looking.close();

  await live.close();

  // An owner cut off for longer than another store's lease finds its run closed, and takes it back
  // at its next beat (a quarter of its own lease, 0.5 s, after it opened).
  const slow = await open(2000);
  const cutOff = await slow.createRun({ spec_name: 'cut off', spec: {} });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const impatient = await open(1);
  await impatient.closeStaleRuns();
  expect(await impatient.getRun(cutOff.id)).toMatchObject({ status: 'interrupted', summary: { rows: 0 } });
  await impatient.close();
  for (let i = 0; i < 100 && (await slow.getRun(cutOff.id))?.status !== 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await slow.getRun(cutOff.id)).toMatchObject({ status: 'running', finished_at: null, summary: null });
  await slow.close();
}
