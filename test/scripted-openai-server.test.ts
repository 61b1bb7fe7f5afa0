import { describe, expect, test } from 'vitest';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const chat = (body: object, signal?: AbortSignal) =>
  fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });

describe('scripted OpenAI-compatible server', () => {
  test('should answer by matching on model and message text, and record every request', async () => {
    server.script(
      { match: { model: 'judge', contains: 'compare' }, reply: { content: '{"winner": "A"}' } },
      { reply: { content: 'fallback' } },
    );
    const first = await (
      await chat({ model: 'judge', messages: [{ role: 'user', content: 'Please compare these.' }] })
    ).json();
    expect(first.choices[0].message.content).toBe('{"winner": "A"}');
    expect(first.usage.total_tokens).toBe(15);
    const second = await (
      await chat({ model: 'other', messages: [{ role: 'user', content: 'compare' }] })
    ).json();
    expect(second.choices[0].message.content).toBe('fallback');
    expect(server.requests.map((r) => r.body.model)).toEqual(['judge', 'other']);
  });

  test('should use a rule only as many times as scripted', async () => {
    server.script({ reply: { status: 503 }, times: 1 }, { reply: { content: 'ok' } });
    expect((await chat({ messages: [] })).status).toBe(503);
    expect((await chat({ messages: [] })).status).toBe(200);
  });

  test('should refuse requests no rule matches, so a test cannot pass by accident', async () => {
    server.script({ match: { role: 'system', contains: 'judge' }, reply: { content: 'x' } });
    const res = await chat({ messages: [{ role: 'user', content: 'judge' }] });
    expect(res.status).toBe(500);
    expect((await res.json()).error.message).toMatch(/no scripted reply/);
  });

  test('should inject length cut-offs, cut connections and hangs', async () => {
    server.script(
      { reply: { content: '{"win', finishReason: 'length' }, times: 1 },
      { reply: { truncate: true }, times: 1 },
      { reply: { hang: true } },
    );
    expect((await (await chat({ messages: [] })).json()).choices[0].finish_reason).toBe('length');
    await expect(chat({ messages: [] }).then((r) => r.json())).rejects.toThrow();
    await expect(chat({ messages: [] }, AbortSignal.timeout(200))).rejects.toThrow(/abort|timeout/i);
  });
});
