import type { SkillFiles } from './skill-files.js';
import type { SkillFrontMatter } from './skill-front-matter.js';
import type { SkillResource } from './skill-resource.js';
import type { SkillViolation } from './skill-violation.js';

/** A level-one document of the skill: `references/<name>.md`. */
export interface SkillReference {
  readonly path: string;
  readonly text: string;
  readonly lines: number;
}

/** A skill package that passed every rule of the validator. */
export interface Skill {
  readonly spec: 'rk-skill/v1';
  readonly name: string;
  readonly description: string;
  readonly frontMatter: SkillFrontMatter;
  /** SKILL.md after its front matter: the instructions a model reads when it opens the skill. */
  readonly body: string;
  readonly bodyLines: number;
  readonly references: readonly SkillReference[];
  /** `resources.yaml`'s entries, in file order; empty when the package has no resources.yaml. */
  readonly resources: readonly SkillResource[];
  /** Every file of the package, for resources and patches that name other files. */
  readonly files: SkillFiles;
}

/** A package either loads whole or not at all: every violation, and no half-built skill. */
export type SkillResult =
  | { readonly ok: true; readonly skill: Skill }
  | { readonly ok: false; readonly violations: readonly SkillViolation[] };
