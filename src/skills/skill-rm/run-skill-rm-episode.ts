import {
  type CallTrace,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  type LlmMessage,
  type ToolCall,
} from '../../llm/index.js';
import { callUsageOf } from '../../llm/usage-of.js';
import type { Skill } from '../skill-package.js';
import { parseTextVerdict, type ShownVerdict } from './parse-text-verdict.js';
import { type PointwiseAnswer, parseTextScore, pointwiseScore } from './pointwise-score.js';
import { buildSampleResources } from './sample-resources.js';
import type { SkillRmCaps } from './skill-rm-caps.js';
import { skillRmDirectPairwise, skillRmDirectPointwise } from './skill-rm-direct-role.js';
import { agentSystem, finalizeNote, plainTextSystem, plainTextUser, taskText } from './skill-rm-prompts.js';
import type { SkillRmRuntime } from './skill-rm-runtime.js';
import type { SkillRmSample } from './skill-rm-sample.js';
import {
  createSkillRmSession,
  type FinalArgs,
  type ResourceEvidence,
  type ShownResponses,
  type ToolCallRecord,
} from './skill-rm-session.js';
import { skillRmTools } from './skill-rm-tools.js';

/** How an episode reached its answer: the first step of the cascade that gave one. */
export type SkillRmRoute =
  | 'final_answer'
  | 'text'
  | 'forced_final_answer'
  | 'plain_text_retry'
  | 'direct_judge';

/** An episode's answer: a verdict in shown positions, or a score in [0, 1]. */
export type EpisodeAnswer =
  | {
      readonly mode: 'pairwise';
      readonly verdict: ShownVerdict;
      readonly confidence?: number;
      readonly usedResources: readonly string[];
      readonly reason?: string;
    }
  | {
      readonly mode: 'pointwise';
      readonly score: number;
      readonly from: 'score' | 'checklist';
      readonly clampedFrom?: number;
      readonly confidence?: number;
      readonly usedResources: readonly string[];
      readonly reason?: string;
    };

/** One step of the cascade as the trace keeps it. */
export interface EpisodeStage {
  readonly stage: 'agent' | 'forced_final_answer' | 'plain_text_retry' | 'direct_judge';
  /** The agent turn, 1-based (agent stages). */
  readonly step?: number;
  /** `answered`: this step gave the answer; otherwise why it did not. */
  readonly outcome: string;
  readonly toolCalls?: readonly ToolCallRecord[];
  /** The reply's text, when it had one. */
  readonly text?: string;
}

/** The trace of one episode: every cascade step, the resources used, and the hard evidence seen. */
export interface EpisodeTrace {
  readonly stages: readonly EpisodeStage[];
  readonly skillOpened: boolean;
  readonly viewed: readonly string[];
  readonly runs: number;
  readonly evidence: readonly ResourceEvidence[];
  readonly withheld: ReadonlyArray<{ readonly id: string; readonly why: string }>;
  readonly removedLabelKeys: readonly string[];
}

export type EpisodeResult =
  | {
      readonly status: 'ok';
      readonly answer: EpisodeAnswer;
      readonly route: SkillRmRoute;
      readonly trace: EpisodeTrace;
      readonly calls: CallTrace[];
      readonly warnings: string[];
    }
  | {
      readonly status: 'invalid';
      readonly reason: string;
      readonly trace: EpisodeTrace;
      readonly calls: CallTrace[];
      readonly warnings: string[];
    };

export interface EpisodeOptions {
  readonly model: ChatModel;
  readonly skill: Skill;
  readonly runtime?: SkillRmRuntime | undefined;
  readonly caps: SkillRmCaps;
  readonly benchmarkVisible: boolean;
  /** Re-asks of the direct judge after unreadable output. */
  readonly reasks: number;
  readonly temperature?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

function traceOf(messages: LlmMessage[], r: ChatResponse, role: string, parseError?: string): CallTrace {
  return {
    role,
    messages,
    raw: r.toolCalls?.length
      ? `${r.content}${r.content ? '\n' : ''}${JSON.stringify(r.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })))}`
      : r.content,
    finishReason: r.finishReason,
    ...callUsageOf(r),
    ...(parseError !== undefined && { parseError }),
    ...(r.warnings?.length && { warnings: r.warnings }),
  };
}

const clip = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}…` : text);

/**
 * One Skill-RM episode: one order of a pair (responses shown as A and B) or one response
 * (pointwise). The agent loop offers `use_skill` and `final_answer`, then the resource tools once
 * the skill is open; it ends at a valid `final_answer` or a parseable text verdict. Otherwise the
 * cascade runs, each step recorded: one forced-finalization turn (tool choice `final_answer`), a
 * plain-text retry without tools (the evidence so far as data), a direct judge without the skill;
 * when all fail the episode is `invalid` with every step's reason. An abort is rethrown.
 */
export async function runSkillRmEpisode(
  sample: SkillRmSample,
  shown: ShownResponses,
  options: EpisodeOptions,
): Promise<EpisodeResult> {
  const mode = 'A' in shown ? 'pairwise' : 'pointwise';
  const { model, skill, caps, signal } = options;
  const resources = buildSampleResources(skill, sample, { benchmarkVisible: options.benchmarkVisible });
  const session = createSkillRmSession({
    skill,
    resources,
    runtime: options.runtime,
    caps,
    mode,
    sample,
    shown,
    benchmarkVisible: options.benchmarkVisible,
    signal,
  });
  const calls: CallTrace[] = [];
  const stages: EpisodeStage[] = [];
  const toolResults: string[] = [];
  const warnings = session.warnings;
  const base: Omit<ChatRequest, 'messages'> = {
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(signal !== undefined && { signal }),
  };
  const trace = (): EpisodeTrace => ({
    stages,
    skillOpened: session.opened,
    viewed: session.usage().viewed,
    runs: session.usage().runs,
    evidence: session.evidence,
    withheld: resources.withheld,
    removedLabelKeys: resources.removedKeys,
  });
  const done = (answer: EpisodeAnswer, route: SkillRmRoute): EpisodeResult => ({
    status: 'ok',
    answer,
    route,
    trace: trace(),
    calls: [...calls, ...session.calls],
    warnings,
  });
  const complete = async (request: ChatRequest, role: string): Promise<ChatResponse | string> => {
    try {
      const response = await model.complete(request);
      calls.push(traceOf(request.messages, response, role));
      return response;
    } catch (error) {
      if (signal?.aborted || !(error instanceof ChatModelError)) throw error;
      return error.message;
    }
  };

  const answerOfFinal = (final: FinalArgs): EpisodeAnswer | undefined => {
    const used = final.args.used_resources ?? [];
    const extra = {
      usedResources: used,
      ...(final.args.confidence !== undefined && { confidence: final.args.confidence }),
      reason: final.args.reason,
    };
    if (final.mode === 'pairwise') return { mode: 'pairwise', verdict: final.args.verdict, ...extra };
    const score = pointwiseScore(final.args);
    return score && { mode: 'pointwise', ...score, ...extra };
  };
  const answerOfText = (text: string): EpisodeAnswer | undefined => {
    if (mode === 'pairwise') {
      const parsed = parseTextVerdict(text);
      return parsed && { mode: 'pairwise', verdict: parsed.verdict, usedResources: [] };
    }
    const parsed: PointwiseAnswer | undefined = parseTextScore(text);
    const score = parsed && pointwiseScore(parsed);
    return score && { mode: 'pointwise', ...score, usedResources: [] };
  };
  const scoreNote = (answer: EpisodeAnswer) => {
    if (answer.mode === 'pointwise' && answer.clampedFrom !== undefined) {
      warnings.push(`the score ${answer.clampedFrom} was outside [0, 1] and clamped to ${answer.score}`);
    }
    return answer;
  };

  // 1. The agent loop.
  const messages: LlmMessage[] = [
    { role: 'system', content: agentSystem(skill, mode) },
    { role: 'user', content: taskText(sample.prompt, shown) },
  ];
  let why = 'The step cap is reached.';
  let capReached = true;
  for (let step = 1; step <= caps.maxSteps; step++) {
    const request: ChatRequest = {
      ...base,
      messages: [...messages],
      tools: session.tools(),
      toolChoice: 'auto',
    };
    const response = await complete(request, 'skill_rm_agent');
    if (typeof response === 'string') {
      stages.push({ stage: 'agent', step, outcome: `the backend failed: ${response}` });
      why = 'The last turn failed.';
      capReached = false;
      break;
    }
    const toolCalls: ToolCall[] = response.toolCalls ?? [];
    if (toolCalls.length === 0) {
      const answer = answerOfText(response.content);
      if (answer) {
        stages.push({
          stage: 'agent',
          step,
          outcome: 'answered (text verdict)',
          text: clip(response.content),
        });
        return done(scoreNote(answer), 'text');
      }
      stages.push({
        stage: 'agent',
        step,
        outcome: 'no tool call and no readable verdict',
        text: clip(response.content),
      });
      messages.push({ role: 'assistant', content: response.content });
      why = 'Your reply had no verdict.';
      capReached = false;
      break;
    }
    messages.push({ role: 'assistant', content: response.content, toolCalls });
    const before = session.records.length;
    let final: EpisodeAnswer | undefined;
    for (const call of toolCalls) {
      const result = await session.execute(call);
      messages.push({ role: 'tool', toolCallId: call.id, content: result.content });
      if (call.name !== 'final_answer') toolResults.push(result.content);
      if (result.final) {
        final = answerOfFinal(result.final);
        if (final) break;
      }
    }
    // Every call of the turn gets an answer (a later call after final_answer is not carried out).
    const answered = new Set(
      messages.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId),
    );
    for (const call of toolCalls) {
      if (!answered.has(call.id))
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          content: '{"skipped": "final_answer ended the episode"}',
        });
    }
    const records = session.records.slice(before);
    if (final) {
      stages.push({ stage: 'agent', step, outcome: 'answered (final_answer)', toolCalls: records });
      return done(scoreNote(final), 'final_answer');
    }
    stages.push({ stage: 'agent', step, outcome: 'tool calls', toolCalls: records });
  }

  // 2. One forced-finalization turn.
  const finalTool = skillRmTools(mode).final_answer;
  const note = capReached
    ? JSON.stringify({
        error: 'cap_exceeded',
        cap: 'agent steps',
        limit: caps.maxSteps,
        message: `the agent-step cap of ${caps.maxSteps} per sample is reached`,
        hint: finalizeNote(''),
      })
    : finalizeNote(why);
  const forcedMessages: LlmMessage[] = [...messages, { role: 'user', content: note }];
  const forced = await complete(
    { ...base, messages: forcedMessages, tools: [finalTool], toolChoice: { name: 'final_answer' } },
    'skill_rm_forced_final',
  );
  if (typeof forced === 'string') {
    stages.push({ stage: 'forced_final_answer', outcome: `the backend failed: ${forced}` });
  } else {
    const call = forced.toolCalls?.find((c) => c.name === 'final_answer');
    let outcome = 'no final_answer call and no readable verdict';
    if (call) {
      const result = await session.execute(call);
      const answer = result.final && answerOfFinal(result.final);
      const records = session.records.slice(-1);
      if (answer) {
        stages.push({ stage: 'forced_final_answer', outcome: 'answered (final_answer)', toolCalls: records });
        return done(scoreNote(answer), 'forced_final_answer');
      }
      outcome = `final_answer unusable: ${records[0]?.error?.message ?? 'no usable score'}`;
    } else {
      const answer = answerOfText(forced.content);
      if (answer) {
        stages.push({
          stage: 'forced_final_answer',
          outcome: 'answered (text verdict)',
          text: clip(forced.content),
        });
        return done(scoreNote(answer), 'forced_final_answer');
      }
    }
    stages.push({ stage: 'forced_final_answer', outcome, text: clip(forced.content) });
  }

  // 3. A plain-text retry: no tools, the evidence so far as data.
  const plainMessages: LlmMessage[] = [
    { role: 'system', content: plainTextSystem(mode) },
    { role: 'user', content: plainTextUser(sample.prompt, shown, toolResults) },
  ];
  const plain = await complete({ ...base, messages: plainMessages }, 'skill_rm_plain_text');
  if (typeof plain === 'string') {
    stages.push({ stage: 'plain_text_retry', outcome: `the backend failed: ${plain}` });
  } else {
    const answer = answerOfText(plain.content);
    if (answer) {
      stages.push({
        stage: 'plain_text_retry',
        outcome: 'answered (text verdict)',
        text: clip(plain.content),
      });
      return done(scoreNote(answer), 'plain_text_retry');
    }
    stages.push({ stage: 'plain_text_retry', outcome: 'no readable verdict', text: clip(plain.content) });
  }

  // 4. A direct judge without the skill.
  const roleOptions = {
    model,
    reasks: options.reasks,
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(signal !== undefined && { signal }),
  };
  const input = { prompt: sample.prompt, shown };
  if (mode === 'pairwise') {
    const direct = await skillRmDirectPairwise(input, roleOptions);
    calls.push(...direct.calls);
    if (direct.status === 'ok') {
      stages.push({ stage: 'direct_judge', outcome: 'answered' });
      return done(
        { mode, verdict: direct.value.verdict, usedResources: [], reason: direct.value.reason },
        'direct_judge',
      );
    }
    stages.push({ stage: 'direct_judge', outcome: direct.reason });
  } else {
    const direct = await skillRmDirectPointwise(input, roleOptions);
    calls.push(...direct.calls);
    const score = direct.status === 'ok' ? pointwiseScore({ score: direct.value.score }) : undefined;
    if (direct.status === 'ok' && score) {
      stages.push({ stage: 'direct_judge', outcome: 'answered' });
      return done(
        scoreNote({ mode, ...score, usedResources: [], reason: direct.value.reason }),
        'direct_judge',
      );
    }
    stages.push({
      stage: 'direct_judge',
      outcome: direct.status === 'invalid' ? direct.reason : 'no usable score',
    });
  }
  return {
    status: 'invalid',
    reason: `no verdict after the whole cascade: ${stages
      .slice(-4)
      .map((s) => `${s.stage}${s.step !== undefined ? ` ${s.step}` : ''}: ${s.outcome}`)
      .join('; ')}`,
    trace: trace(),
    calls: [...calls, ...session.calls],
    warnings,
  };
}
