import { createHash } from 'node:crypto';
import type { RoleCall } from '../../judges/index.js';
import { type ChatModel, usageOf } from '../../llm/index.js';
import { actingAnalysis } from './acting-analyst.js';
import type { AnalysisRecord, Lesson } from './analysis-record.js';
import {
  type FailureAnalysis,
  FailureAnalysisSchema,
  failureAnalystRole,
  SUCCESS_LESSON_LIMIT,
  successAnalystRole,
} from './analyst-roles.js';
import { type AnalystCaps, type AnalystTools, DEFAULT_ANALYST_CAPS } from './analyst-toolbox.js';
import { renderTrajectory } from './render-trajectory.js';
import type { Trajectory } from './trajectory.js';

/**
 * Checks a failed run's analysis: true when its fix passes the task's evaluator (the corrected
 * answer matches the reference, or the task re-run with the proposed lessons applied passes),
 * false when it does not — the run's lessons are then gated out — and undefined when this run has
 * no evaluator (its lessons are kept and marked `ungated`). It gets the whole analysis, so a gate
 * can re-run the task under the lessons rather than read an answer the analyst may have copied.
 */
export type FixEvaluator = (
  trajectory: Trajectory,
  analysis: FailureAnalysis,
) => boolean | undefined | Promise<boolean | undefined>;

export interface AnalyzeOptions {
  model: ChatModel;
  /** Pass-gating: without one, a failed run's lessons are kept and marked `ungated`. */
  evaluate?: FixEvaluator;
  /** The studied agent's tools, for a failed run's analyst to act with; without them it only reads. */
  tools?: AnalystTools;
  /** Caps of each acting analyst (default `DEFAULT_ANALYST_CAPS`). */
  analystCaps?: AnalystCaps;
  reasks?: number;
  seed?: number;
  signal?: AbortSignal;
}

/** The content hash a record is resumed by: the same id with a changed run is analysed again. */
export function trajectoryHash(trajectory: Trajectory): string {
  return createHash('sha256').update(JSON.stringify(trajectory)).digest('hex').slice(0, 16);
}

/** One MAP analysis: one analyst call (with re-asks) for one run, then pass-gating in code. */
export async function analyzeTrajectory(
  trajectory: Trajectory,
  options: AnalyzeOptions,
): Promise<{ record: AnalysisRecord; calls: RoleCall[]; truncatedRun: boolean }> {
  const { text, truncated: truncatedRun } = renderTrajectory(trajectory);
  const call = {
    model: options.model,
    ...(options.reasks !== undefined && { reasks: options.reasks }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.signal !== undefined && { signal: options.signal }),
  };
  const base = { instance: trajectory.id, hash: trajectoryHash(trajectory), pass: trajectory.outcome.pass };
  const empty = { gated_out: 0, truncated: 0 };
  if (trajectory.outcome.pass) {
    const outcome = await successAnalystRole({ run: text }, call);
    if (outcome.status !== 'ok') {
      const record = invalid(base, outcome.reason, outcome.calls);
      return { record, calls: outcome.calls, truncatedRun };
    }
    const lessons = outcome.value.lessons;
    const items: Lesson[] = lessons
      .slice(0, SUCCESS_LESSON_LIMIT)
      .map((l) => ({ type: 'success_memory', ...l }));
    const record: AnalysisRecord = {
      ...base,
      status: 'ok',
      gate: 'none',
      items,
      ...empty,
      truncated: Math.max(0, lessons.length - SUCCESS_LESSON_LIMIT),
      usage: usageOf(outcome.calls),
    };
    return { record, calls: outcome.calls, truncatedRun };
  }
  const caps = options.analystCaps ?? DEFAULT_ANALYST_CAPS;
  const toolbox = caps.maxCalls > 0 ? options.tools?.(trajectory) : undefined;
  const acted = toolbox
    ? await actingAnalysis(failureAnalystRole, FailureAnalysisSchema, { run: text }, toolbox, caps, call)
    : undefined;
  const outcome = acted?.outcome ?? (await failureAnalystRole({ run: text }, call));
  const tools = acted && { tool_calls: acted.toolCalls, tool_calls_refused: acted.refused };
  if (outcome.status !== 'ok') {
    const record = { ...invalid(base, outcome.reason, outcome.calls), ...tools };
    return { record, calls: outcome.calls, truncatedRun };
  }
  const analysis = outcome.value;
  const items: Lesson[] = [
    { type: 'failure_cause', ...analysis.failure_cause },
    ...analysis.lessons.map((l) => ({ type: 'failure_memory' as const, ...l })),
  ];
  const usage = usageOf(outcome.calls);
  const failed = { ...base, ...tools };
  const passed = await options.evaluate?.(trajectory, analysis);
  if (passed === undefined) {
    const record: AnalysisRecord = { ...failed, status: 'ok', gate: 'ungated', items, ...empty, usage };
    return { record, calls: outcome.calls, truncatedRun };
  }
  const record: AnalysisRecord = passed
    ? { ...failed, status: 'ok', gate: 'passed', items, ...empty, usage }
    : { ...failed, status: 'ok', gate: 'failed', items: [], gated_out: items.length, truncated: 0, usage };
  return { record, calls: outcome.calls, truncatedRun };
}

function invalid(
  base: Pick<AnalysisRecord, 'instance' | 'hash' | 'pass'>,
  reason: string,
  calls: RoleCall[],
): AnalysisRecord {
  return {
    ...base,
    status: 'invalid',
    reason,
    gate: 'none',
    items: [],
    gated_out: 0,
    truncated: 0,
    usage: usageOf(calls),
  };
}
