import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type RewardResult, referencesOf } from '../core/index.js';
import { createEvaluator, defineSourceKind, parseSpec, type SourceKind } from '../spec/index.js';
import { createCodeSandbox } from '../verify/code/index.js';
import { createRewardApp, type RewardAppDeps } from './create-reward-app.js';

// `number`: the response's last (or `word`-th) word read as a number; "BOOM" cannot be checked; "SLOW" waits for the abort.
const numberKind = defineSourceKind({
  kind: 'number',
  description: 'the response as a number',
  params: z.strictObject({ word: z.number().int().optional() }),
  create:
    (params) =>
    (sample, { signal }) => {
      if (sample.response === 'BOOM') throw new Error('backend down');
      if (sample.response === 'SLOW') {
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      }
      const words = sample.response.trim().split(/\s+/);
      const score = Number(params.word === undefined ? words.at(-1) : words[params.word]);
      return { score, verdict: score > 0 ? 'pass' : 'fail' };
    },
});
// `gold`: 1 when the response is one of the references; a sample without one cannot be checked.
const goldKind = defineSourceKind({
  kind: 'gold',
  description: 'the response is one of the golds',
  params: z.strictObject({}),
  create: () => (sample) => {
    const golds = referencesOf(sample);
    if (golds.length === 0) throw new Error('no reference');
    const score = golds.includes(sample.response.trim()) ? 1 : 0;
    return { score, verdict: score > 0 ? 'pass' : 'fail' };
  },
});
const registry = new Map<string, SourceKind>([
  [numberKind.kind, numberKind as unknown as SourceKind],
  [goldKind.kind, goldKind as unknown as SourceKind],
]);

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and asserted
type Json = any;
const read = (res: Response): Promise<Json> => res.json();

function appFor(yaml: string, extra: Partial<RewardAppDeps> = {}) {
  const recorded: Array<{ requestId: string; results: readonly RewardResult[] }> = [];
  const evaluator = createEvaluator(parseSpec(yaml, 'spec.yaml', registry), { registry });
  const built = createRewardApp({
    evaluator,
    codeSandbox: () => createCodeSandbox(),
    record: async (results, requestId) => {
      recorded.push({ requestId, results });
    },
    runId: 'run-1',
    ...extra,
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    built.app.request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { ...built, post, recorded };
}

const SPEC = 'name: numbers\nsources:\n  - kind: number\n';

describe('POST /v1/rewards', () => {
  test('should score every sample in order, echo the request id and record results under it', async () => {
    const { post, recorded } = appFor(SPEC);
    const res = await post(
      '/v1/rewards',
      {
        samples: [
          { id: 'a', response: '1' },
          { id: 2, response: '0.5' },
          { id: 'c', response: 'BOOM' },
        ],
      },
      { 'X-Request-Id': 'req-42' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-42');
    const body = await read(res);
    expect(body.request_id).toBe('req-42');
    expect(body.results.map((r: RewardResult) => [r.id, r.status, r.reward])).toEqual([
      ['a', 'ok', 1],
      ['2', 'ok', 0.5],
      ['c', 'failed', null],
    ]);
    expect(body.results[2].errors[0]).toMatch(/backend down/);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.requestId).toBe('req-42');
    expect(recorded[0]?.results.map((r) => r.id).sort()).toEqual(['2', 'a', 'c']);
  });

  test('should name every component the spec can produce, across routes, for clients that log extras', async () => {
    const routed = [
      'name: routed',
      'routes:',
      '  - data_source: [a]',
      '    spec: { name: a, sources: [{ kind: number, name: first }, { kind: gold }] }',
      'default: { name: d, sources: [{ kind: gold }, { kind: number, name: last }] }',
    ].join('\n');
    const { post } = appFor(routed);
    const body = await read(await post('/v1/rewards', { samples: [{ id: 'x', response: '1' }] }));
    expect(body.components).toEqual(['first', 'gold', 'last']);
    expect(Object.keys(body.results[0].components)).toEqual(['gold', 'last']);
  });

  test('should answer 400 naming the field, and for malformed JSON and duplicate ids', async () => {
    const { post } = appFor(SPEC);
    const bad = await post('/v1/rewards', {
      samples: [
        { id: 'a', response: '1' },
        { id: 'b', response: 7 },
      ],
    });
    expect(bad.status).toBe(400);
    const body = await read(bad);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.issues).toEqual([{ path: 'samples.1.response', message: expect.any(String) }]);
    expect(body.error.message).toContain('samples.1.response');
    const json = await post('/v1/rewards', '{"samples": [');
    expect(json.status).toBe(400);
    expect((await read(json)).error.code).toBe('malformed_json');
    const dup = await post('/v1/rewards', {
      samples: [
        { id: 'a', response: '1' },
        { id: 'a', response: '2' },
      ],
    });
    expect((await read(dup)).error.issues[0].path).toBe('samples.1.id');
  });

  test('should answer 504 at the deadline and record the finished and the aborted samples', async () => {
    const { post, recorded } = appFor(SPEC);
    const res = await post(
      '/v1/rewards',
      {
        samples: [
          { id: 'fast', response: '1' },
          { id: 'slow', response: 'SLOW' },
        ],
      },
      { 'X-Deadline-Ms': '150' },
    );
    expect(res.status).toBe(504);
    const body = await read(res);
    expect(body.error).toMatchObject({ code: 'deadline_exceeded', finished: 1, total: 2 });
    const saved = recorded[0]?.results ?? [];
    expect(saved.find((r) => r.id === 'fast')?.reward).toBe(1);
    expect(saved.find((r) => r.id === 'slow')?.errors[0]).toMatch(/deadline of 150 ms exceeded/);
  });

  test('should refuse with 429 and Retry-After when the queue cannot take the request', async () => {
    const { post } = appFor(SPEC, { options: { concurrency: 1, maxQueue: 1 } });
    const held = post('/v1/rewards', { samples: [{ id: 's1', response: 'SLOW' }], deadline_ms: 300 });
    const filler = post('/v1/rewards', { samples: [{ id: 's2', response: '1' }] });
    await new Promise((r) => setTimeout(r, 20));
    const refused = await post('/v1/rewards', { samples: [{ id: 's3', response: '1' }] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await read(refused)).error.code).toBe('queue_full');
    expect((await held).status).toBe(504);
    expect((await filler).status).toBe(200);
  });
});

describe('auth, limits and operations', () => {
  test('should require a configured bearer token everywhere but /healthz', async () => {
    const { app, post } = appFor(SPEC, { options: { tokens: ['s3cret', 'other'] } });
    expect((await app.request('http://localhost/healthz')).status).toBe(200);
    const anonymous = await post('/v1/rewards', { samples: [{ id: 'a', response: '1' }] });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await post(
      '/v1/rewards',
      { samples: [{ id: 'a', response: '1' }] },
      { Authorization: 'Bearer s3cre' },
    );
    expect(wrong.status).toBe(401);
    const ok = await post(
      '/v1/rewards',
      { samples: [{ id: 'a', response: '1' }] },
      { Authorization: 'Bearer other' },
    );
    expect(ok.status).toBe(200);
    expect((await app.request('http://localhost/metrics')).status).toBe(401);
  });

  test('should answer 413 to a body over --max-body', async () => {
    const { post } = appFor(SPEC, { options: { maxBodyBytes: 100 } });
    const res = await post('/v1/rewards', { samples: [{ id: 'a', response: 'x'.repeat(200) }] });
    expect(res.status).toBe(413);
    expect((await read(res)).error.code).toBe('payload_too_large');
  });

  test('should expose requests, latency, samples and failures as Prometheus text', async () => {
    const { app, post } = appFor(SPEC);
    await post('/v1/rewards', {
      samples: [
        { id: 'a', response: '1' },
        { id: 'b', response: 'BOOM' },
      ],
    });
    await post('/v1/rewards', '{');
    const text = await (await app.request('http://localhost/metrics')).text();
    expect(text).toContain('rewardkit_http_requests_total{route="/v1/rewards",status="200"} 1');
    expect(text).toContain('rewardkit_http_requests_total{route="/v1/rewards",status="400"} 1');
    expect(text).toMatch(/rewardkit_http_request_duration_seconds_count\{route="\/v1\/rewards"\} 2/);
    expect(text).toContain('rewardkit_samples_total{status="failed"} 1');
    expect(text).toContain('rewardkit_failures_total{kind="source:number"} 1');
    expect(text).toContain('rewardkit_queue_depth 0');
    expect(text).toContain('# TYPE rewardkit_http_request_duration_seconds histogram');
  });

  test('should count the samples a routed spec scored by its default route, per data_source', async () => {
    const { app, post } = appFor(
      'name: routed\nroutes:\n  - data_source: gsm8k\n    spec: {sources: [{kind: number}]}\ndefault: {sources: [{kind: number}]}\n',
    );
    const res = await post('/v1/rewards', {
      samples: [
        { id: 'a', response: '1', data_source: 'openai/gsm8k' },
        { id: 'b', response: '1', data_source: 'hellaswag' },
        { id: 'c', response: '1', data_source: 'hellaswag' },
        { id: 'd', response: '1' },
        { id: 'e', response: '1', data_source: 'say "hi"' },
      ],
    });
    const body = await read(res);
    expect(body.results.map((r: RewardResult) => r.routed_default ?? false)).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
    const text = await (await app.request('http://localhost/metrics')).text();
    expect(text).toContain('# TYPE rewardkit_routed_default counter');
    expect(text).toContain('rewardkit_routed_default{data_source="hellaswag"} 2');
    expect(text).toContain('rewardkit_routed_default{data_source=""} 1');
    expect(text).toContain('rewardkit_routed_default{data_source="say \\"hi\\""} 1');
    expect(text).not.toContain('rewardkit_routed_default{data_source="openai/gsm8k"}');
  });

  test('should say on /healthz whether the spec compares the samples of a group', async () => {
    const { app } = appFor(SPEC);
    expect(await read(await app.request('http://localhost/healthz'))).toMatchObject({
      spec: 'numbers',
      needs_groups: false,
    });
  });

  test('should echo the request id on every answer, refusals and errors included', async () => {
    const cases: Array<[string, Partial<RewardAppDeps>, string, unknown, Record<string, string>, number]> = [
      ['scored', {}, '/v1/rewards', { samples: [{ id: 'a', response: '1' }] }, {}, 200],
      ['openrlhf', {}, '/get_reward', { query: ['1'], prompts: [''], labels: ['1'] }, {}, 200],
      ['malformed', {}, '/v1/rewards', '{', {}, 400],
      ['unknown route', {}, '/v2/nothing', {}, {}, 404],
      ['unauthorized', { options: { tokens: ['s3cret'] } }, '/v1/rewards', { samples: [] }, {}, 401],
      [
        'too large',
        { options: { maxBodyBytes: 10 } },
        '/v1/rewards',
        { samples: [{ id: 'a', response: '1' }] },
        {},
        413,
      ],
    ];
    for (const [name, extra, path, body, headers, status] of cases) {
      const { post } = appFor(SPEC, extra);
      const given = await post(path, body, { ...headers, 'X-Request-Id': `given-${status}` });
      expect([name, given.status, given.headers.get('x-request-id')]).toEqual([
        name,
        status,
        `given-${status}`,
      ]);
      const made = await post(path, body, headers);
      expect([name, made.headers.get('x-request-id')]).toEqual([
        name,
        expect.stringMatching(/^[0-9a-f-]{36}$/),
      ]);
    }
    const { app } = appFor(SPEC);
    const health = await app.request('http://localhost/healthz', { headers: { 'X-Request-Id': 'h-1' } });
    expect(health.headers.get('x-request-id')).toBe('h-1');
  });

  test('should answer an unknown route with a JSON 404', async () => {
    const { post } = appFor(SPEC);
    const res = await post('/v2/nothing', {});
    expect(res.status).toBe(404);
    expect((await read(res)).error.code).toBe('not_found');
  });
});

describe('POST /get_reward (OpenRLHF)', () => {
  test('should strip the prompt, use labels as references and answer rewards, scores and extra_logs', async () => {
    const { post, recorded } = appFor('name: n\nsources:\n  - kind: number\nclamp: [-1, 1]\n');
    const res = await post('/get_reward', {
      query: [
        '<user>Q1<assistant> 1<|im_end|>',
        '<user>Q2<assistant>-1',
        'unrelated 0',
        '<user>Q4<assistant>BOOM',
      ],
      prompts: ['<user>Q1<assistant>', '<user>Q2<assistant>', '<user>Q3<assistant>', '<user>Q4<assistant>'],
      labels: ['1', '', null, 'x'],
    });
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(Object.keys(body)).toEqual(['rewards', 'scores', 'extra_logs']);
    expect(body.rewards).toEqual([1, -1, 0, 0]);
    expect(body.scores).toEqual([1, 0, 0.5, 0.5]);
    expect(body.extra_logs).toEqual({ number: [1, -1, 0, 0], failed: [0, 0, 0, 1], invalid: [0, 0, 0, 1] });
    const saved = recorded[0]?.results ?? [];
    const requestId = recorded[0]?.requestId;
    const third = saved.find((r) => r.id === `${requestId}-2`);
    expect(third?.warnings[0]).toMatch(/does not start with its prompt/);
  });

  test('should send the configured failed reward for a sample that could not be scored', async () => {
    const { post } = appFor(SPEC, { options: { failedReward: -2 } });
    const body = await (
      await post('/get_reward', { query: ['pBOOM'], prompts: ['p'], labels: ['1'] })
    ).json();
    expect(body).toEqual({
      rewards: [-2],
      scores: [0],
      extra_logs: { number: [0], failed: [1], invalid: [1] },
    });
  });

  test('should take labels as OpenRLHF sends them: strings, numbers, lists of golds and null', async () => {
    const { post } = appFor('name: g\nsources:\n  - kind: gold\n');
    const res = await post('/get_reward', {
      query: ['p 42', 'p 0.5', 'p 1/2', 'p 7', 'p 7'],
      prompts: ['p', 'p', 'p', 'p', 'p'],
      labels: [42, ['1/2', 0.5], ['1/2', 0.5], '8', null],
    });
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(body.rewards).toEqual([1, 1, 1, 0, 0]);
    expect(body.extra_logs.failed).toEqual([0, 0, 0, 0, 1]);
  });

  test('should answer the empty request OpenRLHF sends to every reward URL after the first', async () => {
    const { post } = appFor(SPEC);
    const res = await post('/get_reward', { query: [], prompts: [], labels: [] });
    expect(res.status).toBe(200);
    expect(await read(res)).toEqual({
      rewards: [],
      scores: [],
      extra_logs: { number: [], failed: [], invalid: [] },
    });
  });

  test('should log every component of a routed spec for every sample, whatever its route', async () => {
    const routed = [
      'name: routed',
      'routes:',
      '  - data_source: [a]',
      '    spec: { name: a, sources: [{ kind: number, name: first }] }',
      'default: { name: d, sources: [{ kind: gold }, { kind: number, name: last }] }',
    ].join('\n');
    const { post } = appFor(routed);
    const body = await read(await post('/get_reward', { query: ['p 3'], prompts: ['p'], labels: ['3'] }));
    expect(body.extra_logs).toEqual({ first: [0], gold: [1], last: [3], failed: [0], invalid: [0] });
  });

  test('should answer 400 when prompts and queries differ in length', async () => {
    const { post } = appFor(SPEC);
    const res = await post('/get_reward', { query: ['a', 'b'], prompts: ['a'], labels: ['1', '2'] });
    expect((await read(res)).error.issues).toEqual([
      { path: 'prompts', message: expect.stringMatching(/one prompt per query/) },
    ]);
  });
});

describe('POST /v1/groups', () => {
  test('should score each group and shape its rewards, leaving failed samples out of the statistics', async () => {
    const { post } = appFor(SPEC);
    const res = await post('/v1/groups', {
      groups: [
        { group: 'g1', samples: ['1', '0', '0', '1'].map((r, i) => ({ id: `g1-${i}`, response: r })) },
        {
          group: 'g2',
          samples: ['1', 'BOOM', '0', '0', '0'].map((r, i) => ({ id: `g2-${i}`, response: r })),
        },
      ],
      options: { std: 'unbiased' },
    });
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(body.method).toBe('grpo');
    const [g1, g2] = body.groups;
    expect(g1.rewards).toEqual([1, 0, 0, 1]);
    g1.advantages.forEach((a: number, i: number) => {
      expect(a).toBeCloseTo([0.866025, -0.866025, -0.866025, 0.866025][i] as number, 5);
    });
    expect(g2.rewards).toEqual([1, null, 0, 0, 0]);
    expect(g2.failed).toEqual([1]);
    [1.5, 0, -0.5, -0.5, -0.5].forEach((v, i) => {
      expect(g2.advantages[i]).toBeCloseTo(v, 5);
    });
    expect(g2.results.map((r: RewardResult) => r.group)).toEqual(['g2', 'g2', 'g2', 'g2', 'g2']);
  });

  test.each([
    { beta: 0, eps: [0.3732, 0.2577, 0.2577, 0.2577] },
    { beta: 0.5, eps: [0.3266, 0.2255, 0.2255, 0.2255] },
  ])('should answer ETR clip bounds $eps for [1,0,0,0] with beta $beta', async ({ beta, eps }) => {
    const { post } = appFor(SPEC, { options: { groupMethod: 'etr' } });
    const body = await read(
      await post('/v1/groups', {
        groups: [{ group: 'g', samples: ['1', '0', '0', '0'].map((r, i) => ({ id: `s${i}`, response: r })) }],
        options: { alpha: 0.5, beta },
      }),
    );
    const [g] = body.groups;
    expect(body.method).toBe('etr');
    eps.forEach((e, i) => {
      expect(1 - g.clip_bounds[i].low).toBeCloseTo(e, 4);
      expect(g.clip_bounds[i].high - 1).toBeCloseTo(e, 4);
    });
    [1.732051, -0.57735, -0.57735, -0.57735].forEach((a, i) => {
      expect(g.advantages[i]).toBeCloseTo(a, 5);
    });
  });

  test('should feed the spec components to RFN as dims (rl.md vectors)', async () => {
    const { post } = appFor(
      'sources:\n  - {kind: number, name: correctness, params: {word: 0}}\n  - {kind: number, name: style, params: {word: 1}}\n',
    );
    const body = await read(
      await post('/v1/groups', {
        method: 'rfn',
        groups: [
          { group: 'g', samples: ['0.8 4.5', '0.5 1.5'].map((r, i) => ({ id: `s${i}`, response: r })) },
        ],
        options: { reference: { mu: [0.6, 3.0], sigma: [0.2, 1.5], delta: 1e-6 }, weights: [0.5, 0.5] },
      }),
    );
    const [g] = body.groups;
    expect(g.shaped_rewards[0]).toBeCloseTo(1, 5);
    expect(g.shaped_rewards[1]).toBeCloseTo(-0.75, 5);
  });

  test('should keep CLIPO head state per run: the request run, else the server run', async () => {
    const docs = new Map<string, unknown>();
    const state = {
      getState: async (key: string) => docs.get(key),
      putState: async (key: string, value: unknown) => {
        docs.set(key, value);
      },
    };
    const { post } = appFor(SPEC, { state });
    const request = (run?: string) =>
      post('/v1/groups', {
        method: 'clipo',
        ...(run && { run }),
        groups: [
          {
            group: 'g',
            samples: ['1', '1', '0', '0'].map((r, i) => ({ id: `s${i}`, response: r })),
            hidden_states: [
              [1, 0],
              [0.9, 0.1],
              [0, 1],
              [0.1, 0.9],
            ],
          },
        ],
      });
    expect((await request('exp-a')).status).toBe(200);
    expect((await request('exp-a')).status).toBe(200);
    expect((await request()).status).toBe(200);
    expect((docs.get('clipo-head/exp-a') as { step: number }).step).toBe(2);
    expect((docs.get('clipo-head/run-1') as { step: number }).step).toBe(1);
  });

  test('should refuse unknown options and methods before scoring, naming the field', async () => {
    const { post, recorded } = appFor(SPEC);
    const group = { group: 'g', samples: [{ id: 'a', response: '1' }] };
    const badOption = await post('/v1/groups', { groups: [group], options: { stdd: 'x' } });
    expect(badOption.status).toBe(400);
    expect((await read(badOption)).error.issues[0].path).toMatch(/^options/);
    const badMethod = await post('/v1/groups', { groups: [group], method: 'nope' });
    expect((await read(badMethod)).error.issues[0].path).toBe('method');
    const badHidden = await post('/v1/groups', { groups: [{ ...group, hidden_states: [[1], [2]] }] });
    expect((await read(badHidden)).error.issues[0].path).toBe('groups.0.hidden_states');
    expect(recorded).toEqual([]);
  });
});

describe('code rewards in QuickJS', () => {
  test('should keep /healthz answering while a JavaScript program spins', async () => {
    const sandbox = createCodeSandbox();
    const { app } = createRewardApp({
      evaluator: createEvaluator(
        parseSpec(
          'name: code\nsources:\n  - kind: code\n    params: { run_timeout_ms: 1000 }\n',
          'code.yaml',
        ),
        { codeSandbox: () => sandbox },
      ),
      codeSandbox: () => sandbox,
    });
    const score = (code: string) =>
      Promise.resolve(
        app.request('http://localhost/v1/rewards', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            samples: [
              {
                id: 'js',
                response: `\`\`\`javascript\n${code}\n\`\`\``,
                metadata: {
                  language: 'javascript',
                  tests: [{ kind: 'stdio', stdin: '', expected_stdout: '1' }],
                },
              },
            ],
          }),
        }),
      ).then(read);
    await score('console.log(1)'); // QuickJS loaded: what follows measures the spin alone
    let answered = 0;
    let spinning = true;
    const spin = score('while (true) {}').finally(() => {
      spinning = false;
    });
    while (spinning) {
      await Promise.resolve(app.request('http://localhost/healthz'));
      if (spinning) answered++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const body = await spin;
    expect(body.results[0].evidence[0].detail.results[0].status).toBe('timeout');
    // On the event loop the spin (1 s) would let /healthz answer at most once.
    expect(answered).toBeGreaterThan(3);
    await sandbox.close();
  });
});
