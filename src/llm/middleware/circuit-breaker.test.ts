import { describe, expect, it } from 'vitest';
import { BackendDownError } from '../backend-down-error.js';
import { type ChatModel, ChatModelError, type ChatRequest } from '../chat-model.js';
import { createCircuitBreaker } from './circuit-breaker.js';

const ask: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
const endpoint = 'http://judge:***@10.0.0.1:8000/v1';

/** A model that plays `script` in turn: `ok`, a retryable failure (`down`) or a 400 (`bad`). */
function scripted(script: Array<'ok' | 'down' | 'bad'>, name = 'judge'): ChatModel & { calls: number } {
  const model = {
    name,
    calls: 0,
    async complete() {
      const step = script[Math.min(model.calls++, script.length - 1)];
      if (step === 'down') {
        const reason = `${endpoint}: connection failed: ECONNREFUSED`;
        throw new ChatModelError(reason, [reason], { isRetryable: true, endpoint });
      }
      if (step === 'bad')
        throw new ChatModelError('HTTP 400', ['HTTP 400'], { isRetryable: false, status: 400, endpoint });
      return {
        content: 'ok',
        finishReason: 'stop' as const,
        usage: { promptTokens: 1, completionTokens: 1 },
        model: name,
        endpoint,
        latencyMs: 1,
        retries: 0,
      };
    },
  };
  return model;
}

const settle = (model: ChatModel, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      model.complete(ask).then(
        () => 'ok',
        (e: Error) => e,
      ),
    ),
  );

describe('createCircuitBreaker', () => {
  it('opens after N transport failures in a row, naming the endpoint and the last error, and aborts its signal', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 3 });
    const inner = scripted(['down']);
    const model = breaker.middleware(inner);
    for (let i = 0; i < 2; i++)
      await expect(model.complete(ask)).rejects.not.toBeInstanceOf(BackendDownError);
    expect(breaker.opened).toBeUndefined();
    expect(breaker.signal.aborted).toBe(false);
    const third = await model.complete(ask).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(BackendDownError);
    expect(breaker.opened).toBe(third);
    expect(breaker.signal.aborted).toBe(true);
    expect(breaker.signal.reason).toBe(third);
    expect((third as BackendDownError).message).toBe(
      `the backend is down: 3 calls in a row failed, the last to model "judge" at ${endpoint}: connection failed: ECONNREFUSED`,
    );
    expect((third as BackendDownError).endpoint).toBe(endpoint);
  });

  it('fails every call at once while open, without calling the backend', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 1 });
    const inner = scripted(['down', 'ok']);
    const model = breaker.middleware(inner);
    await expect(model.complete(ask)).rejects.toBeInstanceOf(BackendDownError);
    await expect(model.complete(ask)).rejects.toBe(breaker.opened);
    expect(inner.calls).toBe(1);
  });

  it('counts across every model it wraps', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 2 });
    const a = breaker.middleware(scripted(['down'], 'a'));
    const b = breaker.middleware(scripted(['down'], 'b'));
    await expect(a.complete(ask)).rejects.not.toBeInstanceOf(BackendDownError);
    const error = await b.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendDownError);
    expect((error as BackendDownError).model).toBe('b');
  });

  it('is reset by any answer and by a failure the backend answered for (4xx)', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 2 });
    const model = breaker.middleware(scripted(['down', 'ok', 'down', 'bad', 'down', 'ok']));
    expect(await settle(model, 1)).not.toContain('ok');
    expect(await settle(model, 1)).toEqual(['ok']);
    await settle(model, 3);
    expect(breaker.opened).toBeUndefined();
  });

  it('leaves aborted calls and errors that are not backend failures out of the count', async () => {
    const breaker = createCircuitBreaker({ maxConsecutiveFailures: 1 });
    const controller = new AbortController();
    controller.abort();
    const down = breaker.middleware(scripted(['down']));
    await expect(down.complete({ ...ask, signal: controller.signal })).rejects.toBeInstanceOf(ChatModelError);
    const broken = breaker.middleware({
      name: 'x',
      complete: async () => {
        throw new TypeError('a bug');
      },
    });
    await expect(broken.complete(ask)).rejects.toBeInstanceOf(TypeError);
    expect(breaker.opened).toBeUndefined();
  });
});
