import type { PairwiseJudge, PairwiseJudgment } from '../../judges/index.js';
import { parseSkill } from '../parse-skill.js';
import type { SkillFiles } from '../skill-files.js';
import type { Skill } from '../skill-package.js';
import type { FixEvaluator } from '../trace2skill/analyze-trajectory.js';
import type { ShownPair } from './labelled-pair.js';
import { skillWithLessons } from './skill-with-lessons.js';

export interface RerunGateOptions {
  /** The skill the failed judgments were made with. */
  readonly files: SkillFiles;
  /** The held-in pairs by id, each with its label: the only place the gate reads the label from. */
  readonly pairs: ReadonlyMap<string, ShownPair>;
  /** A judge holding the given skill (the loop's Skill-RM judge, both orders). */
  readonly judgeWith: (skill: Skill) => PairwiseJudge;
  /** Each re-run judgment, for its cost. */
  readonly onRerun?: (pair: ShownPair, judgment: PairwiseJudgment) => void;
}

/**
 * The judge domain's pass gate: a failed run's lessons pass only when the judge, holding the skill
 * with those lessons appended, judges the pair again and its verdict now matches the label. The
 * analyst's own corrected answer is never read, so copying a verdict earns nothing; a lesson that
 * only names a position fails too, as the judge sees the pair in both orders. A lesson set that
 * makes the skill invalid fails. A run that is not one of the held-in pairs has no gate here
 * (undefined: its lessons stay ungated).
 */
export function rerunGate(options: RerunGateOptions): FixEvaluator {
  return async (trajectory, analysis) => {
    const pair = options.pairs.get(trajectory.id);
    if (pair === undefined) return undefined;
    const patched = parseSkill(skillWithLessons(options.files, analysis));
    if (!patched.ok) return false;
    const judgment = await options
      .judgeWith(patched.skill)
      .judge({ prompt: pair.prompt, first: pair.first, second: pair.second });
    options.onRerun?.(pair, judgment);
    return judgment.verdict === pair.better;
  };
}
