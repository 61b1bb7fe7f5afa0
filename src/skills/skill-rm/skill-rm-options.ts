import type { ChatModel } from '../../llm/index.js';
import type { Skill } from '../skill-package.js';
import type { SkillRmCaps } from './skill-rm-caps.js';
import type { SkillRmRuntime } from './skill-rm-runtime.js';

/** What a Skill-RM judge is configured with. */
export interface SkillRmOptions {
  readonly model: ChatModel;
  /** A loaded, valid skill package (`loadSkill`). */
  readonly skill: Skill;
  /** Runs `verifier` / `llm_pipeline` resources and the sandbox; without it those resources fail as tool errors. */
  readonly runtime?: SkillRmRuntime;
  /** Per-sample caps (default `DEFAULT_SKILL_RM_CAPS`). */
  readonly caps?: Partial<SkillRmCaps>;
  /** Show `benchmark_visible` resources: the sample carries benchmark data (default false). */
  readonly benchmarkVisible?: boolean;
  /** Re-asks of the direct judge, the cascade's last step (default 2). */
  readonly reasks?: number;
  readonly temperature?: number;
}
