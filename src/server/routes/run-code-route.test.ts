import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createEvaluator, loadSpec } from '../../spec/index.js';
import { bubblewrapWorks, createCodeSandbox } from '../../verify/code/index.js';
import { createRewardApp } from '../create-reward-app.js';
import { DEFAULT_SERVER_OPTIONS, type RunCodeServerLimits } from '../server-options.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and asserted
type Json = any;
const read = (res: Response): Promise<Json> => res.json();
const hasBwrap = bubblewrapWorks();
const sandbox = createCodeSandbox();

function appFor(
  options: { concurrency?: number; maxQueue?: number; runCode?: Partial<RunCodeServerLimits> } = {},
) {
  const built = createRewardApp({
    evaluator: createEvaluator(loadSpec('math')),
    codeSandbox: () => sandbox,
    options: {
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.maxQueue !== undefined && { maxQueue: options.maxQueue }),
      runCode: { ...DEFAULT_SERVER_OPTIONS.runCode, ...options.runCode },
    },
  });
  const post = (
    body: unknown,
    init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> =>
    Promise.resolve(
      built.app.request('http://localhost/run_code', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
        body: JSON.stringify(body),
        ...(init.signal && { signal: init.signal }),
      }),
    );
  return { ...built, post };
}

/**
 * The body verl sends (`call_sandbox_api` in verl/utils/reward_score/sandbox_fusion/utils.py at
 * b178a3c): every field, integer timeouts (compile and run both get the case's timeout), stdin a
 * string or null, memory from its config (1024 by default; SandboxFusion's own default is -1).
 */
const verlPayload = (
  code: string,
  stdin: string | null,
  language = 'python',
  memory = 1024,
  timeout = 10,
) => ({
  compile_timeout: timeout,
  run_timeout: timeout,
  code,
  stdin,
  memory_limit_MB: memory,
  language,
  files: {},
  fetch_files: [],
});

/**
 * How verl's `_process_single_case` scores one answer: true/false for a finished run, -1 for a
 * sandbox or API error, -2 for a runtime error, -3 for a time limit, -4 for a compile error.
 */
function verlCaseResult(response: Json, expected: string | null): boolean | number {
  const compile = response.compile_result;
  const run = response.run_result;
  if (response.status === 'SandboxError') return -1;
  if (response.status === 'Failed') {
    if (compile && (compile.status !== 'Finished' || compile.return_code !== 0)) return -4;
    if (!run) return -1;
    if (run.status === 'TimeLimitExceeded') return -3;
    if (run.status === 'Error' || (run.status === 'Finished' && run.return_code !== 0)) return -2;
    return -1;
  }
  if (response.status === 'Success') {
    if (run?.status !== 'Finished') return -1;
    return expected === null || String(run.stdout ?? '').replace(/\n+$/, '') === expected.replace(/\n+$/, '');
  }
  return -1;
}

describe.skipIf(!hasBwrap)("POST /run_code as verl's sandbox_fusion client calls it", () => {
  test.each([
    ['a right answer', verlPayload('print(int(input()) * 2)', '21'), '42', true],
    ['a wrong answer', verlPayload('print(int(input()) * 3)', '21'), '42', false],
    ['a runtime error', verlPayload('raise SystemExit(2)', null), '42', -2],
    ['a time limit', verlPayload('while True: pass', null, 'python', 1024, 1), '42', -3],
    ['a compile error', verlPayload('int main( {', null, 'cpp'), '42', -4],
    ["SandboxFusion's default memory (-1)", verlPayload('print(42)', null, 'python', -1), '42', true],
    [
      'JavaScript on Node',
      verlPayload("console.log(require('fs').readFileSync(0,'utf8').trim())", '42', 'nodejs'),
      '42',
      true,
    ],
  ])('should score %s as verl expects', async (_, payload, expected, verdict) => {
    const res = await appFor().post(payload);
    expect(res.status).toBe(200);
    expect(verlCaseResult(await read(res), expected)).toBe(verdict);
  });

  test('should take float timeouts', async () => {
    const res = await appFor().post({
      code: 'print(1)',
      language: 'python',
      run_timeout: 2.5,
      compile_timeout: 0.5,
    });
    expect(await read(res)).toMatchObject({ status: 'Success' });
  });

  test('should lower timeouts and memory to the server limits and say so in a header', async () => {
    const { post } = appFor({ runCode: { maxRunTimeoutS: 5, maxMemoryMb: 256 } });
    const res = await post({
      code: 'print(1)',
      language: 'python',
      run_timeout: 3600,
      memory_limit_MB: 8192,
    });
    expect(await read(res)).toMatchObject({ status: 'Success' });
    expect(res.headers.get('x-rewardkit-capped')).toBe('run_timeout=3600->5, memory_limit_MB=8192->256');
  });

  test('should wait for a worker when the queue is full instead of answering 429', async () => {
    const { post, queue } = appFor({ concurrency: 1, maxQueue: 0 });
    const slow = post({ code: 'sleep 0.5; echo slow', language: 'bash' });
    await until(() => queue.inFlight() === 1);
    const queued = post({ code: 'echo queued', language: 'bash' });
    const [a, b] = await Promise.all([slow, queued]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await read(b)).run_result.stdout).toBe('queued\n');
  });

  test('should answer 504, which verl retries, when no worker frees up before the deadline', async () => {
    const { post, queue } = appFor({ concurrency: 1, maxQueue: 0 });
    const slow = post({ code: 'sleep 1', language: 'bash' });
    await until(() => queue.inFlight() === 1);
    const queued = await post(
      { code: 'echo late', language: 'bash' },
      { headers: { 'X-Deadline-Ms': '200' } },
    );
    expect(queued.status).toBe(504);
    expect((await read(queued)).error.code).toBe('queue_timeout');
    expect((await slow).status).toBe(200);
  });

  test('should refuse with 429 when configured to', async () => {
    const { post, queue } = appFor({ concurrency: 1, maxQueue: 0, runCode: { whenFull: 'refuse' } });
    const slow = post({ code: 'sleep 0.5', language: 'bash' });
    await until(() => queue.inFlight() === 1);
    expect((await post({ code: 'true', language: 'bash' })).status).toBe(429);
    await slow;
  });

  test('should kill the sandbox at the request deadline', async () => {
    const marker = `rk-deadline-${process.pid}`;
    const res = await appFor().post(
      { code: `exec -a ${marker} sleep 30`, language: 'bash', run_timeout: 30 },
      { headers: { 'X-Deadline-Ms': '300' } },
    );
    expect(res.status).toBe(504);
    expect((await read(res)).error.code).toBe('deadline_exceeded');
    await expectNoProcess(marker);
  });

  test('should kill the sandbox when the client goes away', async () => {
    const marker = `rk-disconnect-${process.pid}`;
    const controller = new AbortController();
    const answer = appFor().post(
      { code: `exec -a ${marker} sleep 30`, language: 'bash', run_timeout: 30 },
      { signal: controller.signal },
    );
    await waitForProcess(marker);
    controller.abort();
    const res = await answer.catch((error: unknown) => error);
    if (res instanceof Response) expect(res.status).toBe(499);
    await expectNoProcess(marker);
  });

  test('should keep /healthz answering while a program spins', async () => {
    const { app, post } = appFor();
    const order: string[] = [];
    const spinning = post({ code: 'for(;;){}', language: 'nodejs', run_timeout: 1 }).then(() =>
      order.push('run_code'),
    );
    await Promise.resolve(app.request('http://localhost/healthz')).then(() => order.push('healthz'));
    await spinning;
    expect(order).toEqual(['healthz', 'run_code']);
  });
});

describe('POST /run_code with a bad body', () => {
  test.each([
    [
      { code: 'x', language: 'cobol' },
      ['body', 'language'],
      'literal_error',
      /^Input should be 'python', 'cpp', .* or 'racket'$/,
    ],
    [
      { code: 'x', language: 'python', files: { 'a.txt': 'not base64!' } },
      ['body', 'files', 'a.txt'],
      'value_error',
      /^Value error, the content is not valid base64$/,
    ],
    [
      { code: 'x', language: 'python', files: { '../x': 'eA==' } },
      ['body', 'files', '../x'],
      'value_error',
      /^Value error, a file path must be relative/,
    ],
    [
      { code: 'x', language: 'python', fetch_files: [''] },
      ['body', 'fetch_files', 0],
      'value_error',
      /non-empty/,
    ],
    [
      { code: 'x', language: 'python', run_timeout: -1 },
      ['body', 'run_timeout'],
      'greater_than',
      /^Input should be greater than 0$/,
    ],
    [
      { code: 'x', language: 'python', run_timeout: '5s' },
      ['body', 'run_timeout'],
      'float_type',
      /^Input should be a valid number$/,
    ],
    [
      { code: 'x', language: 'python', memory_limit_MB: 1.5 },
      ['body', 'memory_limit_MB'],
      'int_type',
      /^Input should be a valid integer$/,
    ],
    [{ code: 7, language: 'python' }, ['body', 'code'], 'string_type', /^Input should be a valid string$/],
    [
      { code: 'x', language: 'python', fetch_files: 'a' },
      ['body', 'fetch_files'],
      'list_type',
      /^Input should be a valid list$/,
    ],
    [{ language: 'python' }, ['body', 'code'], 'missing', /^Field required$/],
    [[1], ['body'], 'model_type', /^Input should be a valid dictionary or instance of RunCodeRequest$/],
  ])("should answer 422 in FastAPI's shape (%j)", async (body, loc, type, msg) => {
    const res = await appFor().post(body);
    expect(res.status).toBe(422);
    const answer = await read(res);
    expect(Object.keys(answer)).toEqual(['detail']);
    expect(answer.detail).toHaveLength(1);
    expect(answer.detail[0]).toMatchObject({ loc, type, msg: expect.stringMatching(msg) });
  });

  test('should name every bad field, as pydantic does, without echoing the input', async () => {
    const res = await appFor().post({ language: 'cobol', stdin: 3, files: { 'a.txt': 'secret!' } });
    expect(res.status).toBe(422);
    const { detail } = await read(res);
    expect(detail.map((d: Json) => d.loc.join('.')).sort()).toEqual([
      'body.code',
      'body.files.a.txt',
      'body.language',
      'body.stdin',
    ]);
    expect(JSON.stringify(detail)).not.toContain('secret!');
  });

  test.each([
    ['{"code": ', 'JSON decode error', ['body', 9]],
    ['', 'Field required', ['body']],
  ])('should answer a body that is not a request (%j) with 422 as FastAPI does', async (text, msg, loc) => {
    const { app } = appFor();
    const res = await app.request('http://localhost/run_code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(422);
    expect((await read(res)).detail).toEqual([expect.objectContaining({ msg, loc })]);
  });

  test('should keep the native routes at 400 with their own shape', async () => {
    const { app } = appFor();
    const res = await app.request('http://localhost/v1/rewards', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ samples: [{ id: 'a' }] }),
    });
    expect(res.status).toBe(400);
    expect(await read(res)).toMatchObject({
      error: { code: 'invalid_request', issues: [{ path: 'samples.0.response' }] },
    });
  });

  test("should fill executor_pod_name with the server's executor name, as upstream fills MY_POD_NAME", async () => {
    const program = { code: 'console.log(1)', language: 'nodejs' };
    const named = await read(await appFor({ runCode: { executorName: 'pod-7' } }).post(program));
    expect(named).toMatchObject({ status: 'Success', executor_pod_name: 'pod-7' });
    expect(await read(await appFor().post(program))).toMatchObject({ executor_pod_name: null });
  });

  test('should answer SandboxError for a SandboxFusion language rewardkit does not run', async () => {
    const res = await appFor().post({ code: 'println(1)', language: 'julia' });
    expect(res.status).toBe(200);
    expect(await read(res)).toMatchObject({
      status: 'SandboxError',
      run_result: null,
      compile_result: null,
    });
  });
});

const processesNamed = (marker: string) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(marker);
      } catch {
        return false;
      }
    });

/** Polls `condition` every 10 ms, for at most 10 s. */
async function until(condition: () => boolean) {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

async function waitForProcess(marker: string) {
  expect(await until(() => processesNamed(marker).length > 0)).toBe(true);
}

async function expectNoProcess(marker: string) {
  expect(await until(() => processesNamed(marker).length === 0)).toBe(true);
}
