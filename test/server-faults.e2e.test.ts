import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from './scripted-openai-server.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

let judge: ScriptedOpenAIServer;
let serving: ServeProcess | undefined;
beforeEach(async () => {
  judge = await startScriptedOpenAIServer();
});
afterEach(async () => {
  await serving?.stop('SIGKILL');
  serving = undefined;
  await judge.close();
});

const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['clear'], critique: 'ok', score_1: one, score_2: two });

/** A server whose spec is a GenRM judge behind the scripted OpenAI server. */
async function judgeServer(extraArgs: string[] = [], against: 'reference' | 'group' = 'reference') {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'models.yaml'),
    `models:\n  judge:\n    model: scripted-judge\n    base_url: ${judge.url}\n    max_retries: 0\n`,
  );
  writeFileSync(
    join(dir, 'spec.yaml'),
    `name: judged\nsources:\n  - kind: genrm\n    params: {model: judge, reasks: 0, against: ${against}}\n`,
  );
  const storePath = join(dir, 'store.sqlite');
  serving = await startServe(
    [
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--store',
      storePath,
      ...extraArgs,
    ],
    {},
  );
  return { url: serving.url, storePath };
}

const sample = (id: string, response: string) => ({
  id,
  prompt: 'Write a line about rain.',
  response,
  reference: 'REF',
});
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
};

describe('rewardkit serve under load and faults', () => {
  test('should answer 429 with Retry-After while the queue is saturated, and 504 at the deadline with the work recorded', async () => {
    judge.script(
      { match: { contains: 'HOLD' }, reply: { hang: true } },
      { reply: { content: scores(6, 4) } },
    );
    const { url, storePath } = await judgeServer(['--concurrency', '1', '--max-queue', '0']);
    const held = postJson(
      `${url}/v1/rewards`,
      { samples: [sample('held', 'HOLD')] },
      {
        'X-Deadline-Ms': '1500',
        'X-Request-Id': 'held-req',
      },
    );
    await until(() => judge.requests.length >= 1);
    const refused = await postJson(`${url}/v1/rewards`, { samples: [sample('later', 'fine')] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({ error: { code: 'queue_full' } });

    const timedOut = await held;
    expect(timedOut.status).toBe(504);
    expect(timedOut.json()).toMatchObject({
      error: { code: 'deadline_exceeded', finished: 0, total: 1 },
      request_id: 'held-req',
    });
    // The worker is free again.
    const after = await postJson(`${url}/v1/rewards`, { samples: [sample('after', 'fine')] });
    expect(after.status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('rewardkit_failures_total{kind="queue_full"} 1');
    expect(metrics).toContain('rewardkit_failures_total{kind="deadline"} 1');
    expect(metrics).toMatch(/rewardkit_llm_calls_total [1-9]/);

    const { run } = (await (await fetch(`${url}/healthz`)).json()) as { run: string };
    expect((await serving?.stop())?.code).toBe(0);
    serving = undefined;
    const shown = JSON.parse(
      (await runCli(['runs', 'show', run, '--request', 'held-req'], { env: { REWARDKIT_STORE: storePath } }))
        .stdout,
    );
    expect(shown.request.results).toHaveLength(1);
    expect(shown.request.results[0]).toMatchObject({ id: 'held', status: 'failed', reward: null });
    expect(shown.request.results[0].errors[0]).toMatch(/deadline of 1500 ms exceeded/);
  });

  test('should abort the work of a client that disconnects and go on serving others', async () => {
    judge.script(
      { match: { contains: 'HOLD' }, reply: { hang: true } },
      { reply: { content: scores(6, 4) } },
    );
    const { url } = await judgeServer(['--concurrency', '2']);
    const controller = new AbortController();
    const gone = postJson(`${url}/v1/rewards`, { samples: [sample('gone', 'HOLD')] }, {}, controller.signal);
    await until(() => judge.requests.length >= 1);
    controller.abort();
    await expect(gone).rejects.toThrow();
    const metricsText = async () => (await fetch(`${url}/metrics`)).text();
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await metricsText();
      if (text.includes('rewardkit_failures_total{kind="disconnect"} 1')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(text).toContain('rewardkit_failures_total{kind="disconnect"} 1');
    expect(text).toContain('rewardkit_jobs_in_flight 0');
    const ok = await postJson(`${url}/v1/rewards`, { samples: [sample('next', 'fine')] });
    expect(ok.status).toBe(200);
    // The scripted judge favours position 1 in both orders: inconsistent, so the GenRM's 0.5.
    expect(ok.json()).toMatchObject({ results: [{ id: 'next', status: 'ok', reward: 0.5 }] });
  });

  test('should answer each judgment with its calls, and with --no-traces only their usage', async () => {
    judge.script({ reply: { content: scores(8, 3) } });
    const callsOf = (body: unknown) =>
      (body as { results: Array<{ evidence: Array<{ calls?: Array<{ order: string }> }> }> }).results[0]
        ?.evidence[0]?.calls;
    const traced = await judgeServer();
    const answer = await postJson(`${traced.url}/v1/rewards`, { samples: [sample('a', 'fine')] });
    expect(callsOf(answer.json())?.map((c) => c.order)).toEqual(['forward', 'backward']);
    await serving?.stop();
    const lean = await judgeServer(['--no-traces']);
    const leanAnswer = await postJson(`${lean.url}/v1/rewards`, { samples: [sample('b', 'fine')] });
    expect(leanAnswer.json()).toMatchObject({ results: [{ evidence: [{ usage: { calls: 2 } }] }] });
    expect(callsOf(leanAnswer.json())).toBeUndefined();
  });

  test('should record a judge backend that is down as an invalid component, with the reward per policy', async () => {
    judge.script({ reply: { status: 503, error: 'overloaded' } });
    const { url } = await judgeServer(['--failed-reward', '-1']);
    const native = await postJson(`${url}/v1/rewards`, { samples: [sample('a', 'fine')] });
    const result = (native.json() as { results: Array<Record<string, unknown>> }).results[0];
    expect(result).toMatchObject({ status: 'failed', reward: null, components: { genrm: null } });
    expect(result?.evidence).toMatchObject([{ source: 'genrm', verdict: 'error', invalid: true }]);
    expect(String(result?.errors)).toMatch(/genrm/);
    const openrlhf = await postJson(`${url}/get_reward`, {
      query: ['Q: rain? fine'],
      prompts: ['Q: rain? '],
      labels: ['REF'],
    });
    expect(openrlhf.json()).toEqual({
      rewards: [-1],
      scores: [0],
      extra_logs: { genrm: [0], failed: [1], invalid: [1] },
    });
  });

  test('should finish an in-flight request on SIGTERM, then exit 0', async () => {
    judge.script({ reply: { content: scores(7, 3) }, delayMs: 1200 });
    const { url } = await judgeServer();
    const inFlight = postJson(`${url}/v1/rewards`, { samples: [sample('slow', 'fine')] });
    await until(() => judge.requests.length >= 1);
    serving?.child.kill('SIGTERM');
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.json()).toMatchObject({ results: [{ id: 'slow', status: 'ok' }] });
    const exit = await serving?.exited;
    expect(exit?.code).toBe(0);
    expect(serving?.stderr()).toMatch(/SIGTERM: no new requests; finishing 1 in flight/);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    serving = undefined;
  });

  test('should compare the rollouts of each group with the pairwise judge and shape them with GRPO', async () => {
    const rank: Record<string, number> = { STRONG: 3, MEDIUM: 2, WEAK: 1 };
    judge.script(
      ...Object.keys(rank).flatMap((one) =>
        Object.keys(rank).map((two) => ({
          match: {
            contains: new RegExp(`<response-1-\\w+>\\n${one}\\n[\\s\\S]*<response-2-\\w+>\\n${two}\\n`),
          },
          reply: { content: scores(rank[one] ?? 0, rank[two] ?? 0) },
        })),
      ),
    );
    const { url } = await judgeServer([], 'group');
    const res = await postJson(`${url}/v1/groups`, {
      groups: [
        {
          group: 'p1',
          samples: ['STRONG', 'MEDIUM', 'WEAK'].map((r) => ({
            id: r,
            prompt: 'Write a line about rain.',
            response: r,
          })),
        },
      ],
    });
    expect(res.status).toBe(200);
    const [group] = (res.json() as { groups: Array<{ rewards: number[]; advantages: number[] }> }).groups;
    expect(group?.rewards).toEqual([1, 0.5, 0]);
    [1, 0, -1].forEach((a, i) => {
      expect(group?.advantages[i]).toBeCloseTo(a, 5);
    });
    // Every pair, both orders, and nothing else.
    expect(judge.requests).toHaveLength(6);
  });

  test('should shape a group with BRPO through the pairwise judge named by --group-judge', async () => {
    const rank: Record<string, number> = { STRONG: 3, MEDIUM: 2, WEAK: 1, WORST: 0 };
    judge.script(
      ...Object.keys(rank).flatMap((one) =>
        Object.keys(rank).map((two) => ({
          match: {
            contains: new RegExp(`<response-1-\\w+>\\n${one}\\n[\\s\\S]*<response-2-\\w+>\\n${two}\\n`),
          },
          reply: { content: scores(rank[one] ?? 0, rank[two] ?? 0) },
        })),
      ),
    );
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${judge.url}\n    max_retries: 0\n`,
    );
    writeFileSync(join(dir, 'spec.yaml'), 'name: cheap\nsources:\n  - {kind: length, params: {max: 100}}\n');
    serving = await startServe([
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--store',
      join(dir, 'store.sqlite'),
      '--group-judge',
      'judge',
    ]);
    const responses = ['STRONG', 'MEDIUM', 'WEAK', 'WORST'];
    const res = await postJson(`${serving.url}/v1/groups`, {
      method: 'brpo',
      seed: 3,
      groups: [
        {
          group: 'p1',
          samples: responses.map((r) => ({
            id: `brpo-${r}`,
            prompt: 'Write a line about rain.',
            response: r,
          })),
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const [group] = (
      res.json() as {
        groups: Array<{ advantages: number[]; filtered?: boolean; detail: { reference_index: number } }>;
      }
    ).groups;
    // BRPO: +1 for a rollout that beats the seeded reference in both orders, -1 otherwise, 0 for
    // the reference; the group is dropped when |sum R| / G > 0.6.
    const ref = group?.detail.reference_index as number;
    const refRank = rank[responses[ref] as string] as number;
    const expected: number[] = responses.map((r, i) =>
      i === ref ? 0 : (rank[r] as number) > refRank ? 1 : -1,
    );
    const skewed = Math.abs(expected.reduce((a, b) => a + b, 0)) / responses.length > 0.6;
    expect(group?.filtered ?? false).toBe(skewed);
    expect(group?.advantages).toEqual(skewed ? [0, 0, 0, 0] : expected);
    // Each other rollout against the reference, in both orders.
    expect(judge.requests).toHaveLength(2 * (responses.length - 1));
    for (const request of judge.requests)
      expect(JSON.stringify(request.body.messages)).toContain(`\\n${responses[ref]}\\n`);
  });
});
