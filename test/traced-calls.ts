import { expect } from 'vitest';
import { type JudgeCall, JudgeCallSchema } from '../src/core/index.js';

/**
 * The judge calls one piece of evidence kept (an output line's `evidence[i]`), checked to be
 * complete: one stored call per call its usage counted, each tagged with the role that made it,
 * with the messages sent and the raw output; returned for the caller's own checks.
 */
export function tracedCalls(evidence: unknown): JudgeCall[] {
  const e = evidence as { calls?: unknown[]; usage?: { calls: number } };
  const calls = (e.calls ?? []).map((call) => JudgeCallSchema.parse(call));
  expect(calls).toHaveLength(e.usage?.calls ?? 0);
  for (const call of calls) {
    expect(call.role, JSON.stringify(call).slice(0, 200)).toMatch(/^\w+$/);
    expect(call.messages.length).toBeGreaterThan(0);
  }
  return calls;
}

/** The roles of the calls, in the order they were made. */
export const rolesOf = (calls: readonly JudgeCall[]) => calls.map((call) => call.role);
