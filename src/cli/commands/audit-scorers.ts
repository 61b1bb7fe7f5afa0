import type { Scoring } from '../../audit/index.js';
import type { RewardResult, Sample } from '../../core/index.js';
import type { ShownPair } from '../../skills/evolve-judge/index.js';
import { throwIfBackendDown } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { failureReasons } from '../failure-reasons.js';

/**
 * A failed scoring once the circuit breaker has opened was not a verdict on the row but a refused
 * call: stop the run (`runCli` then says the backend is down, exit 4) instead of recording every
 * remaining row as failed.
 */
export function stopIfBackendDown(state: Pick<CommandState, 'breaker'>, scoring: Scoring): Scoring {
  if ('reasons' in scoring) throwIfBackendDown(state);
  return scoring;
}

/** A sample's scoring through the spec's evaluator: its reward, or why it failed (the row's errors, else its sources' reasons). */
export async function specScoring(
  evaluate: (sample: Sample) => Promise<RewardResult>,
  sample: Sample,
): Promise<Scoring> {
  const result = await evaluate(sample);
  return result.status === 'ok' && result.reward !== null
    ? { reward: result.reward }
    : { reasons: failureReasons(result) };
}

/**
 * A pairwise judge's scoring of a shown pair: 1 when it prefers the better answer, 0 the worse, ½ a
 * tie or orders that disagree; an unreadable verdict is a failed row with the judge's reason.
 */
export async function pairScoring(
  judge: (pair: {
    prompt: string;
    first: string;
    second: string;
  }) => Promise<{ verdict: string; reason?: string }>,
  pair: ShownPair,
): Promise<Scoring> {
  // Only what the judge may read: the label (`better`) stays here.
  const judgment = await judge({ prompt: pair.prompt, first: pair.first, second: pair.second });
  if (judgment.verdict === 'invalid')
    return { reasons: [`no readable verdict: ${judgment.reason ?? 'no comparison was readable'}`] };
  if (judgment.verdict === 'first' || judgment.verdict === 'second')
    return { reward: judgment.verdict === pair.better ? 1 : 0 };
  return { reward: 0.5 };
}
