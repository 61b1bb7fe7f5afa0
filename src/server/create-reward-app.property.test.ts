import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RewardKitError, type RewardResult, RewardResultSchema } from '../core/index.js';
import { checkProperty } from '../core/test-utils/check-property.js';
import { GROUP_METHOD_NAMES } from '../rl/index.js';
import { createEvaluator, loadSpec, sourceKinds } from '../spec/index.js';
import type { CodeSandbox, RunCodeResult } from '../verify/code/index.js';
import { createRewardApp } from './create-reward-app.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and asserted
type Json = any;

const KINDS = new Set(sourceKinds.keys());
const MAX_BODY = 64 * 1024;

/** Runs no program: `/run_code` answers what a sandbox would and counts the runs; code rewards fail as with a sandbox down. */
function fakeSandbox(): CodeSandbox & { runs: number } {
  const down = () =>
    Promise.reject(new RewardKitError('RK_SANDBOX_UNAVAILABLE', 'no sandbox in the property tests'));
  const sandbox = {
    runs: 0,
    isolation: () => 'none' as const,
    runTests: down,
    async runCode(): Promise<RunCodeResult> {
      sandbox.runs++;
      const run = {
        status: 'Finished' as const,
        execution_time: 0.01,
        return_code: 0,
        stdout: '',
        stderr: '',
      };
      return {
        status: 'Success',
        message: '',
        compile_result: null,
        run_result: run,
        executor_pod_name: null,
        files: {},
      };
    },
    close: async () => {},
  };
  return sandbox;
}

const sandbox = fakeSandbox();
const recorded: RewardResult[][] = [];
const { app } = createRewardApp({
  evaluator: createEvaluator(loadSpec('default'), { codeSandbox: () => sandbox }),
  codeSandbox: () => sandbox,
  record: async (results) => {
    recorded.push([...results]);
  },
  options: { maxBodyBytes: MAX_BODY, deadlineMs: 8_000 },
});

const ROUTES = ['/v1/rewards', '/v1/groups', '/get_reward', '/run_code'] as const;
type Route = (typeof ROUTES)[number];

const text = (max = 20) => fc.string({ maxLength: max, unit: 'binary' });
const response = fc.oneof(
  fc.constantFrom('\\boxed{3}', '#### 18', 'A', '```python\nprint(1)\n```', ''),
  text(40),
);
const goodSample = fc.record(
  {
    response,
    reference: fc.oneof(
      fc.constantFrom('3', '18', 'A'),
      fc.array(fc.constantFrom('3', '18'), { maxLength: 2 }),
    ),
    data_source: fc.oneof(fc.constantFrom('gsm8k', 'math', 'ifeval', 'apps', 'nq'), text(6)),
    prompt: fc.oneof(
      text(),
      fc.array(fc.record({ role: fc.constantFrom('user', 'system'), content: text() }), { maxLength: 2 }),
    ),
    group: fc.oneof(fc.constantFrom('g', 'h'), fc.integer({ min: 0, max: 2 })),
    metadata: fc.dictionary(text(5), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  },
  { requiredKeys: ['response'] },
);
/** Samples with distinct ids (as a trainer sends them), or with ids that may repeat or be of any type. */
const samples = (min: number, max: number): fc.Arbitrary<Record<string, unknown>[]> =>
  fc.oneof(
    {
      arbitrary: fc
        .array(goodSample, { minLength: min, maxLength: max })
        .map((list) => list.map((x, i) => ({ id: `s${i}`, ...x }))),
      weight: 3,
    },
    {
      arbitrary: fc.array(
        fc
          .record({
            id: fc.oneof(
              fc.string({ maxLength: 2 }),
              fc.integer({ min: 0, max: 3 }),
              fc.jsonValue({ maxDepth: 0 }),
            ),
            sample: goodSample,
          })
          .map(({ id, sample }) => ({ id, ...sample })),
        { minLength: min, maxLength: max },
      ),
      weight: 1,
    },
  );

/** A valid body, or the same with one field replaced by any JSON value (or removed). */
function nearlyValid(
  valid: fc.Arbitrary<Record<string, unknown>>,
  fields: readonly string[],
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    {
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...fields), fc.option(fc.jsonValue({ maxDepth: 2 })))
        .map(([body, field, value]) => ({ ...body, [field]: value ?? undefined })),
      weight: 2,
    },
  );
}

/** Nested `depth` levels deep, as an array or an object chain. */
const deep = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean())
  .map(([depth, array]) =>
    array ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** Bodies shaped like each route's contract, valid or nearly so, as JSON values. */
const shaped: Record<Route, fc.Arbitrary<unknown>> = {
  '/v1/rewards': nearlyValid(
    fc.record(
      { samples: samples(1, 6), deadline_ms: fc.integer({ min: 1000, max: 9000 }) },
      { requiredKeys: ['samples'] },
    ),
    ['samples', 'deadline_ms'],
  ),
  '/v1/groups': nearlyValid(
    fc.record(
      {
        groups: fc
          .array(
            fc.record(
              {
                group: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), fc.integer()),
                samples: samples(1, 4),
                extra: fc.jsonValue({ maxDepth: 2 }),
              },
              { requiredKeys: ['group', 'samples'] },
            ),
            { minLength: 1, maxLength: 3 },
          )
          .map((groups) =>
            groups.map((g, i) => ({
              ...g,
              samples: g.samples.map((x) => ({ ...x, id: `${i}-${String(x.id)}` })),
            })),
          ),
        method: fc.oneof(fc.constantFrom(...GROUP_METHOD_NAMES), text(6)),
        options: fc.oneof(
          fc.constant({}),
          fc.dictionary(fc.constantFrom('epsilon', 'scale_rewards', 'x'), fc.jsonValue({ maxDepth: 1 }), {
            maxKeys: 1,
          }),
        ),
        run: fc.string({ minLength: 1, maxLength: 6 }),
        seed: fc.nat(),
      },
      { requiredKeys: ['groups'] },
    ),
    ['groups', 'method', 'options', 'run', 'seed', 'deadline_ms'],
  ),
  '/get_reward': nearlyValid(
    fc.integer({ min: 0, max: 5 }).chain((n) =>
      fc.record(
        {
          query: fc.array(fc.oneof(response, fc.constant('Q: 1+2? \\boxed{3}<|im_end|>')), {
            minLength: n,
            maxLength: n,
          }),
          prompts: fc.array(fc.constantFrom('Q: 1+2? ', ''), { minLength: n, maxLength: n }),
          labels: fc.array(
            fc.oneof(
              fc.constantFrom('3', '', null),
              fc.integer(),
              fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 2 }),
            ),
            { minLength: n, maxLength: n },
          ),
        },
        { requiredKeys: ['query', 'prompts'] },
      ),
    ),
    ['query', 'prompts', 'labels'],
  ),
  '/run_code': nearlyValid(
    fc.record(
      {
        code: text(30),
        language: fc.constantFrom('python', 'cpp', 'nodejs', 'bash', 'js', 'ts', 'go'),
        stdin: fc.oneof(text(10), fc.constant(null)),
        compile_timeout: fc.double({ min: 0.1, max: 100, noNaN: true }),
        run_timeout: fc.integer({ min: 1, max: 100 }),
        memory_limit_MB: fc.integer({ min: -1, max: 4096 }),
        files: fc.dictionary(
          fc.constantFrom('a.txt', 'd/e'),
          fc.oneof(fc.constantFrom('aGk=', ''), fc.constant(null)),
          { maxKeys: 2 },
        ),
        fetch_files: fc.array(fc.constantFrom('a.txt', 'out/b'), { maxLength: 2 }),
      },
      { requiredKeys: ['code', 'language'] },
    ),
    [
      'code',
      'language',
      'stdin',
      'compile_timeout',
      'run_timeout',
      'memory_limit_MB',
      'files',
      'fetch_files',
    ],
  ),
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  undefined,
];

/** A header one request in five sends. */
const mostlyAbsent = (value: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 });

/** A request to one route: its body as text or bytes, a content type, and sometimes another method. */
const request = fc.constantFrom(...ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'POST', 'POST', 'PUT', 'GET'),
    contentType: fc.oneof(fc.constant('application/json'), fc.constantFrom(...CONTENT_TYPES)),
    // X-Deadline-Ms as a client may send it: absent mostly, else any number-ish text.
    deadline: mostlyAbsent(
      fc.oneof(
        fc.constantFrom('0', '-5', '1e400', 'abc', '', '1', '0.5', '1e-300', '5000', '0x10'),
        fc.string({ maxLength: 6 }),
      ),
    ),
    requestId: mostlyAbsent(fc.string({ maxLength: 210 })),
    body: fc.oneof(
      { arbitrary: shaped[route].map((v) => JSON.stringify(v) ?? ''), weight: 6 },
      { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 2 },
      { arbitrary: deep, weight: 1 },
      {
        arbitrary: deep.map(
          (d) =>
            `{"samples":[{"id":"d","response":"1","metadata":{"x":${d}}}],"groups":[{"group":"g","samples":[{"id":"d","response":"1"}],"extra":${d}}],"query":[${d}],"prompts":[],"code":${d}}`,
        ),
        weight: 1,
      },
      { arbitrary: text(200), weight: 1 },
      { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 1 },
      {
        arbitrary: fc
          .integer({ min: MAX_BODY - 10, max: MAX_BODY * 2 })
          .map((n) => `{"samples":[{"id":"a","response":"${'x'.repeat(n)}"}]}`),
        weight: 1,
      },
    ),
  }),
);

/** docs/server.md's error table: the codes a client may meet for a request of its own making. */
const DOCUMENTED_4XX: Record<string, number> = {
  malformed_json: 400,
  invalid_request: 400,
  not_found: 404,
  payload_too_large: 413,
};

function expectErrorShape(status: number, json: Json): void {
  expect(json).toMatchObject({
    error: { code: expect.any(String), message: expect.any(String) },
    request_id: expect.any(String),
  });
  expect({ status, code: json.error.code }, json.error.message).toEqual({
    status: DOCUMENTED_4XX[json.error.code],
    code: json.error.code,
  });
  expect(json.error.message).not.toMatch(/\n\s+at /);
  for (const issue of json.error.issues ?? [])
    expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
}

/** FastAPI's 422 body, which `/run_code` answers for a body that is not a SandboxFusion request. */
function expectValidationShape(json: Json): void {
  expect(Object.keys(json)).toEqual(['detail']);
  expect(json.detail.length).toBeGreaterThan(0);
  for (const issue of json.detail) {
    expect(issue).toMatchObject({ type: expect.any(String), msg: expect.any(String) });
    expect(issue.loc[0]).toBe('body');
  }
}

/** An `ok` result was scored: a finite reward from a source that really ran. */
function expectScored(result: RewardResult): void {
  expect(RewardResultSchema.safeParse(result).success).toBe(true);
  if (result.status === 'failed') {
    expect(result.reward).toBeNull();
    expect(result.errors.length).toBeGreaterThan(0);
    return;
  }
  expect(Number.isFinite(result.reward)).toBe(true);
  expect(
    result.evidence.some(
      (e) => KINDS.has(e.kind) && !e.invalid && e.verdict !== 'error' && Number.isFinite(e.score),
    ),
  ).toBe(true);
}

/** What a 200 from each route must hold: every sample of the request answered, each scored or failed. */
function expectAnswered(
  route: Route,
  sent: Json,
  json: Json,
  saved: RewardResult[],
  sandboxRuns: number,
): void {
  if (route === '/v1/rewards') {
    expect(json.results.map((r: RewardResult) => r.id)).toEqual(sent.samples.map((s: Json) => String(s.id)));
    json.results.forEach(expectScored);
    expect(saved).toEqual(json.results);
  } else if (route === '/v1/groups') {
    expect(json.groups.length).toBe(sent.groups.length);
    json.groups.forEach((group: Json, i: number) => {
      expect(group.results.length).toBe(sent.groups[i].samples.length);
      group.results.forEach(expectScored);
      expect(group.rewards).toEqual(group.results.map((r: RewardResult) => r.reward));
    });
  } else if (route === '/get_reward') {
    expect(json.rewards.length).toBe(sent.query.length);
    expect(saved.length).toBe(sent.query.length);
    saved.forEach((result, i) => {
      expectScored(result);
      expect(Number.isFinite(json.rewards[i])).toBe(true);
      // A sample that could not be scored is flagged to the trainer, never passed off as a reward.
      expect(json.extra_logs.failed[i]).toBe(result.status === 'failed' ? 1 : 0);
      if (result.status === 'ok') expect(json.rewards[i]).toBe(result.reward);
    });
  } else {
    expect(sandboxRuns).toBe(1);
    expect(json.status).toBe('Success');
  }
}

describe('every HTTP body (property-based)', () => {
  test('should answer any body on any route with a documented 4xx or a 200 whose samples were all scored', async () => {
    await checkProperty(
      'HTTP bodies',
      fc.asyncProperty(request, async ({ route, method, contentType, deadline, requestId, body }) => {
        recorded.length = 0;
        const runsBefore = sandbox.runs;
        const res = await app.request(`http://localhost${route}`, {
          method,
          headers: {
            ...(contentType !== undefined && { 'content-type': contentType }),
            ...(deadline !== undefined && { 'x-deadline-ms': deadline }),
            ...(requestId !== undefined && { 'x-request-id': requestId }),
          },
          ...(method !== 'GET' && { body }),
        });
        const answer = await res.text();
        let json: Json;
        try {
          json = JSON.parse(answer);
        } catch {
          throw new Error(`${res.status} answer is not JSON: ${answer.slice(0, 200)}`);
        }
        if (res.status === 504 && deadline !== undefined) {
          // A deadline the client set may pass: documented, and every sample is still recorded, scored or failed.
          expect(['deadline_exceeded', 'queue_timeout']).toContain(json.error.code);
          recorded.flat().forEach(expectScored);
          return;
        }
        if (route === '/run_code' && res.status === 422) {
          // SandboxFusion's contract: FastAPI's validation answer, and nothing ran.
          expectValidationShape(json);
          expect(sandbox.runs).toBe(runsBefore);
          return;
        }
        if (res.status !== 200) {
          expectErrorShape(res.status, json);
          if (route !== '/run_code') return;
          // A body /run_code cannot read is FastAPI's 422 there; a 400 is only rewardkit's own header.
          if (res.status === 400) expect(json.error.issues[0].path).toBe('headers.x-deadline-ms');
          expect(sandbox.runs).toBe(runsBefore);
          return;
        }
        expect(method).toBe('POST');
        expectAnswered(route, JSON.parse(body as string), json, recorded.flat(), sandbox.runs - runsBefore);
      }),
      500,
    );
  });
});

describe('inputs the HTTP property found', () => {
  test("should answer a group method's refusal of its row with the documented invalid_request", async () => {
    const res = await app.request('http://localhost/v1/groups', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        groups: [{ group: 0, samples: [{ id: 'a', response: '' }] }],
        method: 'afrl_stepwise',
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('field "step_rewards"') },
    });
  });
});
