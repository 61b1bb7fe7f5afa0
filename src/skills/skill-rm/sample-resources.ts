import type { Skill } from '../skill-package.js';
import type { SkillResource } from '../skill-resource.js';
import { sanitizeLabels } from './sanitize-labels.js';
import type { SkillRmSample } from './skill-rm-sample.js';

/**
 * Metadata keys that hold benchmark data (the reference, tests, a checklist): part of the
 * `task-metadata` resource only when benchmark-visible resources are shown.
 */
export const BENCHMARK_METADATA_KEYS: ReadonlySet<string> = new Set([
  'reference',
  'references',
  'answer',
  'answers',
  'ground_truth',
  'solution',
  'solutions',
  'tests',
  'test_cases',
  'test_list',
  'checklist',
  'constraints',
  'instruction_id_list',
  'kwargs',
  'rubric',
  'rubrics',
]);

/** One line of the resource index the judge sees (no visibility field: hidden resources are absent). */
export interface ResourceIndexEntry {
  readonly id: string;
  readonly type: SkillResource['type'];
  readonly implementation: SkillResource['implementation'];
  readonly description?: string;
  readonly path?: string;
  readonly applies_to: readonly string[];
  readonly cost: SkillResource['cost'];
  readonly hard_or_soft: SkillResource['hard_or_soft'];
  readonly decision_impact: SkillResource['decision_impact'];
  readonly inputs_required: readonly string[];
  readonly outputs_produced: readonly string[];
  /** The tool that uses it: `view_resource`, `run_resource` or `sandbox`. */
  readonly use: 'view_resource' | 'run_resource' | 'sandbox';
}

/** A viewable text: a package document or a per-sample resource; `untrusted` for sample data. */
export interface ViewableResource {
  /** Counts toward the distinct-views cap: a document and its resource id are one. */
  readonly key: string;
  readonly id: string;
  readonly text: string;
  readonly untrusted: boolean;
}

/** The resources of one sample, as the judge may use them. */
export interface SampleResources {
  readonly index: readonly ResourceIndexEntry[];
  /** By resource id and by package path. */
  readonly views: ReadonlyMap<string, ViewableResource>;
  /** Runnable resources (`verifier`, `llm_pipeline`) by id. */
  readonly runnable: ReadonlyMap<string, SkillResource>;
  /** Whether a visible `sandbox` resource offers the sandbox tool. */
  readonly sandbox: boolean;
  /** Resources left out, with why (hidden by visibility, nothing to build): for the trace only. */
  readonly withheld: ReadonlyArray<{ readonly id: string; readonly why: string }>;
  /** Label-bearing keys removed from per-sample data (paths), for the trace only. */
  readonly removedKeys: readonly string[];
}

export interface SampleResourceOptions {
  /** Show `benchmark_visible` resources: the caller says the sample carries benchmark data. */
  readonly benchmarkVisible: boolean;
}

/** Whether a resource may be shown or run: `oracle_only` never, `benchmark_visible` when allowed. */
export function isVisible(resource: SkillResource, options: SampleResourceOptions): boolean {
  if (resource.visibility === 'sample_visible') return true;
  if (resource.visibility === 'benchmark_visible') return options.benchmarkVisible;
  return false;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/** The per-sample text of a `runtime_sample` resource, sanitized; undefined when the sample has none. */
function sampleText(
  field: NonNullable<SkillResource['sample_field']>,
  sample: SkillRmSample,
  options: SampleResourceOptions,
  removed: string[],
): string | undefined {
  const clean = (value: unknown, root: string): unknown => {
    const result = sanitizeLabels(value);
    removed.push(...result.removed.map((path) => `${root}.${path}`));
    return result.value;
  };
  if (field === 'reference') {
    const refs =
      sample.reference === undefined
        ? []
        : typeof sample.reference === 'string'
          ? [sample.reference]
          : [...sample.reference];
    return refs.length === 0 ? undefined : refs.length === 1 ? (refs[0] as string) : json(refs);
  }
  if (field === 'checklist') {
    const items = sample.checklist ?? [];
    return items.length === 0 ? undefined : json(clean(items, 'checklist'));
  }
  const metadata = Object.fromEntries(
    Object.entries(sample.metadata ?? {}).filter(
      ([key]) => options.benchmarkVisible || !BENCHMARK_METADATA_KEYS.has(key.toLowerCase()),
    ),
  );
  const kept = clean(metadata, 'metadata') as Record<string, unknown>;
  return Object.keys(kept).length === 0 ? undefined : json(kept);
}

/**
 * The skill's resources for one sample, built when the skill is loaded: visibility enforced
 * (`oracle_only` is never shown or run; `benchmark_visible` only when `benchmarkVisible`),
 * per-sample resources built from the sample with every label-bearing key removed, and the
 * package documents no hidden resource names.
 */
export function buildSampleResources(
  skill: Skill,
  sample: SkillRmSample,
  options: SampleResourceOptions,
): SampleResources {
  const index: ResourceIndexEntry[] = [];
  const views = new Map<string, ViewableResource>();
  const runnable = new Map<string, SkillResource>();
  const withheld: Array<{ id: string; why: string }> = [];
  const removedKeys: string[] = [];
  let sandbox = false;
  const hiddenPaths = new Set(
    skill.resources
      .filter((r) => !isVisible(r, options) && r.path !== undefined)
      .map((r) => r.path as string),
  );
  for (const resource of skill.resources) {
    if (!isVisible(resource, options)) {
      withheld.push({ id: resource.id, why: `visibility ${resource.visibility}` });
      continue;
    }
    let use: ResourceIndexEntry['use'] = 'view_resource';
    if (resource.implementation === 'runtime_sample') {
      const text = sampleText(resource.sample_field ?? 'metadata', sample, options, removedKeys);
      if (text === undefined) {
        withheld.push({ id: resource.id, why: `the sample has no ${resource.sample_field}` });
        continue;
      }
      views.set(resource.id, { key: `sample:${resource.id}`, id: resource.id, text, untrusted: true });
    } else if (resource.implementation === 'reference_doc') {
      const path = resource.path as string;
      const text = skill.files.get(path);
      if (text === undefined) {
        withheld.push({ id: resource.id, why: `${path} is not in the package` });
        continue;
      }
      const view = { key: `file:${path}`, id: resource.id, text, untrusted: false };
      views.set(resource.id, view);
      views.set(path, view);
    } else if (resource.implementation === 'sandbox') {
      use = 'sandbox';
      sandbox = true;
    } else {
      use = 'run_resource';
      runnable.set(resource.id, resource);
    }
    index.push({
      id: resource.id,
      type: resource.type,
      implementation: resource.implementation,
      ...(resource.description !== undefined && { description: resource.description }),
      ...(resource.implementation === 'reference_doc' &&
        resource.path !== undefined && { path: resource.path }),
      applies_to: resource.applies_to,
      cost: resource.cost,
      hard_or_soft: resource.hard_or_soft,
      decision_impact: resource.decision_impact,
      inputs_required: resource.inputs_required,
      outputs_produced: resource.outputs_produced,
      use,
    });
  }
  // The skill's own documents (SKILL.md, references/*.md) are instructions anyone may read,
  // unless a hidden resource names them.
  for (const path of skill.files.keys()) {
    const document = path === 'SKILL.md' || (path.startsWith('references/') && path.endsWith('.md'));
    if (!document || hiddenPaths.has(path) || views.has(path)) continue;
    views.set(path, {
      key: `file:${path}`,
      id: path,
      text: skill.files.get(path) as string,
      untrusted: false,
    });
  }
  return { index, views, runnable, sandbox, withheld, removedKeys };
}
