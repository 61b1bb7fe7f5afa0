/** Per-sample budgets of one Skill-RM episode (one order of a pair, or one pointwise response). */
export interface SkillRmCaps {
  /** Distinct resources the judge may view (`view_resource`); a repeat view is free. */
  readonly maxViews: number;
  /** Characters of one viewed resource; the rest is cut and the cut is shown. */
  readonly maxResourceChars: number;
  /** Runtime runs (`run_resource` and `sandbox` together). */
  readonly maxRuns: number;
  /** Agent turns whose tool calls are carried out; the next turn must finalize. */
  readonly maxSteps: number;
}

/** The defaults of the Skill-RM notes: 5 resources, 10,000 characters, 3 runs, 8 steps. */
export const DEFAULT_SKILL_RM_CAPS: SkillRmCaps = {
  maxViews: 5,
  maxResourceChars: 10_000,
  maxRuns: 3,
  maxSteps: 8,
};
