import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { runCli, tempDir } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

let serving: ServeProcess | undefined;
afterEach(async () => {
  await serving?.stop('SIGKILL');
  serving = undefined;
});

describe('rewardkit serve: trainer contracts', () => {
  test('should answer OpenRLHF /get_reward with exactly its fields and store each result under the request id', async () => {
    const dir = tempDir();
    const storePath = join(dir, 'store.sqlite');
    serving = await startServe(['--spec', 'math'], { REWARDKIT_STORE: storePath });
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const prompt = '<|im_start|>user\nWhat is 8 * 9?<|im_end|>\n<|im_start|>assistant\n';
    const res = await postJson(
      `${serving.url}/get_reward`,
      {
        query: [`${prompt}8 * 9 = \\boxed{72}<|im_end|>`, `${prompt}It is \\boxed{71}.<|im_end|>`],
        prompts: [prompt, prompt],
        labels: ['72', '72'],
      },
      { 'X-Request-Id': 'step-7' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('step-7');
    expect(res.text).toBe(
      '{"rewards":[1,0],"scores":[1,0],"extra_logs":{"math":[1,0],"failed":[0,0],"invalid":[0,0]}}',
    );

    const health = await fetch(`${serving.url}/healthz`);
    const { run } = (await health.json()) as { run: string };
    expect((await serving.stop()).code).toBe(0);
    serving = undefined;
    const env = { REWARDKIT_STORE: storePath };
    const listed = await runCli(['runs', 'list'], { env });
    expect(listed.stdout).toContain(`${run}  finished`);
    expect(listed.stdout).toContain('serve:math');
    const shown = JSON.parse((await runCli(['runs', 'show', run, '--request', 'step-7'], { env })).stdout);
    expect(shown.summary).toMatchObject({ rows: 2, failed: 0 });
    expect(shown.request.results.map((r: { id: string; reward: number }) => [r.id, r.reward])).toEqual([
      ['step-7-0', 1],
      ['step-7-1', 0],
    ]);
  });

  test('should have committed what it answered before the answer, on the store thread or inline', async () => {
    for (const writer of ['thread', 'inline']) {
      const storePath = join(tempDir(), 'store.sqlite');
      serving = await startServe(['--spec', 'math'], {
        REWARDKIT_STORE: storePath,
        ...(writer === 'inline' && { REWARDKIT_STORE_WRITER: 'inline' }),
      });
      const body = { query: ['#### 4', '#### 5'], prompts: ['', ''], labels: ['4', '4'] };
      for (let i = 0; i < 5; i++) {
        expect((await postJson(`${serving.url}/get_reward`, body, { 'X-Request-Id': `w${i}` })).status).toBe(
          200,
        );
        // Read while the server runs, through a connection of our own: the rows are there already.
        const store = openSqliteStore(storePath);
        try {
          const [run] = await store.listRuns();
          const saved = await store.listResults(run?.id as string, { requestId: `w${i}` });
          expect([writer, saved.map((r) => [r.id, r.reward])]).toEqual([
            writer,
            [
              [`w${i}-0`, 1],
              [`w${i}-1`, 0],
            ],
          ]);
        } finally {
          await store.close();
        }
      }
      expect((await serving.stop()).code).toBe(0);
      serving = undefined;
    }
  });

  test('should keep the text and reference each stored result judged, unless --no-sample-text', async () => {
    const prompt = 'What is 2+2? ';
    const body = { query: [`${prompt}#### 4`], prompts: [prompt], labels: ['4'] };
    for (const keep of [true, false]) {
      const storePath = join(tempDir(), 'store.sqlite');
      serving = await startServe(['--spec', 'math', ...(keep ? [] : ['--no-sample-text'])], {
        REWARDKIT_STORE: storePath,
      });
      expect((await postJson(`${serving.url}/get_reward`, body, { 'X-Request-Id': 'r' })).status).toBe(200);
      expect((await serving.stop()).code).toBe(0);
      serving = undefined;
      const store = openSqliteStore(storePath);
      try {
        const [run] = await store.listRuns();
        const text = await store.getSampleText(run?.id as string, 'r-0');
        expect(text).toEqual(keep ? { prompt, response: '#### 4', reference: '4' } : undefined);
      } finally {
        await store.close();
      }
    }
  });

  // Python and bash under /run_code need bubblewrap; the refusal without it is the next test's.
  test.skipIf(!bubblewrapWorks())(
    'should answer SandboxFusion /run_code in its shape: exit codes, TimeLimitExceeded, unsupported and unknown languages',
    async () => {
      // Upstream's executor_pod_name is its pod's $MY_POD_NAME.
      serving = await startServe(['--spec', 'math'], { MY_POD_NAME: 'pod-e2e' });
      const ok = await postJson(`${serving.url}/run_code`, {
        code: 'import sys\nprint(sys.stdin.read().strip()[::-1])',
        language: 'python',
        stdin: 'abc',
        compile_timeout: 10,
        run_timeout: 10,
        memory_limit_MB: 256,
        files: {},
        fetch_files: [],
      });
      expect(ok.status).toBe(200);
      expect(ok.json()).toEqual({
        status: 'Success',
        message: '',
        compile_result: null,
        run_result: {
          status: 'Finished',
          execution_time: expect.any(Number),
          return_code: 0,
          stdout: 'cba\n',
          stderr: '',
        },
        executor_pod_name: 'pod-e2e',
        files: {},
      });
      const slow = await postJson(`${serving.url}/run_code`, {
        code: 'while True:\n    pass',
        language: 'python',
        run_timeout: 1,
      });
      expect(slow.json()).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
      const exit = await postJson(`${serving.url}/run_code`, {
        code: 'exit 3',
        language: 'bash',
        memory_limit_MB: -1,
      });
      expect(exit.json()).toMatchObject({
        status: 'Failed',
        run_result: { status: 'Finished', return_code: 3 },
      });
      // A SandboxFusion language rewardkit does not run: answered, as upstream answers a sandbox fault.
      const julia = await postJson(`${serving.url}/run_code`, { code: 'println(1)', language: 'julia' });
      expect(julia.status).toBe(200);
      expect(julia.json()).toMatchObject({ status: 'SandboxError', run_result: null });
      const cobol = await postJson(`${serving.url}/run_code`, { code: 'x', language: 'cobol' });
      expect(cobol.status).toBe(422);
      expect(cobol.json()).toMatchObject({ detail: [{ loc: ['body', 'language'], type: 'literal_error' }] });
    },
  );

  test('should refuse Python without bubblewrap unless --allow-unsafe-code', async () => {
    const program = { code: 'print(6 * 7)', language: 'python' };
    // No bwrap on this PATH: the sandbox finds no OS isolation.
    serving = await startServe(['--spec', 'math'], { PATH: '/nonexistent' });
    const refused = await postJson(`${serving.url}/run_code`, program);
    expect(refused.json()).toMatchObject({ status: 'SandboxError', run_result: null });
    expect((refused.json() as { message: string }).message).toMatch(/bubblewrap.*--allow-unsafe-code/);
    await serving.stop();
    serving = await startServe(['--spec', 'math', '--allow-unsafe-code'], { PATH: '/nonexistent' });
    const unsafe = await postJson(`${serving.url}/run_code`, program);
    expect(unsafe.json()).toMatchObject({ status: 'Success', run_result: { stdout: '42\n' } });
  });

  test('should score native /v1/rewards samples with the default spec routes', async () => {
    serving = await startServe([]);
    const res = await postJson(`${serving.url}/v1/rewards`, {
      samples: [
        { id: 'm', data_source: 'gsm8k', response: 'so #### 72', reference: '72' },
        { id: 'r', response: 'Paris', reference: 'paris' },
      ],
    });
    const body = res.json() as { request_id: string; results: Array<{ id: string; reward: number }> };
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
    expect(body.results.map((r) => [r.id, r.reward])).toEqual([
      ['m', 1],
      ['r', 1],
    ]);
  });
});

describe('rewardkit serve: auth and request errors', () => {
  test('should answer 401 without the token, 413 over --max-body and 400 naming the field', async () => {
    // Repeated --token flags win over the environment's list.
    serving = await startServe(
      ['--spec', 'math', '--max-body', '2kb', '--token', 'tok-a', '--token', 'tok-b'],
      {
        REWARDKIT_SERVER_TOKENS: 'tok-env',
      },
    );
    const sample = { samples: [{ id: 'a', response: '1', reference: '1' }] };
    expect((await fetch(`${serving.url}/healthz`)).status).toBe(200);
    const anonymous = await postJson(`${serving.url}/v1/rewards`, sample);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect(
      (await postJson(`${serving.url}/v1/rewards`, sample, { Authorization: 'Bearer tok-env' })).status,
    ).toBe(401);
    const auth = { Authorization: 'Bearer tok-b' };
    expect((await postJson(`${serving.url}/v1/rewards`, sample, auth)).status).toBe(200);
    const big = await postJson(
      `${serving.url}/v1/rewards`,
      { samples: [{ id: 'a', response: 'x'.repeat(5000) }] },
      auth,
    );
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const bad = await postJson(
      `${serving.url}/v1/rewards`,
      { samples: [{ id: 'a', response: '1' }, { id: 'b' }] },
      auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({
      error: { code: 'invalid_request', issues: [{ path: 'samples.1.response' }] },
    });
    const metrics = await fetch(`${serving.url}/metrics`, { headers: auth });
    expect(await metrics.text()).toContain(
      'rewardkit_http_requests_total{route="/v1/rewards",status="413"} 1',
    );
  });

  test('should explain itself in --help and refuse a bad flag', async () => {
    const help = await runCli(['serve', '--help']);
    expect(help.stdout).toContain('--group-method');
    expect(help.stdout).toContain('/get_reward');
    const bad = await runCli(['serve', '--max-body', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-body takes a size');
  });
});
