import type { SkillRmOrderDetail } from '../skill-rm/skill-rm-judge.js';
import type { Trajectory, TrajectoryStep } from '../trace2skill/trajectory.js';
import type { JudgedPair } from './judged-pair.js';
import type { ShownPair } from './labelled-pair.js';

const FEEDBACK: Record<JudgedPair['outcome'], string> = {
  correct: 'the verdict was right',
  wrong: 'the verdict was wrong: it picked the worse response',
  tie: 'the verdict was wrong: one response is better, but the judge called a tie',
  inconsistent: 'the verdict was wrong: the two orders disagreed (the judge followed the position)',
  invalid: 'the judge gave no verdict',
};

/** The per-order episodes of a Skill-RM judgment (`judgeSkillRmPair`'s detail); none for another judge. */
function ordersOf(detail: unknown): readonly SkillRmOrderDetail[] {
  const orders = (detail as { orders?: unknown } | null | undefined)?.orders;
  return Array.isArray(orders) ? (orders as SkillRmOrderDetail[]) : [];
}

const toolLine = (call: { tool: string; arguments: unknown }) =>
  `${call.tool}(${JSON.stringify(call.arguments)})`;

/** One order's episode as steps: each cascade stage with its tool calls, then the order's answer. */
function orderSteps(order: SkillRmOrderDetail): TrajectoryStep[] {
  const role =
    order.order === 'forward'
      ? 'judge, forward order (A = first response, B = second)'
      : 'judge, backward order (A = second response, B = first)';
  const steps: TrajectoryStep[] = order.trace.stages.map((stage) => {
    const calls = stage.toolCalls ?? [];
    const observations = calls
      .map((c) =>
        c.error
          ? `${c.tool}: error ${c.error.error}: ${c.error.message}`
          : c.outcome && `${c.tool}: ${c.outcome}`,
      )
      .filter((o): o is string => typeof o === 'string' && o !== '');
    return {
      role,
      thought: `${stage.stage}${stage.step !== undefined ? ` ${stage.step}` : ''}: ${stage.outcome}`,
      ...(calls.length > 0 && { action: calls.map(toolLine).join('\n') }),
      ...(observations.length > 0 && { observation: observations.join('\n') }),
      ...(stage.text !== undefined && { content: stage.text }),
    };
  });
  const trace = order.trace;
  steps.push({
    role,
    content: [
      `skill opened: ${trace.skillOpened ? 'yes' : 'no'}; resources viewed: ${trace.viewed.join(', ') || 'none'}; runtime runs: ${trace.runs}`,
      ...trace.evidence.map(
        (e) => `evidence ${e.resource} (${e.hard ? 'hard' : 'soft'}) favours ${e.favours ?? 'neither'}`,
      ),
      order.status === 'ok'
        ? `answer: ${order.shown}${order.route ? ` via ${order.route}` : ''}${order.reason ? ` — ${order.reason}` : ''}`
        : `no answer: ${order.reason ?? 'invalid'}`,
    ].join('\n'),
  });
  return steps;
}

/**
 * A judged held-in pair as a Trace2Skill trajectory: the task is the request and the two responses
 * as the judge saw them; the run is the judge's trace (cascade stages, tool calls, resources
 * viewed and run, evidence, each order's answer) and its verdict. The label appears only as the
 * outcome (pass when the verdict is right) and as `reference`, which the gate holds and no model
 * reads. The feedback says that a verdict was wrong and how (a tie, a position bias), never which
 * response is better: the gate compares a re-run's verdict with that label, and a gate that checks
 * a value the analyst was shown tests copying.
 */
export function verdictTrajectory(pair: ShownPair, judged: JudgedPair): Trajectory {
  const pass = judged.outcome === 'correct';
  return {
    id: pair.id,
    task: [
      'Judge which of two responses to the request is better. The answer is the verdict: "first", "second", or "tie" only when they are equivalent.',
      `Request:\n${pair.prompt}`,
      `First response:\n${pair.first}`,
      `Second response:\n${pair.second}`,
    ].join('\n\n'),
    steps: [
      ...ordersOf(judged.detail).flatMap(orderSteps),
      {
        role: 'judgment',
        content: `verdict: ${judged.verdict}${judged.reason ? ` (${judged.reason})` : ''}${judged.decided_by ? `; decided by ${judged.decided_by}` : ''}`,
      },
    ],
    outcome: {
      pass,
      score: pass ? 1 : 0,
      feedback: FEEDBACK[judged.outcome],
    },
    reference: pair.better,
  };
}
