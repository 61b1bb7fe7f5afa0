import type { z } from 'zod';
import type { JudgeRole, RoleCall, RoleCallOptions, RoleOutcome } from '../../judges/index.js';
import {
  type CallTrace,
  ChatModelError,
  type ChatResponse,
  callStructured,
  type LlmMessage,
} from '../../llm/index.js';
import { parseStructured } from '../../llm/parse-structured.js';
import { callUsageOf } from '../../llm/usage-of.js';
import type { AnalystCaps, AnalystToolbox } from './analyst-toolbox.js';

/** What an acting analysis did besides its answer: tool calls carried out and refused at the cap. */
export interface ActingOutcome<T> {
  readonly outcome: RoleOutcome<T>;
  readonly toolCalls: number;
  readonly refused: number;
}

const SPENT = 'The tool budget is spent: reply now with only the JSON analysis.';

/**
 * An analyst that can act: the role's prompt plus the toolbox, in turns. Each turn's tool calls are
 * carried out up to `maxCalls` in all, each result cut at `maxOutputChars` (the cut said); calls
 * past the cap get an error result, and from then on no tools are offered and the analyst is told
 * to answer. A reply without tool calls is read as the role's JSON; one that does not parse, or a
 * run of turns that never answers, goes on as the role's structured call (with its re-asks) over
 * the conversation so far. A backend failure makes the analysis invalid, as a role call's does.
 */
export async function actingAnalysis<I, S extends z.ZodType>(
  role: JudgeRole<I, z.infer<S>>,
  schema: S,
  input: I,
  toolbox: AnalystToolbox,
  caps: AnalystCaps,
  options: RoleCallOptions,
): Promise<ActingOutcome<z.infer<S>>> {
  const [system, ...rest] = role.messages(input);
  const note = `\n\nYou may call tools to check your diagnosis before answering: ${toolbox.tools
    .map((t) => t.name)
    .join(
      ', ',
    )}. ${toolbox.guidance} At most ${caps.maxCalls} tool calls; each result is cut at ${caps.maxOutputChars} characters. When done, reply with only the JSON analysis.`;
  let messages: LlmMessage[] = [{ role: 'system', content: `${system?.content ?? ''}${note}` }, ...rest];
  const calls: RoleCall[] = [];
  let used = 0;
  let refused = 0;
  const tag = (trace: CallTrace): RoleCall => ({ ...trace, role: role.roleName });
  const withToolCalls = (): RoleCall[] => [
    ...calls,
    ...toolbox.calls().map((c) => ({ ...c, role: c.role ?? 'analyst_tool' })),
  ];
  // Each turn makes at least one tool call or ends; past the cap the analyst gets one turn to answer.
  for (let turn = 0; turn <= caps.maxCalls + 1; turn++) {
    const offer = used < caps.maxCalls;
    let response: ChatResponse;
    try {
      response = await options.model.complete({
        messages,
        ...(offer && { tools: [...toolbox.tools] }),
        ...(options.temperature !== undefined && { temperature: options.temperature }),
        ...(options.seed !== undefined && { seed: options.seed }),
        ...(options.signal !== undefined && { signal: options.signal }),
      });
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof ChatModelError)) throw error;
      return {
        outcome: { status: 'invalid', reason: error.message, raw: null, calls: withToolCalls() },
        toolCalls: used,
        refused,
      };
    }
    const toolCalls = response.toolCalls ?? [];
    const trace: CallTrace = {
      messages,
      raw: toolCalls.length
        ? `${response.content}${JSON.stringify(toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })))}`
        : response.content,
      finishReason: response.finishReason,
      ...callUsageOf(response),
    };
    if (toolCalls.length === 0) {
      const parsed = parseStructured(response.content, schema);
      if (parsed.ok) {
        calls.push(tag({ ...trace, parsed: parsed.value }));
        return {
          outcome: { status: 'ok', value: parsed.value, calls: withToolCalls() },
          toolCalls: used,
          refused,
        };
      }
      calls.push(tag({ ...trace, parseError: parsed.error }));
      messages = [...messages, { role: 'assistant', content: response.content }];
      break;
    }
    calls.push(tag(trace));
    const results: LlmMessage[] = [];
    for (const call of toolCalls) {
      let content: string;
      if (used >= caps.maxCalls) {
        refused++;
        content = JSON.stringify({
          error: 'cap_exceeded',
          message: `the cap of ${caps.maxCalls} tool calls per analyst is reached`,
          hint: 'Reply with the JSON analysis.',
        });
      } else {
        used++;
        const text = await toolbox.execute(call);
        content =
          text.length > caps.maxOutputChars
            ? `${text.slice(0, caps.maxOutputChars)}\n[… ${text.length - caps.maxOutputChars} characters cut at the analyst's cap]`
            : text;
      }
      results.push({ role: 'tool', toolCallId: call.id, content });
    }
    messages = [
      ...messages,
      { role: 'assistant', content: response.content, toolCalls },
      ...results,
      ...(used >= caps.maxCalls ? [{ role: 'user' as const, content: SPENT }] : []),
    ];
  }
  const last = await callStructured(
    options.model,
    {
      messages: [...messages, { role: 'user', content: 'Reply with only the JSON analysis.' }],
      schemaName: role.roleName,
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.signal !== undefined && { signal: options.signal }),
    },
    schema,
    { reasks: options.reasks ?? 2 },
  );
  calls.push(...last.calls.map(tag));
  const outcome: RoleOutcome<z.infer<S>> =
    last.status === 'ok'
      ? { status: 'ok', value: last.value, calls: withToolCalls() }
      : { status: 'invalid', reason: last.reason, raw: last.raw, calls: withToolCalls() };
  return { outcome, toolCalls: used, refused };
}
