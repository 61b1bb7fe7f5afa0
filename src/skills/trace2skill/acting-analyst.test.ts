import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type ChatModel, ChatModelError, type ChatRequest, type ChatResponse } from '../../llm/index.js';
import { actingAnalysis } from './acting-analyst.js';
import { FailureAnalysisSchema, failureAnalystRole } from './analyst-roles.js';
import type { AnalystToolbox } from './analyst-toolbox.js';

const ANALYSIS = {
  failure_cause: { title: 'c', description: 'd', content: 'e' },
  lessons: [],
  fix: { description: 'f', answer: null },
};

/** A model that answers from a list, in order, and records what it was asked. */
function scripted(replies: Array<Partial<ChatResponse> | Error>) {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    name: 'scripted',
    complete: async (request) => {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no reply scripted');
      if (reply instanceof Error) throw reply;
      return {
        content: '',
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        model: 'scripted',
        endpoint: 'test',
        latencyMs: 0,
        retries: 0,
        ...reply,
      };
    },
  };
  return { model, requests };
}

function toolbox(text: string): AnalystToolbox & { executed: string[] } {
  const executed: string[] = [];
  return {
    executed,
    tools: [{ name: 'view_resource', parameters: z.object({ path: z.string() }) }],
    guidance: 'A is the first response.',
    execute: async (call) => {
      executed.push(call.name);
      return text;
    },
    calls: () => [
      {
        role: 'genrm',
        messages: [],
        raw: '',
        finishReason: 'stop',
        latencyMs: 0,
        promptTokens: 5,
        completionTokens: 5,
        retries: 0,
        cached: false,
        answeredAt: 0,
      },
    ],
  };
}

const view = (id: string) => ({ id, name: 'view_resource', arguments: { path: 'x' } });
const run = { run: 'the run' };

describe('actingAnalysis', () => {
  test('should carry out calls up to the cap, cut each result, refuse the rest, then stop offering tools', async () => {
    const { model, requests } = scripted([
      { toolCalls: [view('a'), view('b'), view('c')] },
      { content: JSON.stringify(ANALYSIS) },
    ]);
    const box = toolbox('y'.repeat(50));
    const got = await actingAnalysis(
      failureAnalystRole,
      FailureAnalysisSchema,
      run,
      box,
      { maxCalls: 2, maxOutputChars: 10 },
      { model },
    );
    expect(got.outcome.status).toBe('ok');
    expect(got).toMatchObject({ toolCalls: 2, refused: 1 });
    expect(box.executed).toHaveLength(2);
    expect(requests[0]?.tools?.map((t) => t.name)).toEqual(['view_resource']);
    expect(requests[0]?.messages[0]?.content).toContain('At most 2 tool calls');
    expect(requests[1]?.tools).toBeUndefined();
    const results =
      requests[1]?.messages.filter((m) => m.role === 'tool').map((m) => m.content as string) ?? [];
    expect(results[0]).toBe(`${'y'.repeat(10)}\n[… 40 characters cut at the analyst's cap]`);
    expect(results[2]).toContain('cap_exceeded');
    expect(requests[1]?.messages.at(-1)?.content).toContain('The tool budget is spent');
    // The analyst's two calls and the tool's own model call are all the analysis's cost.
    expect(got.outcome.calls.map((c) => c.role)).toEqual([
      'trace_failure_analyst',
      'trace_failure_analyst',
      'genrm',
    ]);
  });

  test('should go on as the structured call when the reply does not parse, and be invalid when the backend fails', async () => {
    const { model, requests } = scripted([
      { content: 'I think it was wrong.' },
      { content: JSON.stringify(ANALYSIS) },
    ]);
    const got = await actingAnalysis(
      failureAnalystRole,
      FailureAnalysisSchema,
      run,
      toolbox(''),
      { maxCalls: 2, maxOutputChars: 10 },
      { model },
    );
    expect(got.outcome.status).toBe('ok');
    expect(requests[1]?.responseSchema?.name).toBe('trace_failure_analyst');
    expect(requests[1]?.messages.at(-2)).toEqual({ role: 'assistant', content: 'I think it was wrong.' });

    const down = scripted([new ChatModelError('backend down', ['503'])]);
    const failed = await actingAnalysis(
      failureAnalystRole,
      FailureAnalysisSchema,
      run,
      toolbox(''),
      { maxCalls: 2, maxOutputChars: 10 },
      { model: down.model },
    );
    expect(failed.outcome).toMatchObject({ status: 'invalid', reason: 'backend down' });
  });
});
