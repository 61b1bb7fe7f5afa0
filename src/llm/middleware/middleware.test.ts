import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { caching, withResponseCache } from '../cached-model.js';
import { type ChatModel, ChatModelError, type ChatRequest, type ChatResponse } from '../chat-model.js';
import { createEndpointLimits } from '../endpoint-limits.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { droppingRejectedThinking } from './dropping-rejected-thinking.js';
import { endpointLimited } from './endpoint-limited.js';
import { type ChatCallEvent, logging } from './logging.js';
import { retrying } from './retrying.js';
import { rotatingEndpoints } from './rotating-endpoints.js';

const answer = (content: string, extra: Partial<ChatResponse> = {}): ChatResponse => ({
  content,
  finishReason: 'stop',
  usage: { promptTokens: 10, completionTokens: 5 },
  model: 'm',
  endpoint: 'e',
  latencyMs: 1,
  retries: 0,
  ...extra,
});

/** A model that plays `script` in turn: an answer, or an error to throw. */
function scripted(script: Array<string | ChatModelError>, seen: ChatRequest[] = []): ChatModel {
  let i = 0;
  return {
    name: 'm',
    async complete(request) {
      seen.push(request);
      const step = script[Math.min(i++, script.length - 1)];
      if (step instanceof ChatModelError) throw step;
      return answer(step as string);
    },
  };
}
const fail = (reason: string, isRetryable: boolean, status?: number) =>
  new ChatModelError(reason, [reason], { isRetryable, ...(status !== undefined && { status }) });
const ask: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
const noWait = { sleep: async () => {} };

describe("a model's ready check through its layers", () => {
  // A local model whose package is missing: every layer must still let commands ask it first.
  const missing = new Error('node-llama-cpp is not installed');
  const local: ChatModel = {
    name: 'local',
    complete: async () => answer('never'),
    ready: async () => {
      throw missing;
    },
  };
  const cache = { getCachedResponse: async () => undefined, putCachedResponse: async () => {} };

  it('is kept by retries, logging, the response cache and the circuit breaker', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 3 });
    const wrapped = [
      wrapChatModel(local, [logging(() => {}), retrying({ maxRetries: 1 })]),
      wrapChatModel(local, [caching(cache)]),
      withResponseCache(local, cache),
      breaker.middleware(wrapChatModel(local, [retrying()])),
    ];
    for (const model of wrapped) await expect(model.ready?.()).rejects.toBe(missing);
  });

  it('stays absent for a model with nothing to check', () => {
    const remote: ChatModel = { name: 'remote', complete: async () => answer('ok') };
    expect(wrapChatModel(remote, [retrying(), caching(cache)]).ready).toBeUndefined();
  });
});

describe('wrapChatModel', () => {
  it('applies middleware with the first listed outermost', async () => {
    const order: string[] = [];
    const tag =
      (name: string) =>
      (model: ChatModel): ChatModel => ({
        name: model.name,
        async complete(request) {
          order.push(`${name}>`);
          const r = await model.complete(request);
          order.push(`<${name}`);
          return r;
        },
      });
    await wrapChatModel(scripted(['ok']), [tag('outer'), tag('inner')]).complete(ask);
    expect(order).toEqual(['outer>', 'inner>', '<inner', '<outer']);
  });
});

describe('retrying', () => {
  it('retries what may pass, counts the failed tries on the answer', async () => {
    const model = retrying(noWait)(scripted([fail('HTTP 500', true), fail('HTTP 429', true), 'ok']));
    expect(await model.complete(ask)).toMatchObject({ content: 'ok', retries: 2 });
  });

  it('stops at once on what cannot pass, keeping the reason', async () => {
    const seen: ChatRequest[] = [];
    const model = retrying(noWait)(scripted([fail('HTTP 401: bad key', false, 401), 'ok'], seen));
    const error = await model.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ isRetryable: false, status: 401, attempts: ['HTTP 401: bad key'] });
    expect((error as Error).message).toMatch(/failed after 1 attempt\(s\): HTTP 401/);
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxRetries with every attempt listed', async () => {
    const model = retrying({ ...noWait, maxRetries: 2 })(scripted([fail('timed out', true)]));
    const error = (await model.complete(ask).catch((e: unknown) => e)) as ChatModelError;
    expect(error.attempts).toEqual(['timed out', 'timed out', 'timed out']);
    expect(error.isRetryable).toBe(true);
  });

  it('draws the same backoff for the same seed, within [b/2, b]', async () => {
    const waits = async (seed: number) => {
      const slept: number[] = [];
      const model = retrying({
        seed,
        maxRetries: 3,
        backoffBaseMs: 100,
        backoffMaxMs: 300,
        sleep: async (ms) => {
          slept.push(ms);
        },
      })(scripted([fail('x', true)]));
      await model.complete(ask).catch(() => {});
      return slept;
    };
    const a = await waits(7);
    expect(a).toEqual(await waits(7));
    expect(a).toHaveLength(3);
    const bounds = [100, 200, 300];
    a.forEach((ms, k) => {
      expect(ms).toBeGreaterThanOrEqual((bounds[k] as number) / 2);
      expect(ms).toBeLessThanOrEqual(bounds[k] as number);
    });
  });

  it('stops waiting when the caller aborts, leaving no listener behind', async () => {
    const controller = new AbortController();
    const model = retrying({ backoffBaseMs: 60_000, backoffMaxMs: 60_000 })(scripted([fail('x', true)]));
    const pending = model.complete({ ...ask, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 10);
    await expect(pending).rejects.toThrow('cancelled');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('rotatingEndpoints', () => {
  it('moves to the next endpoint after a failure and stays where an answer came from', async () => {
    const a: ChatRequest[] = [];
    const b: ChatRequest[] = [];
    const model = retrying(noWait)(
      rotatingEndpoints('m', [scripted([fail('down', true)], a), scripted(['from b'], b)]),
    );
    expect((await model.complete(ask)).content).toBe('from b');
    expect((await model.complete(ask)).content).toBe('from b');
    expect([a.length, b.length]).toEqual([1, 2]);
  });

  it('refuses a model with no endpoint', () => {
    expect(() => rotatingEndpoints('m', [])).toThrow(/no endpoints/);
  });
});

describe('droppingRejectedThinking', () => {
  it('asks again without the switch once, then leaves it out', async () => {
    const seen: ChatRequest[] = [];
    const model = droppingRejectedThinking()(
      scripted([fail('HTTP 400: unknown field chat_template_kwargs', false, 400), 'ok', 'ok'], seen),
    );
    await model.complete({ ...ask, enableThinking: false });
    await model.complete({ ...ask, enableThinking: false });
    expect(seen.map((r) => 'enableThinking' in r)).toEqual([true, false, false]);
  });

  it('passes other 400s through', async () => {
    const model = droppingRejectedThinking()(scripted([fail('HTTP 400: bad messages', false, 400)]));
    await expect(model.complete({ ...ask, enableThinking: true })).rejects.toThrow('bad messages');
  });
});

describe('endpointLimited', () => {
  it('charges the tokens a call used against the window', async () => {
    let clock = 0;
    const slept: number[] = [];
    const limits = createEndpointLimits({
      tokensPerMinute: 20,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    const model = endpointLimited(limits)(scripted(['a', 'b', 'c']));
    await model.complete(ask); // 15 tokens
    await model.complete(ask); // 30: over 20 once this one is charged
    await model.complete(ask); // must wait for the first minute's tokens to leave the window
    expect(slept.length).toBeGreaterThan(0);
  });
});

describe('logging', () => {
  it('reports answers and failures, and a broken sink changes nothing', async () => {
    const events: ChatCallEvent[] = [];
    const model = wrapChatModel(scripted(['ok', fail('HTTP 500', true)]), [
      logging(() => {
        throw new Error('log is down');
      }),
      logging((e) => events.push(e)),
    ]);
    expect((await model.complete(ask)).content).toBe('ok');
    await expect(model.complete(ask)).rejects.toThrow('HTTP 500');
    expect(events.map((e) => e.ok)).toEqual([true, false]);
    expect(events[1]).toMatchObject({ ok: false, attempts: ['HTTP 500'] });
  });
});

describe('caching', () => {
  it('answers a repeated request from the cache, outside the retries', async () => {
    const stored = new Map<string, string>();
    const cache = {
      getCachedResponse: async (key: string) => stored.get(key),
      putCachedResponse: async (key: string, value: string) => {
        stored.set(key, value);
      },
    };
    const seen: ChatRequest[] = [];
    const model = wrapChatModel(scripted([fail('HTTP 500', true), 'ok'], seen), [
      caching(cache),
      retrying(noWait),
    ]);
    expect(await model.complete(ask)).toMatchObject({ content: 'ok', retries: 1 });
    expect(await model.complete(ask)).toMatchObject({ content: 'ok', cached: true });
    expect(seen).toHaveLength(2);
  });
});
