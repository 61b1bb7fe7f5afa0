import { z } from 'zod';

export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;

/**
 * The YAML front matter of SKILL.md, in the Agent Skills format: `name` and `description` are what
 * a model sees before it opens the skill, so both are short and plain; the rest is optional.
 * Unknown keys are refused, so a misspelt `allowed_tools` is caught instead of ignored.
 */
export const SkillFrontMatterSchema = z.strictObject({
  name: z
    .string()
    .max(SKILL_NAME_MAX, `is longer than ${SKILL_NAME_MAX} characters`)
    .regex(
      /^[a-z0-9]+(-[a-z0-9]+)*$/,
      'must be kebab-case: lowercase letters and digits joined by single hyphens',
    ),
  description: z
    .string()
    .trim()
    .min(1, 'is empty; say what the skill does and when to use it')
    .max(SKILL_DESCRIPTION_MAX, `is longer than ${SKILL_DESCRIPTION_MAX} characters`)
    .regex(/^[^<>]*$/, 'must not contain "<" or ">" (models see it as plain text)'),
  license: z.string().min(1).optional(),
  /** Tools the skill may use without asking, as one space-separated string or a list. */
  'allowed-tools': z.union([z.string(), z.array(z.string().min(1))]).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  /** Where the skill runs (products, system packages, network access), in prose. */
  compatibility: z.string().min(1).max(500).optional(),
});

export type SkillFrontMatter = z.infer<typeof SkillFrontMatterSchema>;
