import { afterAll, describe, expect, test } from 'vitest';
import { type Evidence, failedResult, type JudgeCall, type RewardResult } from '../core/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../store/index.js';
import { startTestPostgres } from '../store/test-utils/start-test-postgres.js';
import { judgedResult, okResult, tracedResult } from '../store/test-utils/store-conformance.js';
import { createViewApp } from './create-view-app.js';
import { CALL_TEXT_CHARS } from './judge-call-preview.js';
import { CRITERIA_PAGE_ROWS } from './run-criteria.js';
import { DETAIL_TEXT_CHARS } from './sample-detail.js';

const postgres = await startTestPostgres();
afterAll(() => postgres.stop());

/** Two finished runs of one spec (b re-scores a's samples) and a judge run still going. */
async function filledStore(store: Store) {
  const a = await store.createRun({ id: 'run-a', spec_name: 'math', spec: { v: 1 }, input: 'in.jsonl' });
  await store.saveResults(
    'run-a',
    [
      okResult('s1', 1),
      okResult('s2', 0),
      failedResult('s3', ['in.jsonl:3: invalid JSON']),
      okResult('s4', 0.5),
    ],
    {
      samples: [
        {
          prompt: 'What is 2+2?',
          response: 'It is <script>window.__pwned = 1</script> 4',
          reference: '<b>4</b>',
        },
        {
          prompt: [{ role: 'user', content: 'Say five' }],
          response: 'x'.repeat(DETAIL_TEXT_CHARS + 5),
          reference: ['5', 'y'.repeat(DETAIL_TEXT_CHARS)],
        },
        undefined,
        { response: 'half' },
      ],
    },
  );
  await store.finishRun(a.id, { rows: 4, failed: 1, mean_reward: 0.5, sources: [] });
  await store.createRun({ id: 'run-b', spec_name: 'math', spec: { v: 2 } });
  await store.saveResults('run-b', [
    okResult('s1', 1),
    okResult('s2', 1),
    okResult('s3', 0),
    okResult('s5', 1),
  ]);
  await store.finishRun('run-b', { rows: 4, failed: 0, mean_reward: 0.75, sources: [] });
  await store.createRun({ id: 'run-j', spec_name: 'judge', spec: {} });
  await store.saveResults('run-j', [judgedResult]);
  await store.createRun({ id: 'run-t', spec_name: 'judge', spec: {} });
  await store.saveResults('run-t', [tracedResult, hugeCallResult, legacyResult]);
  return store;
}

const traced = tracedResult.evidence[0] as Evidence;
const firstCall = traced.calls?.[0] as JudgeCall;
/** A judge call of a response far over the inline limit: its message, raw output and parse. */
const hugeCallResult: RewardResult = {
  ...tracedResult,
  id: 'huge',
  evidence: [
    {
      ...traced,
      calls: [
        {
          ...firstCall,
          messages: [{ role: 'user', content: `judge: ${'y'.repeat(CALL_TEXT_CHARS)}` }],
          raw: 'r'.repeat(CALL_TEXT_CHARS + 10),
          parsed: { critique: 'c'.repeat(CALL_TEXT_CHARS) },
        },
      ],
    },
  ],
};
/** A result stored before Evidence.calls: a pairwise judgment with its traces in its detail. */
const legacyResult: RewardResult = {
  ...judgedResult,
  id: 'legacy',
  evidence: [
    {
      ...(judgedResult.evidence[0] as Evidence),
      detail: {
        verdict: 'first',
        calls: [
          {
            role: 'genrm_scores',
            messages: [{ role: 'user', content: 'Response 1: OLD' }],
            raw: '{"score_1": 9, "score_2": 1}',
            finishReason: 'stop',
            latencyMs: 5,
            promptTokens: 10,
            retries: 0,
            cached: false,
          },
        ],
      },
    },
  ],
};

function runViewApiTests(open: () => Promise<Store>) {
  const get = async (path: string) => {
    const store = await filledStore(await open());
    const res = await createViewApp({ store, assetsDir: '/nonexistent' }).request(`http://localhost${path}`);
    const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
    await store.close();
    // biome-ignore lint/suspicious/noExplicitAny: the tests read answers' JSON loosely, field by field
    return { status: res.status, body: body as any, headers: res.headers };
  };

  test('should list runs with counts, mean reward, failures, cost and duration', async () => {
    const { status, body } = await get('/api/runs');
    expect(status).toBe(200);
    expect(body.runs.map((r: { id: string }) => r.id).sort()).toEqual(['run-a', 'run-b', 'run-j', 'run-t']);
    const a = body.runs.find((r: { id: string }) => r.id === 'run-a');
    expect(a).toMatchObject({
      spec_name: 'math',
      status: 'finished',
      results: 4,
      failed: 1,
      mean_reward: 0.5,
    });
    expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    expect(a.cost).toBeUndefined();
    const j = body.runs.find((r: { id: string }) => r.id === 'run-j');
    expect(j).toMatchObject({ status: 'running', results: 1 });
    expect(j.cost).toEqual({ calls: 2, prompt_tokens: 300, completion_tokens: 40, cache_hits: 1 });
  });

  test('should show one run with its spec, summary and per-source statistics', async () => {
    const { body } = await get('/api/runs/run-a');
    expect(body.spec).toEqual({ v: 1 });
    expect(body.run).toMatchObject({ id: 'run-a', results: 4 });
    expect(body.sources.map((s: { source: string }) => s.source)).toEqual(['math', 'fmt']);
    const missing = await get('/api/runs/run-none');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'run_not_found',
      message: 'No run run-none in this store',
    });
  });

  test("should list a run's data sources, for the data-source filter's choices", async () => {
    expect((await get('/api/runs/run-a/data-sources')).body).toEqual({ data_sources: ['gsm8k'] });
    expect((await get('/api/runs/run-none/data-sources')).status).toBe(404);
  });

  test('should break a run down by data source', async () => {
    expect((await get('/api/runs/run-a/by-source')).body).toEqual({
      data_sources: [
        { data_source: 'gsm8k', results: 3, failed: 0, failure_rate: 0, mean_reward: 0.5 },
        { data_source: null, results: 1, failed: 1, failure_rate: 1, mean_reward: null },
      ],
      truncated: false,
    });
    expect((await get('/api/runs/run-none/by-source')).status).toBe(404);
  });

  test("should give a run's pass rate per rubric criterion over every page of its results", async () => {
    const store = await open();
    const app = createViewApp({ store, assetsDir: '/nonexistent' });
    await store.createRun({ id: 'run-r', spec_name: 'rubric', spec: {} });
    // One more result than a page: the last one, on a page of its own, must be counted too.
    const graded = (i: number): RewardResult => ({
      ...okResult(`s${i}`, 1),
      evidence: [
        {
          source: 'rubric',
          kind: 'rubric',
          score: 1,
          verdict: 'pass',
          veto: false,
          invalid: false,
          elapsed_ms: 1,
          detail: { criteria: [{ name: 'cites', value: i === CRITERIA_PAGE_ROWS ? 0 : 1 }] },
        },
      ],
    });
    await store.saveResults(
      'run-r',
      Array.from({ length: CRITERIA_PAGE_ROWS + 1 }, (_, i) => graded(i)),
    );
    const res = await app.request('http://localhost/api/runs/run-r/criteria');
    expect(await res.json()).toEqual({
      criteria: [
        {
          source: 'rubric',
          kind: 'rubric',
          criterion: 'cites',
          graded: CRITERIA_PAGE_ROWS + 1,
          passed: CRITERIA_PAGE_ROWS,
          pass_rate: CRITERIA_PAGE_ROWS / (CRITERIA_PAGE_ROWS + 1),
          samples: CRITERIA_PAGE_ROWS + 1,
          missed_samples: 1,
          missed_sample_ids: [`s${CRITERIA_PAGE_ROWS}`],
        },
      ],
    });
    expect((await app.request('http://localhost/api/runs/run-none/criteria')).status).toBe(404);
    await store.close();
  });

  test('should answer the same numbers for a run before and after it finishes, and follow results saved later', async () => {
    const store = await open();
    const app = createViewApp({ store, assetsDir: '/nonexistent' });
    // biome-ignore lint/suspicious/noExplicitAny: the tests read answers' JSON loosely, field by field
    const json = async (path: string): Promise<any> => (await app.request(`http://localhost${path}`)).json();
    const numbers = ({ results, failed, mean_reward, cost }: Record<string, unknown>) => ({
      results,
      failed,
      mean_reward,
      cost,
    });
    await store.createRun({ id: 'run-l', spec_name: 'judge', spec: {} });
    await store.saveResults('run-l', [judgedResult, okResult('a', 0.5), failedResult('f', ['boom'])]);
    const running = await json('/api/runs/run-l');
    const listed = (await json('/api/runs')).runs[0];
    expect(numbers(listed)).toEqual(numbers(running.run));
    expect(numbers(running.run)).toEqual({
      results: 3,
      failed: 1,
      mean_reward: 0.75,
      cost: { calls: 2, prompt_tokens: 300, completion_tokens: 40, cache_hits: 1 },
    });
    const llm = { calls: 2, prompt_tokens: 300, completion_tokens: 40, cache_hits: 1 };
    await store.finishRun('run-l', { rows: 3, sources: [{ source: 'judge', llm }] });
    const finished = await json('/api/runs/run-l');
    expect(finished.run.status).toBe('finished');
    expect(numbers(finished.run)).toEqual(numbers(running.run));
    expect(finished.sources).toEqual(running.sources);
    expect(numbers((await json('/api/runs')).runs[0])).toEqual(numbers(running.run));
    // Saved after the finish (a resumed run): counted at once.
    await store.saveResults('run-l', [okResult('b', 1)]);
    const later = await json('/api/runs/run-l');
    expect(later.run).toMatchObject({ results: 4, failed: 1, mean_reward: 2.5 / 3 });
    expect(later.sources.find((s: { source: string }) => s.source === 'math')).toEqual({
      source: 'math',
      count: 2,
      mean: 0.75,
      invalid: 0,
    });
    await store.close();
  });

  test('should page, sort and filter samples on the server', async () => {
    const page = (await get('/api/runs/run-a/samples?limit=2&offset=1&sort=reward&order=desc')).body;
    expect(page.total).toBe(4);
    expect(page.rows.map((r: { sample_id: string }) => r.sample_id)).toEqual(['s4', 's2']);
    expect(page.rows[1].response_chars).toBe(DETAIL_TEXT_CHARS + 5);
    expect(page.rows[1].response_preview.length).toBeLessThan(300);
    const filtered = (await get('/api/runs/run-a/samples?status=ok&min_reward=0.4&q=SCRIPT')).body;
    expect(filtered.rows.map((r: { sample_id: string }) => r.sample_id)).toEqual(['s1']);
    expect((await get('/api/runs/run-a/samples?data_source=gsm8k&source=math')).body.total).toBe(3);
    // A part of the data source's name is enough.
    expect((await get('/api/runs/run-a/samples?data_source=8K')).body.total).toBe(3);
    const failed = (await get('/api/runs/run-a/samples?status=failed')).body.rows[0];
    expect(failed.first_error).toEqual(expect.any(String));
    expect(failed.first_error.length).toBeGreaterThan(0);
  });

  test.each([
    ['/api/runs/run-a/samples?limit=0', 'limit'],
    ['/api/runs/run-a/samples?min_reward=abc', 'min_reward'],
    ['/api/runs/run-a/samples?sort=rowid', 'sort'],
    ['/api/runs/run-a/samples?status=maybe', 'status'],
    ['/api/runs/run-a/samples?colour=red', 'colour'],
    ['/api/compare?a=run-a', 'b'],
    ['/api/compare?a=run-a&b=run-b&filter=better', 'filter'],
    ['/api/runs/run-a/histograms?bins=1000', 'bins'],
    ['/api/runs/run-a/reward-series?buckets=0', 'buckets'],
    ['/api/runs/run-a/cost-series?buckets=x', 'buckets'],
  ])('should answer %s with a 400 naming %s', async (path, field) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_query');
    expect(body.error.message).toContain(field);
    expect(body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  test('should show one sample with its text, cut when huge and whole on demand', async () => {
    const { body } = await get('/api/runs/run-a/samples/s1');
    expect(body.result).toEqual(okResult('s1', 1));
    expect(body.text).toEqual({
      prompt: 'What is 2+2?',
      response: 'It is <script>window.__pwned = 1</script> 4',
      response_chars: 43,
      prompt_truncated: false,
      reference: '<b>4</b>',
      reference_truncated: false,
    });
    const huge = (await get('/api/runs/run-a/samples/s2')).body;
    expect(huge.text.response).toHaveLength(DETAIL_TEXT_CHARS);
    expect(huge.text.response_chars).toBe(DETAIL_TEXT_CHARS + 5);
    expect(huge.text.prompt).toEqual([{ role: 'user', content: 'Say five' }]);
    const whole = await get('/api/runs/run-a/samples/s2/text?field=response');
    expect(whole.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(whole.body).toHaveLength(DETAIL_TEXT_CHARS + 5);
    // References together longer than the inline limit come only on demand, as the sample gave them.
    expect(huge.text.reference).toBeUndefined();
    expect(huge.text.reference_truncated).toBe(true);
    const reference = await get('/api/runs/run-a/samples/s2/text?field=reference');
    expect(JSON.parse(reference.body)).toEqual(['5', 'y'.repeat(DETAIL_TEXT_CHARS)]);
    expect((await get('/api/runs/run-a/samples/s1/text?field=reference')).body).toBe('<b>4</b>');
    expect((await get('/api/runs/run-a/samples/s4')).body.text).toEqual({
      response: 'half',
      response_chars: 4,
      prompt_truncated: false,
      reference_truncated: false,
    });
    expect((await get('/api/runs/run-a/samples/s3')).body.text).toBeNull();
    expect((await get('/api/runs/run-a/samples/zzz')).status).toBe(404);
  });

  test("should show a sample's judge calls apart from its evidence, with every text as stored", async () => {
    const { body } = await get('/api/runs/run-t/samples/t');
    const { calls, ...evidence } = traced;
    expect(body.result.evidence).toEqual([evidence]);
    expect(body.judge_calls).toEqual([calls]);
    expect(body.judge_calls[0][0].messages[1].content).toContain('<script>x()</script>');
    expect(body.text).toBeNull();
    expect((await get('/api/runs/run-j/samples/j')).body.judge_calls).toEqual([[]]);
  });

  test("should cut a judge call's long texts and send each whole on demand", async () => {
    const { body } = await get('/api/runs/run-t/samples/huge');
    const [call] = body.judge_calls[0];
    expect(call.messages[0].content).toHaveLength(CALL_TEXT_CHARS);
    expect(call.messages[0].content_chars).toBe(CALL_TEXT_CHARS + 7);
    expect(call.raw).toHaveLength(CALL_TEXT_CHARS);
    expect(call.raw_chars).toBe(CALL_TEXT_CHARS + 10);
    expect(call).not.toHaveProperty('parsed');
    expect(call.parsed_chars).toBeGreaterThan(CALL_TEXT_CHARS);
    const whole = (query: string) => get(`/api/runs/run-t/samples/huge/call?evidence=0&call=0&${query}`);
    const raw = await whole('field=raw');
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(raw.body).toHaveLength(CALL_TEXT_CHARS + 10);
    expect((await whole('field=message&message=0')).body).toHaveLength(CALL_TEXT_CHARS + 7);
    expect(JSON.parse((await whole('field=parsed')).body).critique).toHaveLength(CALL_TEXT_CHARS);
    expect((await whole('field=message&message=5')).status).toBe(404);
    expect((await get('/api/runs/run-t/samples/huge/call?evidence=0&call=3')).status).toBe(404);
    expect((await get('/api/runs/run-t/samples/huge/call?evidence=0&call=0&field=html')).status).toBe(400);
  });

  test('should show the traces an older result kept in its detail as its judge calls', async () => {
    const { body } = await get('/api/runs/run-t/samples/legacy');
    expect(body.result.evidence[0].detail).toEqual({ verdict: 'first' });
    expect(body.judge_calls[0]).toEqual([
      {
        role: 'genrm_scores',
        messages: [{ role: 'user', content: 'Response 1: OLD' }],
        raw: '{"score_1": 9, "score_2": 1}',
        finish_reason: 'stop',
        latency_ms: 5,
        prompt_tokens: 10,
        retries: 0,
        cached: false,
      },
    ]);
  });

  test('should compare two runs: which samples changed reward, with their components', async () => {
    const { body } = await get('/api/compare?a=run-a&b=run-b');
    expect(body).toMatchObject({ common: 3, only_a: 1, only_b: 1, changed: 2 });
    expect(body.rows.map((r: { sample_id: string }) => r.sample_id)).toEqual(['s3', 's2']);
    expect(body.rows[1].a.components).toEqual({ math: 0, fmt: null });
    expect(body.rows[1].b.components).toEqual({ math: 1, fmt: null });
    expect((await get('/api/compare?a=run-a&b=run-none')).status).toBe(404);
  });

  test("should filter the changed samples and carry each side's response excerpt", async () => {
    const improved = (await get('/api/compare?a=run-a&b=run-b&filter=improved')).body;
    expect(improved).toMatchObject({ changed: 2, improved: 1, regressed: 0, status_changed: 1 });
    expect(improved.rows.map((r: { sample_id: string }) => r.sample_id)).toEqual(['s2']);
    expect(improved.rows[0].a.excerpt).toBe('x'.repeat(160));
    expect(improved.rows[0].b.excerpt).toBeNull();
    const status = (await get('/api/compare?a=run-a&b=run-b&filter=status')).body;
    expect(status.rows.map((r: { sample_id: string }) => r.sample_id)).toEqual(['s3']);
    expect((await get('/api/compare?a=run-a&b=run-b&filter=regressed')).body.rows).toEqual([]);
    const disjoint = (await get('/api/compare?a=run-a&b=run-t')).body;
    expect(disjoint).toMatchObject({ common: 0, changed: 0, rows: [] });
  });

  test("should set one sample of two runs side by side, with each run's text and evidence", async () => {
    const { status, body } = await get('/api/compare/run-a/run-b/s1');
    expect(status).toBe(200);
    expect(body.sample_id).toBe('s1');
    expect(body.a.result).toEqual(okResult('s1', 1));
    expect(body.a.text.response).toBe('It is <script>window.__pwned = 1</script> 4');
    expect(body.b.result).toEqual(okResult('s1', 1));
    expect(body.b.text).toBeNull();
    const missing = await get('/api/compare/run-a/run-b/s4');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('run-b');
    expect((await get('/api/compare/run-a/run-none/s1')).body.error.code).toBe('run_not_found');
  });

  test('should bin rewards per source', async () => {
    const { body } = await get('/api/runs/run-a/histograms?bins=2');
    expect(body.histograms).toEqual([
      { source: null, min: 0, max: 1, counts: [1, 2] },
      { source: 'math', min: 0, max: 1, counts: [1, 2] },
    ]);
  });

  test('should give the reward over results in saved order, bucketed in the database', async () => {
    const { body } = await get('/api/runs/run-a/reward-series?buckets=2');
    expect(body.buckets).toEqual([
      { before: 0, results: 2, rewarded: 2, mean_reward: 0.5, min_reward: 0, max_reward: 1 },
      { before: 2, results: 2, rewarded: 1, mean_reward: 0.5, min_reward: 0.5, max_reward: 0.5 },
    ]);
    expect((await get('/api/runs/run-a/reward-series')).body.buckets).toHaveLength(4);
    expect((await get('/api/runs/run-none/reward-series')).status).toBe(404);
  });

  test('should give the judge usage over time of a run that called a model', async () => {
    const { body } = await get('/api/runs/run-j/cost-series?buckets=10');
    expect(body.buckets).toHaveLength(1);
    expect(body.buckets[0]).toMatchObject({
      calls: 2,
      prompt_tokens: 300,
      completion_tokens: 40,
      cache_hits: 1,
    });
    expect(Number.isNaN(Date.parse(body.buckets[0].last_saved_at))).toBe(false);
    expect(
      (await get('/api/runs/run-a/cost-series')).body.buckets.map((b: { calls: number }) => b.calls),
    ).toEqual([0, 0, 0, 0]);
  });

  test('should never write: other methods are refused', async () => {
    const store = await filledStore(await open());
    const app = createViewApp({ store, assetsDir: '/nonexistent' });
    const res = await app.request('http://localhost/api/runs', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('read_only');
    await store.close();
  });
}

describe('createViewApp on SQLite', () => {
  runViewApiTests(async () => openSqliteStore(':memory:'));

  test('should serve a page that says the web app is not built, with a strict CSP, never a blank one', async () => {
    const store = openSqliteStore(':memory:');
    const app = createViewApp({ store, assetsDir: '/nonexistent' });
    const res = await app.request('http://localhost/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('npm run build');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await app.request('http://localhost/ui')).headers.get('location')).toBe('/ui/');
    expect((await app.request('http://localhost/..%2Fpackage.json')).status).toBe(404);
    await store.close();
  });
});

describe.skipIf(!postgres.available)('createViewApp on PostgreSQL', () => {
  runViewApiTests(async () => {
    if (!postgres.available) throw new Error('unreachable: skipped without a server');
    return openPostgresStore(await postgres.createDatabase(), { maxConnections: 2 });
  });
});
