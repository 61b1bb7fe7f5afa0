import { z } from 'zod';

/** What a resource is to the judge (Skill-RM's resource types). */
export const RESOURCE_TYPES = [
  'rubric',
  'principle',
  'reference',
  'checklist',
  'verifier',
  'tool',
  'tool_protocol',
  'external_pipeline',
  'calibration',
  'aggregation',
  'output_contract',
] as const;

/**
 * How a resource is realised: `reference_doc` a file of the package the judge reads;
 * `runtime_sample` built per sample at load time from the sample itself (its metadata, reference
 * or checklist — `sample_field` says which); `sandbox` the code sandbox tool; `verifier` a
 * rewardkit verifier run on the sample; `llm_pipeline` another rewardkit judge (LLM calls).
 */
export const RESOURCE_IMPLEMENTATIONS = [
  'reference_doc',
  'runtime_sample',
  'sandbox',
  'verifier',
  'llm_pipeline',
] as const;

/** How a resource's output may move the verdict. */
export const DECISION_IMPACTS = [
  'strong',
  'evidence',
  'veto',
  'routing',
  'calibration',
  'formatting',
] as const;

/**
 * Who may see a resource: `sample_visible` anything derived from the sample as a policy sees it;
 * `benchmark_visible` what the benchmark hands every judge (a reference answer, tests, a
 * checklist); `oracle_only` the label or anything that reveals it, never shown in the normal setting.
 */
export const VISIBILITY_LEVELS = ['sample_visible', 'benchmark_visible', 'oracle_only'] as const;

export const RESOURCE_COSTS = ['low', 'medium', 'high'] as const;

/** The sample fields a `runtime_sample` resource is built from. */
export const SAMPLE_FIELDS = ['metadata', 'reference', 'checklist'] as const;

/**
 * The rewardkit source kinds a runtime resource can run: the verifiers (math, reference, IFEval,
 * code and the format checks) for `verifier`, the judges for `llm_pipeline`. A closed list, so a
 * skill cannot name a check rewardkit does not have.
 */
export const VERIFIER_BINDINGS = [
  'math',
  'reference',
  'ifeval',
  'code',
  'regex',
  'json',
  'tags',
  'length',
] as const;
export const JUDGE_BINDINGS = ['genrm', 'openrs'] as const;
export const RESOURCE_BINDINGS = [...VERIFIER_BINDINGS, ...JUDGE_BINDINGS] as const;

const nonEmptyList = z.array(z.string().min(1)).min(1, 'is empty; name at least one');

/** One entry of `resources.yaml`; how fields depend on `implementation` is checked by the validator. */
export const SkillResourceSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]*$/,
      'id must be lowercase letters, digits, "_" and "-", starting with a letter or digit',
    ),
  type: z.enum(RESOURCE_TYPES),
  implementation: z.enum(RESOURCE_IMPLEMENTATIONS),
  /** One line for the resource index the judge lists. */
  description: z.string().min(1).optional(),
  /** A file of the package (required for `reference_doc`). */
  path: z.string().min(1).optional(),
  /** The rewardkit source kind a `verifier` or `llm_pipeline` resource runs. */
  binding: z.enum(RESOURCE_BINDINGS).optional(),
  /** The sample field a `runtime_sample` resource is built from. */
  sample_field: z.enum(SAMPLE_FIELDS).optional(),
  /** Task kinds the resource helps with (`math`, `code`, `writing`, …; `all` for every task). */
  applies_to: nonEmptyList,
  cost: z.enum(RESOURCE_COSTS),
  /** `hard`: a deterministic fact (a test result, a reference match); `soft`: a judgment. */
  hard_or_soft: z.enum(['hard', 'soft']),
  decision_impact: z.enum(DECISION_IMPACTS),
  inputs_required: nonEmptyList,
  outputs_produced: nonEmptyList,
  visibility: z.enum(VISIBILITY_LEVELS),
});

export type SkillResource = z.infer<typeof SkillResourceSchema>;

export const ResourcesFileSchema = z.strictObject({ resources: z.array(z.unknown()) });
