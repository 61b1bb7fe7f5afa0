import type { CallTrace, ChatTool, ToolCall } from '../../llm/index.js';
import type { Trajectory } from './trajectory.js';

/**
 * The tools one analyst may call while it studies one run: the studied agent's own tools, bound to
 * that run's task (for a Skill-RM judgment, the pair's resources), so a diagnosis can be checked
 * rather than guessed. `execute` returns the text the analyst reads, tool errors included; it
 * throws only on an abort.
 */
export interface AnalystToolbox {
  readonly tools: readonly ChatTool[];
  /** A line for the analyst's instructions: what the tools act on (which response is A, …). */
  readonly guidance: string;
  execute(call: ToolCall): Promise<string>;
  /** Model calls the tools made themselves (a judge run as a resource): their cost is the analysis's. */
  calls(): readonly CallTrace[];
}

/** The toolbox for one run's analyst; undefined when that run has none (the analyst only reads). */
export type AnalystTools = (trajectory: Trajectory) => AnalystToolbox | undefined;

/** Per analyst: tool calls carried out, and characters of one tool result it reads. */
export interface AnalystCaps {
  readonly maxCalls: number;
  readonly maxOutputChars: number;
}

/** 4 calls of at most 4,000 characters each: enough to view a guide and run a verifier or two. */
export const DEFAULT_ANALYST_CAPS: AnalystCaps = { maxCalls: 4, maxOutputChars: 4_000 };
