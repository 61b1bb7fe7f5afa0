import { describe, expect, test } from 'vitest';
import { createOpenAICompatibleModel, withResponseCache } from '../src/llm/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const backend = () =>
  createOpenAICompatibleModel({
    name: 'judge',
    model: 'm',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });
const ask = { messages: [{ role: 'user' as const, content: 'Which is better?' }], temperature: 0 };

describe('response cache', () => {
  test('should answer a repeated request from the store', async () => {
    server.script({ reply: { content: 'A' } });
    const store = openSqliteStore(':memory:');
    const model = withResponseCache(backend(), store);
    const first = await model.complete(ask);
    const second = await model.complete(ask);
    expect(first.cached).toBeUndefined();
    expect(second).toMatchObject({ content: 'A', cached: true });
    expect(server.requests).toHaveLength(1);
    await store.close();
  });

  test('should merge identical requests in flight into one call', async () => {
    server.script({ reply: { content: 'A' }, delayMs: 50 });
    const store = openSqliteStore(':memory:');
    const model = withResponseCache(backend(), store);
    const answers = await Promise.all([model.complete(ask), model.complete(ask), model.complete(ask)]);
    expect(answers.map((a) => a.content)).toEqual(['A', 'A', 'A']);
    expect(server.requests).toHaveLength(1);
    await store.close();
  });

  test('should keep votes apart and not cache failures', async () => {
    server.script({ reply: { status: 500 }, times: 1 }, { reply: { content: 'A' } });
    const store = openSqliteStore(':memory:');
    const model = withResponseCache(backend(), store);
    await expect(model.complete(ask)).rejects.toThrow(/HTTP 500/);
    await model.complete(ask);
    await model.complete({ ...ask, variant: 1 });
    await model.complete({ ...ask, temperature: 0.7 });
    expect(server.requests).toHaveLength(4);
    await store.close();
  });

  test('should expire entries after the TTL', async () => {
    server.script({ reply: { content: 'A' } });
    const store = openSqliteStore(':memory:');
    let clock = 1_000;
    const model = withResponseCache(backend(), store, { ttlMs: 500, now: () => clock });
    await model.complete(ask);
    clock += 499;
    expect((await model.complete(ask)).cached).toBe(true);
    clock += 1;
    expect((await model.complete(ask)).cached).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    await store.close();
  });
});
