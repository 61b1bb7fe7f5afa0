import { z } from 'zod';

/** One step of an agent run: any of its thought, action, observation or plain content. */
export const TrajectoryStepSchema = z
  .object({
    role: z.string().optional(),
    thought: z.string().optional(),
    action: z.string().optional(),
    observation: z.string().optional(),
    content: z.string().optional(),
  })
  .refine((s) => [s.thought, s.action, s.observation, s.content].some((t) => t !== undefined), {
    message: 'a step needs at least one of thought, action, observation, content',
  });

export type TrajectoryStep = z.output<typeof TrajectoryStepSchema>;

/** How the run was evaluated. */
export const TrajectoryOutcomeSchema = z.object({
  /** Whether the run solved its task. */
  pass: z.boolean(),
  /** A soft score in the evaluator's own range, where there is one. */
  score: z.number().finite().optional(),
  /** What the evaluator said (a failing test, the expected format); shown to the analyst. */
  feedback: z.string().optional(),
});

/**
 * One agent run with its outcome: a line of a Trace2Skill trajectories file. `steps` or
 * `transcript` (or both) carry the run. `reference` is for the evaluator that pass-gates a
 * failed run's lessons and is never shown to a model; `metadata` is kept for the caller and not
 * shown either. Other keys are ignored.
 */
export const TrajectorySchema = z
  .object({
    id: z.string().min(1),
    task: z.string().min(1),
    steps: z.array(TrajectoryStepSchema).optional(),
    transcript: z.string().optional(),
    outcome: TrajectoryOutcomeSchema,
    reference: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((t) => t.steps !== undefined || t.transcript !== undefined, {
    message: 'a trajectory needs "steps" or "transcript"',
    path: ['steps'],
  });

export type Trajectory = z.output<typeof TrajectorySchema>;
