import { promptNonce, untrustedBlock } from '../../judges/index.js';
import type { Trajectory } from './trajectory.js';

/** The most characters of one run an analyst reads (the task and outcome always fit). */
export const TRAJECTORY_CHAR_LIMIT = 20_000;

/**
 * A run as the analyst reads it: the task, the steps or transcript (untrusted, in a nonce-tagged
 * block) and the outcome. `reference` and `metadata` are left out: the reference is the
 * evaluator's, and metadata may carry labels. A run over the limit is cut in the middle and says
 * so (`truncated`), never silently.
 */
export function renderTrajectory(
  trajectory: Trajectory,
  limit = TRAJECTORY_CHAR_LIMIT,
): { text: string; truncated: boolean } {
  const steps = (trajectory.steps ?? []).map((step, i) =>
    [
      `[step ${i + 1}${step.role ? ` ${step.role}` : ''}]`,
      step.thought !== undefined ? `thought: ${step.thought}` : undefined,
      step.action !== undefined ? `action: ${step.action}` : undefined,
      step.observation !== undefined ? `observation: ${step.observation}` : undefined,
      step.content,
    ]
      .filter((line) => line !== undefined)
      .join('\n'),
  );
  let run = [...steps, trajectory.transcript].filter((t) => t !== undefined).join('\n\n');
  const truncated = run.length > limit;
  if (truncated) {
    const half = Math.floor(limit / 2);
    run = `${run.slice(0, half)}\n[… ${run.length - 2 * half} characters cut …]\n${run.slice(-half)}`;
  }
  const { outcome } = trajectory;
  const nonce = promptNonce(trajectory.task, run);
  const text = [
    `Instance: ${trajectory.id}`,
    `Task:\n${untrustedBlock('task', trajectory.task, nonce)}`,
    `Run:\n${untrustedBlock('run', run, nonce)}`,
    `Outcome: ${outcome.pass ? 'PASSED' : 'FAILED'}${outcome.score !== undefined ? ` (score ${outcome.score})` : ''}`,
    ...(outcome.feedback !== undefined
      ? [`Evaluator feedback:\n${untrustedBlock('feedback', outcome.feedback, nonce)}`]
      : []),
  ].join('\n\n');
  return { text, truncated };
}
