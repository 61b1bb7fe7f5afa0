import { z } from 'zod';
import type { ChatTool } from '../../llm/index.js';

export const UseSkillArgs = z.object({
  name: z.string().min(1).describe('the skill to open'),
  reason: z.string().optional().describe('why this skill fits the sample'),
});

const finalCommon = {
  confidence: z.number().min(0).max(1).optional().describe('how sure you are, in [0, 1]'),
  used_resources: z.array(z.string()).optional().describe('ids of the resources that informed the verdict'),
  reason: z.string().describe('one or two sentences naming the deciding evidence'),
};

/** `final_answer` of a pairwise episode: the verdict in the shown positions. */
export const PairwiseFinalArgs = z.object({
  verdict: z.enum(['A', 'B', 'tie']).describe('"A", "B" or "tie"'),
  ...finalCommon,
});

/** `final_answer` of a pointwise episode: a score, or the checklist count it follows from. */
export const PointwiseFinalArgs = z
  .object({
    score: z.number().optional().describe('the score in [0, 1]'),
    satisfied: z.number().int().nonnegative().optional().describe('checklist items satisfied'),
    total: z.number().int().positive().optional().describe('checklist items in all'),
    ...finalCommon,
  })
  .refine((a) => a.score !== undefined || (a.satisfied !== undefined && a.total !== undefined), {
    message: 'give "score", or "satisfied" and "total"',
  });

export const ViewResourceArgs = z.object({
  path: z
    .string()
    .min(1)
    .describe('a resource id from the index, or a document path such as references/code.md'),
});
export const RunResourceArgs = z.object({
  id: z.string().min(1).describe('the id of a resource whose "use" is run_resource'),
});
export const SandboxArgs = z.object({
  code: z.string().min(1).describe('the program to run'),
  language: z.string().optional().describe('python (default), javascript, …'),
  stdin: z.string().optional().describe('standard input'),
});

/** The tools of one Skill-RM episode by name, their argument schemas and what they do. */
export function skillRmTools(mode: 'pairwise' | 'pointwise') {
  return {
    use_skill: {
      name: 'use_skill',
      description:
        'Open a skill: returns its instructions, tool guidance and resource index, and unlocks the resource tools.',
      parameters: UseSkillArgs,
    },
    final_answer: {
      name: 'final_answer',
      description:
        mode === 'pairwise'
          ? 'Finish with the verdict: which response is better ("A", "B") or "tie".'
          : 'Finish with the score of the response in [0, 1] (or the checklist count).',
      parameters: mode === 'pairwise' ? PairwiseFinalArgs : PointwiseFinalArgs,
    },
    list_resources: {
      name: 'list_resources',
      description: "The skill's resources for this sample: id, type, cost, impact and the tool that uses it.",
      parameters: z.object({}),
    },
    view_resource: {
      name: 'view_resource',
      description: 'Read a resource (a document or this sample’s reference, metadata or checklist).',
      parameters: ViewResourceArgs,
    },
    run_resource: {
      name: 'run_resource',
      description: 'Run an executable resource (a verifier or another judge) on the response(s).',
      parameters: RunResourceArgs,
    },
    sandbox: {
      name: 'sandbox',
      description: 'Run a short program of your own in the code sandbox (stdout, stderr, exit code).',
      parameters: SandboxArgs,
    },
  } satisfies Record<string, ChatTool>;
}

export type SkillRmToolName = keyof ReturnType<typeof skillRmTools>;
