import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type ChatRequest, createOpenAICompatibleModel } from '../src/llm/index.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const model = () =>
  createOpenAICompatibleModel({
    name: 'agent',
    model: 'm',
    endpoints: [{ baseURL: server.url }],
    maxRetries: 0,
  });
const tools: NonNullable<ChatRequest['tools']> = [
  {
    name: 'lookup_drug',
    description: 'Find a drug in the formulary.',
    parameters: z.object({ name: z.string(), max_results: z.number().int().min(1).max(5) }),
  },
];
const ask = [{ role: 'user' as const, content: 'Is aspirin in the formulary?' }];

describe('tool calls over the OpenAI-compatible backend', () => {
  test('should send the tools as JSON schemas and read the calls back parsed', async () => {
    server.script({
      reply: {
        content: '',
        toolCalls: [{ id: 'call_a', name: 'lookup_drug', arguments: '{"name":"aspirin","max_results":2}' }],
      },
    });
    const got = await model().complete({ messages: ask, tools, toolChoice: { name: 'lookup_drug' } });
    expect(got.finishReason).toBe('tool_calls');
    expect(got.toolCalls).toEqual([
      { id: 'call_a', name: 'lookup_drug', arguments: { name: 'aspirin', max_results: 2 } },
    ]);
    const body = server.requests[0]?.body;
    expect(body?.tool_choice).toEqual({ type: 'function', function: { name: 'lookup_drug' } });
    expect(body?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup_drug',
          description: 'Find a drug in the formulary.',
          parameters: expect.objectContaining({
            type: 'object',
            required: ['name', 'max_results'],
            properties: {
              name: { type: 'string' },
              max_results: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 5 }),
            },
          }),
        },
      },
    ]);
  });

  test('should report unparseable and off-schema arguments with the raw text kept', async () => {
    server.script({
      reply: {
        content: '',
        toolCalls: [
          { id: 'c1', name: 'lookup_drug', arguments: '{"name": "asp' },
          { id: 'c2', name: 'lookup_drug', arguments: '{"name": "aspirin", "max_results": 50}' },
        ],
      },
    });
    const got = await model().complete({ messages: ask, tools });
    expect(got.toolCalls?.[0]).toMatchObject({
      arguments: '{"name": "asp',
      argumentsError: expect.stringMatching(/not JSON/),
    });
    expect(got.toolCalls?.[1]?.argumentsError).toMatch(/schema of "lookup_drug": max_results: /);
  });

  test('should carry the assistant tool calls and the tool results on the next turn', async () => {
    server.script({ reply: { content: 'Yes, aspirin is listed.' } });
    const got = await model().complete({
      tools,
      messages: [
        ...ask,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_a', name: 'lookup_drug', arguments: { name: 'aspirin', max_results: 1 } }],
        },
        { role: 'tool', toolCallId: 'call_a', content: '[{"name":"aspirin","tier":1}]' },
      ],
    });
    expect(got.toolCalls).toBeUndefined();
    expect(server.requests[0]?.body.messages?.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'lookup_drug', arguments: '{"name":"aspirin","max_results":1}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '[{"name":"aspirin","tier":1}]' },
    ]);
    expect(server.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  test('should send no tool fields when no tools are offered', async () => {
    server.script({ reply: { content: 'hi' } });
    await model().complete({ messages: ask });
    expect(server.requests[0]?.body).not.toHaveProperty('tools');
  });
});
