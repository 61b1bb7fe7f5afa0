import type { Skill } from '../skill-package.js';
import { buildSampleResources } from '../skill-rm/sample-resources.js';
import type { SkillRmCaps } from '../skill-rm/skill-rm-caps.js';
import type { SkillRmRuntime } from '../skill-rm/skill-rm-runtime.js';
import { createSkillRmSession } from '../skill-rm/skill-rm-session.js';
import { skillRmTools } from '../skill-rm/skill-rm-tools.js';
import type { AnalystTools } from '../trace2skill/analyst-toolbox.js';
import type { ShownPair } from './labelled-pair.js';

const ACTIONS = ['list_resources', 'view_resource', 'run_resource'] as const;

/**
 * The tools of the judge an analyst studies, for one held-in pair: a Skill-RM session over the
 * same skill, the pair shown as the judge's forward order (A = first response), opened, offering
 * `list_resources`, `view_resource` and `run_resource` under the judge's own per-sample caps (views,
 * characters, runs). The session sees only the prompt and the two responses, as the judge did:
 * never the label. A run that is not a held-in pair gets no tools.
 */
export function pairAnalystTools(options: {
  readonly skill: Skill;
  readonly pairs: ReadonlyMap<string, ShownPair>;
  readonly runtime?: SkillRmRuntime | undefined;
  readonly caps: SkillRmCaps;
  readonly benchmarkVisible?: boolean;
}): AnalystTools {
  const all = skillRmTools('pairwise');
  const tools = ACTIONS.map((name) => all[name]);
  return (trajectory) => {
    const pair = options.pairs.get(trajectory.id);
    if (pair === undefined) return undefined;
    const sample = { prompt: pair.prompt };
    const benchmarkVisible = options.benchmarkVisible ?? false;
    const session = createSkillRmSession({
      skill: options.skill,
      resources: buildSampleResources(options.skill, sample, { benchmarkVisible }),
      runtime: options.runtime,
      caps: options.caps,
      mode: 'pairwise',
      sample,
      shown: { A: pair.first, B: pair.second },
      benchmarkVisible,
      signal: undefined,
    });
    let opened: Promise<unknown> | undefined;
    return {
      tools,
      guidance:
        "They are the judge's own resource tools for this pair, where A is the first response and B the second.",
      execute: async (call) => {
        if (!(ACTIONS as readonly string[]).includes(call.name))
          return JSON.stringify({
            error: 'unknown_tool',
            message: `no tool named "${call.name}"`,
            hint: `Available: ${ACTIONS.join(', ')}.`,
          });
        opened ??= session.execute({
          id: 'open',
          name: 'use_skill',
          arguments: { name: options.skill.name },
        });
        await opened;
        return (await session.execute(call)).content;
      },
      calls: () => session.calls,
    };
  };
}
